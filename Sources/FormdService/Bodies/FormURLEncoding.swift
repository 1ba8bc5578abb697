import FormdCore
import FormdHTTP
import Foundation

/// HTML form posts, `application/x-www-form-urlencoded`: `a=1&b=x+y`, as pairs in order (a key
/// may repeat; `HTMLFormPost` says what that means). Values are strings, coerced per SEMANTICS §2.
///
/// Read as bytes: a key or value without `+` or `%` becomes its string straight from the body;
/// the others are decoded into one scratch buffer reused for every one of them.
enum FormURLEncoding {
    static func decode(_ body: [UInt8]) -> Result<[(key: String, value: String)], HTTPError> {
        body.withUnsafeBufferPointer { body in
            var pairs: [(key: String, value: String)] = []
            var scratch: [UInt8] = []
            var start = 0
            while start < body.count {
                var end = start
                var equals = -1
                while end < body.count, body[end] != UInt8(ascii: "&") {
                    if equals < 0, body[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                if end > start {  // empty pairs (`a=1&&b=2`) are skipped
                    let keyEnd = equals < 0 ? end : equals
                    let valueStart = equals < 0 ? end : equals + 1
                    guard let key = percentDecode(UnsafeBufferPointer(rebasing: body[start..<keyEnd]), scratch: &scratch),
                          let value = percentDecode(UnsafeBufferPointer(rebasing: body[valueStart..<end]), scratch: &scratch)
                    else {
                        return .failure(HTTPError(status: 400, slug: "bad-request", detail: "malformed percent-encoding or UTF-8 in the form post"))
                    }
                    pairs.append((key, value))
                }
                start = end + 1
            }
            return .success(pairs)
        }
    }

    static func percentDecode(_ bytes: ArraySlice<UInt8>) -> String? {
        var scratch: [UInt8] = []
        return bytes.withUnsafeBufferPointer { percentDecode($0, scratch: &scratch) }
    }

    /// `bytes` with `+` as a space and `%XX` as its byte, as a string; nil when an escape is
    /// malformed or the result is not UTF-8.
    static func percentDecode(_ bytes: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> String? {
        guard bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return UTF8Text.string(bytes) }
        scratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                scratch.append(0x20)
            } else if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) else { return nil }
                scratch.append(h << 4 | l)
                i += 2
            } else {
                scratch.append(b)
            }
            i += 1
        }
        return scratch.withUnsafeBufferPointer { UTF8Text.string($0) }
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }
}
