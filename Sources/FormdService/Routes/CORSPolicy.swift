import FormdHTTP

/// Cross-origin access for browsers (`cors.allowed_origins`, API.md §1): preflight `OPTIONS`
/// answers and the `Access-Control-*` headers of every answer to an allowed origin. A request
/// from any other origin gets no CORS header and is otherwise answered as usual. The client's
/// files under `/client/` (not the page) are public: `Access-Control-Allow-Origin: *` for all.
struct CORSPolicy: Sendable {
    let any: Bool
    let origins: Set<String>

    /// nil when no origin is allowed: then nothing about CORS runs at all.
    init?(allowedOrigins: [String]) {
        guard !allowedOrigins.isEmpty else { return nil }
        any = allowedOrigins.contains("*")
        origins = Set(allowedOrigins)
    }

    static let allowHeaders = "Content-Type, If-Match, If-None-Match, Accept-Language, X-Request-Id"
    static let exposeHeaders = "ETag, X-Request-Id, Content-Language, Retry-After, Formd-Forms-Digest, Formd-Batch-Counts"
    static let maxAge = "600"

    func allows(_ origin: String) -> Bool { any || origins.contains(origin) }

    /// `scheme://host[:port]`, as browsers send `Origin` (no path, query or trailing slash).
    static func isOrigin(_ s: String) -> Bool {
        guard let r = s.range(of: "://") else { return false }
        let scheme = s[..<r.lowerBound], rest = s[r.upperBound...]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            && !rest.isEmpty && !rest.contains("/") && !rest.contains("?") && !rest.contains("#")
    }

    /// The methods a path answers, for `Access-Control-Allow-Methods` and `Allow`.
    static func methods(for path: String) -> String {
        path.hasPrefix("/forms/") && (path.hasSuffix("/validate") || path.hasSuffix("/evaluate"))
            ? "POST, OPTIONS" : "GET, HEAD, OPTIONS"
    }

    /// 204 with the preflight headers.
    func preflight(path: String, origin: String) -> HTTPResponse {
        var r = HTTPResponse(status: 204)
        r.headers.set("Access-Control-Allow-Origin", any ? "*" : origin)
        r.headers.set("Access-Control-Allow-Methods", Self.methods(for: path))
        r.headers.set("Access-Control-Allow-Headers", Self.allowHeaders)
        r.headers.set("Access-Control-Max-Age", Self.maxAge)
        r.headers.set("Vary", "Origin")
        return r
    }

    /// The headers of an actual (non-preflight) answer to an allowed origin. The client's public
    /// files (`/client/formd.js`, `formd.css`) already allow every origin and are left so.
    func decorate(_ r: inout HTTPResponse, origin: String) {
        guard r.headers["Access-Control-Allow-Origin"] == nil else { return }
        r.headers.set("Access-Control-Allow-Origin", any ? "*" : origin)
        r.headers.set("Access-Control-Expose-Headers", Self.exposeHeaders)
    }
}
