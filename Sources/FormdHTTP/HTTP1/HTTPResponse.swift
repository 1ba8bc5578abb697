/// A response. The server adds `Content-Length`, `Date`, `Server`, `X-Request-Id` and, when
/// closing, `Connection: close`; values the handler sets for those names are ignored
/// (except `Server`, which it may override).
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// When false the server never gzips this response (e.g. already compressed, or tiny).
    package var allowsCompression: Bool
    /// Names the body's content (an ETag, say) so that every response with the same key shares
    /// one gzipped copy: a large body served from memory is compressed once, not per request.
    package var compressionKey: String?
    /// `body` is already gzipped (done on the worker that made it, off the I/O loop).
    var bodyIsGzipped = false
    /// Set by `HTTPResponse.deferred`: the real response comes later (`DeferredResponse`).
    package var deferred: DeferredResponse?

    package init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = [], allowsCompression: Bool = true) {
        self.status = status
        self.headers = headers
        self.body = body
        self.allowsCompression = allowsCompression
    }

    // Shared header lists: copy-on-write, so building a response does not allocate them.
    private static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]
    private static let problemHeaders: HTTPHeaders = ["Content-Type": "application/problem+json"]

    /// A JSON response from already-encoded bytes.
    package static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: body)
    }

    package static func json(_ body: String, status: Int = 200) -> HTTPResponse {
        json(Array(body.utf8), status: status)
    }

    package static func text(_ body: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(body.utf8))
    }

    /// An RFC 9457 `application/problem+json` response:
    /// `{"type":"/problems/<slug>","title":...,"status":N,"detail":...}`.
    package static func problem(status: Int, slug: String, title: String? = nil, detail: String) -> HTTPResponse {
        var s = "{\"type\":\"/problems/"
        s += jsonEscaped(slug)
        s += "\",\"title\":\""
        s += jsonEscaped(title ?? HTTPStatus.reason(status))
        s += "\",\"status\":\(status),\"detail\":\""
        s += jsonEscaped(detail)
        s += "\"}"
        return HTTPResponse(status: status, headers: problemHeaders, body: Array(s.utf8))
    }

    /// Escapes a string for inclusion inside a JSON string literal.
    package static func jsonEscaped(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }
}
