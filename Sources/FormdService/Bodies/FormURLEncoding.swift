import FormdCore
import FormdHTTP
import Foundation

/// HTML form posts, `application/x-www-form-urlencoded`: `a=1&b=x+y`, as pairs in order (a key
/// may repeat; `HTMLFormPost` says what that means). Values are strings, coerced per SEMANTICS §2.
enum FormURLEncoding {
    static func decode(_ body: [UInt8]) -> Result<[(key: String, value: String)], HTTPError> {
        var pairs: [(key: String, value: String)] = []
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = percentDecode(parts[0]), let value = percentDecode(parts.count > 1 ? parts[1] : []) else {
                return .failure(HTTPError(status: 400, slug: "bad-request", detail: "malformed percent-encoding or UTF-8 in the form post"))
            }
            pairs.append((key, value))
        }
        return .success(pairs)
    }

    static func percentDecode(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(0x20)
            } else if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex + 0, i + 2 <= bytes.endIndex - 1, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2])
                else { return nil }
                out.append(h << 4 | l)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        return String(validating: out, as: UTF8.self)
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
