/// Object keys written once as JSON, with their quotes, escapes and colon (`"first_name":`), in
/// one buffer: the answer copies a field's key instead of scanning and escaping its id on every
/// request (about 130 instructions a key under callgrind; a form's ids are known at load).
struct QuotedKeys: Sendable {
    /// The keys' bytes and where each ends, in memory of their own: `key(_:)` reads them without
    /// an array's `withUnsafeBufferPointer` closure around the answer's `values` loop (30
    /// instructions a valid employment request; a larger loop inside that closure was outlined
    /// and called the writer through a closure for every value).
    private let storage: Storage
    nonisolated(unsafe) private let bytes: UnsafePointer<UInt8>
    /// `ends[i]`: where key i ends in `bytes` (it starts where key i - 1 ends).
    nonisolated(unsafe) private let ends: UnsafePointer<Int32>
    let count: Int

    private final class Storage: @unchecked Sendable {
        let bytes: UnsafeMutableBufferPointer<UInt8>
        let ends: UnsafeMutableBufferPointer<Int32>

        init(_ bytes: [UInt8], _ ends: [Int32]) {
            self.bytes = .allocate(capacity: max(1, bytes.count))
            _ = self.bytes.initialize(from: bytes)
            self.ends = .allocate(capacity: max(1, ends.count))
            _ = self.ends.initialize(from: ends)
        }

        deinit {
            bytes.deallocate()
            ends.deallocate()
        }
    }

    init(_ keys: [String]) {
        var w = JSONWriter(reservingCapacity: keys.reduce(0) { $0 + $1.utf8.count + 3 })
        var ends: [Int32] = []
        ends.reserveCapacity(keys.count)
        for k in keys {
            w.key(k)
            ends.append(Int32(w.byteCount))
            w.needsComma = false
        }
        storage = Storage(w.bytes, ends)
        bytes = UnsafePointer(storage.bytes.baseAddress.unsafelyUnwrapped)
        self.ends = UnsafePointer(storage.ends.baseAddress.unsafelyUnwrapped)
        count = keys.count
    }

    /// Key i's bytes, with its colon (`"phone":`), or without it when `colon` is false
    /// (`"phone"`, a string value). Valid while this value (or a copy) lives.
    @inline(__always) func key(_ i: Int, colon: Bool = true) -> UnsafeBufferPointer<UInt8> {
        precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "key out of range")
        let start = i == 0 ? 0 : Int(ends[i &- 1])
        return UnsafeBufferPointer(start: bytes + start, count: Int(ends[i]) &- start &- (colon ? 0 : 1))
    }

    /// Key i as a JSON string, with its quotes but without the colon (`"first_name"`).
    @inline(__always) func withString<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withExtendedLifetime(storage) { body(key(i, colon: false)) }
    }

    /// Calls `body` with a function that gives key i's bytes (`key(_:colon:)`). Valid only
    /// inside `body`.
    @inline(__always) func withKeys<R>(colon: Bool = true, _ body: ((Int) -> UnsafeBufferPointer<UInt8>) -> R) -> R {
        withExtendedLifetime(storage) { body { key($0, colon: colon) } }
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
