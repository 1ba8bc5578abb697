/// Appends compact JSON to a byte buffer, either whole `JSONValue`s or streamed token by
/// token (so engine code can write responses without building a tree):
///
///     var w = JSONWriter()
///     w.beginObject(); w.key("ok"); w.bool(true); w.key("errors"); w.beginArray()
///     w.endArray(); w.endObject()          // {"ok":true,"errors":[]}
///
/// Commas are inserted automatically; the caller is responsible for a well-formed token
/// sequence (a `key` before every object member value, balanced begin/end) — not checked.
///
/// Output is deterministic: object members in stored order, no whitespace, minimal string
/// escaping per RFC 8259 (`"`, `\` and U+0000...U+001F; `\b \f \n \r \t` short forms, the
/// rest as lowercase `\u00XX`). Everything else, non-ASCII included, is written as UTF-8.
/// U+2028/U+2029 are not escaped: the output is JSON, and since ES2019 they are legal in
/// JavaScript string literals too.
package struct JSONWriter: Sendable {
    package var bytes: [UInt8]
    /// True after a complete value/member: the next value, key or container needs a comma.
    var needsComma = false

    package init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Continues writing after existing bytes (which are not inspected).
    package init(appendingTo bytes: [UInt8]) { self.bytes = bytes }

    /// The compact encoding of `value`.
    package static func encode(_ value: JSONValue) -> [UInt8] {
        var w = JSONWriter()
        w.writeValue(value)
        return w.bytes
    }

    @inline(__always) mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    package mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    package mutating func beginArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// An object member's key (and the colon); write its value next.
    package mutating func key(_ key: String) {
        separator()
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    package mutating func string(_ value: String) {
        separator()
        appendQuoted(value)
        needsComma = true
    }

    /// `text` must be a valid JSON number literal (not checked).
    package mutating func number(text: String) {
        separator()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    package mutating func number(_ value: JSONNumber) { number(text: value.text) }

    package mutating func number(_ value: Int) {
        separator()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits of the magnitude, written backwards into a small stack buffer.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var n = 20
            repeat {
                n -= 1
                digits[n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[n..<20]))
        }
        needsComma = true
    }

    package mutating func bool(_ value: Bool) {
        separator()
        if value {
            appendStatic("true")
        } else {
            appendStatic("false")
        }
        needsComma = true
    }

    package mutating func null() {
        separator()
        appendStatic("null")
        needsComma = true
    }

    @inline(__always) mutating func appendStatic(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Splices in one already-encoded JSON value (e.g. a served definition), verbatim.
    package mutating func rawValue(_ json: [UInt8]) {
        separator()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    package mutating func writeValue(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(text: n.text)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for element in elements { writeValue(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.key)
                writeValue(member.value)
            }
            endObject()
        }
    }

    // MARK: - Strings

    mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
        if done == nil {
            // Non-contiguous (bridged) strings: rare, take the slow route.
            appendEscaped(Array(s.utf8))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func appendEscaped(_ utf8: [UInt8]) {
        utf8.withUnsafeBufferPointer { appendEscaped($0) }
    }

    mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress else { return }
        let count = utf8.count
        var runStart = 0
        var k = 0
        while k < count {
            // Eight bytes at a time while none needs escaping (most text: ids, messages, values).
            while k + 8 <= count, !Self.wordNeedsEscape(UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)) {
                k += 8
            }
            let end = min(k + 8, count)
            while k < end {
                let b = base[k]
                if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                    k += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: k - runStart))
                bytes.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(b)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    appendStatic("u00")
                    bytes.append(hex.utf8Start[Int(b >> 4)])
                    bytes.append(hex.utf8Start[Int(b & 0xF)])
                }
                k += 1
                runStart = k
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }

    /// Whether any of the eight bytes of `w` is below 0x20, `"` or `\` (the classic "has a byte
    /// less than n" and "has a zero byte" tests: exact as to whether one exists, which is all
    /// that is asked; bytes of 0x80 and above never match).
    @inline(__always) static func wordNeedsEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (w &- ones &* 0x20) & ~w
        let q = w ^ (ones &* 0x22)
        let quote = (q &- ones) & ~q
        let b = w ^ (ones &* 0x5C)
        let backslash = (b &- ones) & ~b
        return (control | quote | backslash) & highs != 0
    }
}
