/// Object keys written once as JSON, with their quotes, escapes and colon (`"first_name":`), in
/// one buffer: the answer copies a field's key instead of scanning and escaping its id on every
/// request (about 130 instructions a key under callgrind; a form's ids are known at load).
struct QuotedKeys: Sendable {
    private let bytes: [UInt8]
    /// `ends[i]`: where key i ends in `bytes` (it starts where key i - 1 ends).
    private let ends: [Int32]

    init(_ keys: [String]) {
        var w = JSONWriter(reservingCapacity: keys.reduce(0) { $0 + $1.utf8.count + 3 })
        var ends: [Int32] = []
        ends.reserveCapacity(keys.count)
        for k in keys {
            w.key(k)
            ends.append(Int32(w.byteCount))
            w.needsComma = false
        }
        bytes = w.bytes
        self.ends = ends
    }

    var count: Int { ends.count }

    /// Key i as a JSON string, with its quotes but without the colon (`"first_name"`).
    @inline(__always) func withString<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { all in
            let start = i == 0 ? 0 : Int(ends[i - 1])
            return body(UnsafeBufferPointer(rebasing: all[start..<Int(ends[i]) - 1]))
        }
    }

    /// Calls `body` with a function that gives key i's bytes, with its colon (`"phone":`), or
    /// without it when `colon` is false (`"phone"`, a string value). Valid only inside `body`.
    @inline(__always) func withKeys<R>(colon: Bool = true, _ body: ((Int) -> UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { all in
            ends.withUnsafeBufferPointer { ends in
                body { i in
                    let start = i == 0 ? 0 : Int(ends[i - 1])
                    return UnsafeBufferPointer(rebasing: all[start..<Int(ends[i]) - (colon ? 0 : 1)])
                }
            }
        }
    }
}

/// A string value of the answer: text to escape and quote, text already written as JSON with its
/// quotes (`"phone"`, from `QuotedKeys`), or a constant of the program that needs no escaping.
enum AnswerString {
    case text(String)
    case quoted(UnsafeBufferPointer<UInt8>)
    case fixed(StaticString)
}

extension JSONWriter {
    @inline(__always) mutating func string(_ s: AnswerString) {
        switch s {
        case .text(let text): string(text)
        case .quoted(let bytes): rawValue(bytes)
        case .fixed(let text): fixedString(text)
        }
    }
}

/// A member key of the answer: an id to write, or one already written (`QuotedKeys`).
enum AnswerKey {
    case text(String)
    case quoted(UnsafeBufferPointer<UInt8>)
}

extension JSONWriter {
    @inline(__always) mutating func key(_ key: AnswerKey) {
        switch key {
        case .text(let s): self.key(s)
        case .quoted(let bytes): quotedKey(bytes)
        }
    }
}
