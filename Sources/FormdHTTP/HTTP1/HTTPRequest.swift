/// A complete request as handed to an `HTTPHandler`: the body is already de-chunked and,
/// when it was sent with `Content-Encoding: gzip`, inflated.
package struct HTTPRequest: Sendable {
    /// The method token as sent (case-sensitive, e.g. `GET`).
    package var method: String
    /// The request target as sent (origin-form `/a/b?x=1`, `*`, or absolute-form).
    package var target: String
    /// The path part of the target (before `?`), percent-encoding untouched. For an
    /// absolute-form target, the path of the URI (`/` when empty).
    package var path: String
    /// The query string after `?` (without it), or nil when there is no `?`.
    package var query: String?
    /// HTTP minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    package var versionMinor: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// The client's `X-Request-Id` when sane (1-128 of `[A-Za-z0-9._:-]`), else a generated id.
    package var requestID: String
    /// False when the parser saw no `Accept-Encoding` / `X-Request-Id` field: the server then
    /// skips looking for one. True for a request made any other way.
    var mayHaveAcceptEncoding = true
    var mayHaveRequestID = true

    package init(method: String, target: String, versionMinor: Int = 1, headers: HTTPHeaders = [:],
                body: [UInt8] = [], requestID: String = "test") {
        self.method = method
        self.target = target
        (self.path, self.query) = HTTPRequest.split(target: target)
        self.versionMinor = versionMinor
        self.headers = headers
        self.body = body
        self.requestID = requestID
    }

    /// An empty request: the parser's placeholder between requests (no target to split).
    init() {
        method = ""
        target = ""
        path = ""
        query = nil
        versionMinor = 1
        headers = HTTPHeaders()
        body = []
        requestID = ""
    }

    /// Moves this request out, leaving an empty one. A request is handed from the parser to the
    /// connection to a worker; each copy retains its strings and arrays and each destruction
    /// releases them again, about 365 instructions a pair (docs/BENCHMARKS.md).
    mutating func take() -> HTTPRequest {
        let out = consume self
        self = HTTPRequest()
        return out
    }

    package var version: String { versionMinor == 0 ? "HTTP/1.0" : "HTTP/1.1" }

    static func split(target: String) -> (String, String?) {
        // Origin-form without a query, the common case: the target is the path.
        var bytes = target
        let isPath = bytes.withUTF8 { t in t.first == UInt8(ascii: "/") && !t.contains(UInt8(ascii: "?")) }
        if isPath { return (target, nil) }
        var t = Substring(target)
        if !t.hasPrefix("/"), let colon = t.firstIndex(of: ":"), t[colon...].hasPrefix("://") {
            // absolute-form: drop scheme and authority
            let afterScheme = t[t.index(colon, offsetBy: 3)...]
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                t = afterScheme[slash...]
            } else {
                return ("/", nil)
            }
            if t.hasPrefix("?") { t = "/" + t }
        }
        if let q = t.firstIndex(of: "?") {
            return (String(t[..<q]), String(t[t.index(after: q)...]))
        }
        return (String(t), nil)
    }
}

/// The application callback. Called once per request, possibly concurrently from several
/// threads; must not block for long (see `HTTPServerConfiguration.handlerMode`).
package protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest) -> HTTPResponse
    /// In `.pool` mode, true when `request` is cheap and never blocks (a health probe, a cached
    /// document), so the I/O loop answers it at once instead of handing it to a worker and back.
    /// The default is false: every request goes to the pool.
    func runsOnIOLoop(_ request: HTTPRequest) -> Bool
    /// The server answered `status` itself, without a request for the handler: framing the
    /// parser refused (400, 413, 414, 431, 505, ...) or a head or body that came too late (408).
    /// Called on the I/O loop; for metrics. The default does nothing.
    func rejected(status: Int)
}

extension HTTPHandler {
    package func runsOnIOLoop(_ request: HTTPRequest) -> Bool { false }
    package func rejected(status: Int) {}
}

/// A handler made from a closure.
package struct HTTPClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) -> HTTPResponse
    package init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.body = body }
    package func handle(_ request: HTTPRequest) -> HTTPResponse { body(request) }
}
