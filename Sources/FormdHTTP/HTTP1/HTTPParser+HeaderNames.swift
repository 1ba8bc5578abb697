#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The header names the parser acts on, compared in the request's bytes; and the methods, names
/// and values most requests send, taken as the same String each time instead of decoding them.
extension HTTPParser {
    /// Lowercase ASCII names (the tables `nameIs` folds the request's bytes against).
    enum HeaderName {
        static let host = Array("host".utf8)
        static let expect = Array("expect".utf8)
        static let connection = Array("connection".utf8)
        static let contentLength = Array("content-length".utf8)
        static let contentEncoding = Array("content-encoding".utf8)
        static let transferEncoding = Array("transfer-encoding".utf8)
        static let requestID = Array("x-request-id".utf8)
        static let acceptEncoding = Array("accept-encoding".utf8)
    }

    /// Whether the `lower.count` bytes of `h` at `from` are `lower`, ASCII case-insensitively
    /// (the caller has checked the length). `lower` holds letters and `-` only, and the name's bytes
    /// are tchars, so folding with 0x20 cannot make another byte match.
    @inline(__always)
    static func nameIs(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ lower: [UInt8]) -> Bool {
        lower.withUnsafeBufferPointer { l in
            for i in 0..<l.count where h[from + i] | 0x20 != l[i] { return false }
            return true
        }
    }

    /// Whether none of the eight bytes of `x` is below 0x20 or 0x7F (the bytes the head scan
    /// stops at). Each test is non-zero exactly when some byte matches.
    @inline(__always)
    static func isPlainWord(_ x: UInt64) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        let below20 = (x &- 0x2020_2020_2020_2020) & ~x & high
        let y = x ^ 0x7F7F_7F7F_7F7F_7F7F
        let is7F = (y &- 0x0101_0101_0101_0101) & ~y & high
        return below20 | is7F == 0
    }

    /// The value of `h[from..<end]` when it is one to fifteen ASCII digits, else nil.
    @inline(__always)
    static func digitsValue(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int? {
        guard end > from else { return nil }
        var v = 0
        for i in from..<end {
            let d = h[i] &- 48
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }
}

extension HTTPParser {
    /// Strings looked up by their exact bytes (case as sent: names are kept as received).
    struct InternTable {
        /// By length: the candidates' bytes and the String to use.
        let byLength: [[(bytes: [UInt8], string: String)]]

        init(_ strings: [String]) {
            var table = [[(bytes: [UInt8], string: String)]](repeating: [], count: 1 + (strings.map(\.utf8.count).max() ?? 0))
            for s in strings { table[s.utf8.count].append((Array(s.utf8), s)) }
            byLength = table
        }
    }

    static let commonMethods = InternTable(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"])
    static let commonNames = InternTable([
        "Host", "Content-Type", "Content-Length", "Accept", "Accept-Encoding", "Accept-Language", "User-Agent",
        "Connection", "Origin", "Referer", "If-Match", "If-None-Match", "X-Request-Id", "Content-Encoding",
        "Transfer-Encoding", "Expect", "Cache-Control", "Cookie", "Authorization",
        "host", "content-type", "content-length", "accept", "accept-encoding", "accept-language", "user-agent",
        "connection", "origin", "if-match", "x-request-id",
    ])
    static let commonValues = InternTable([
        "application/json", "application/x-www-form-urlencoded", "keep-alive", "close", "gzip", "*/*",
        "gzip, deflate", "gzip, deflate, br", "100-continue",
    ])

    /// The table's String for `h[from..<end]`, or nil.
    @inline(__always)
    static func interned(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int, _ table: InternTable) -> String? {
        let n = end - from
        guard n > 0, n < table.byLength.count else { return nil }
        for candidate in table.byLength[n] {
            let same = candidate.bytes.withUnsafeBufferPointer { c in
                memcmp(c.baseAddress!, h.baseAddress! + from, n) == 0
            }
            if same { return candidate.string }
        }
        return nil
    }
}
