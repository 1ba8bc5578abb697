/// A response. The server adds `Content-Length`, `Date`, `Server`, `X-Request-Id` and, when
/// closing, `Connection: close`; values the handler sets for those names are ignored
/// (except `Server`, which it may override).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// When false the server never gzips this response (e.g. already compressed, or tiny).
    public var allowsCompression: Bool
    /// Names the body's content (an ETag, say) so that every response with the same key shares
    /// one gzipped copy: a large body served from memory is compressed once, not per request.
    public var compressionKey: String?
    /// `body` is already gzipped (done on the worker that made it, off the I/O loop).
    var bodyIsGzipped = false

    public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = [], allowsCompression: Bool = true) {
        self.status = status
        self.headers = headers
        self.body = body
        self.allowsCompression = allowsCompression
    }

    // Shared header lists: copy-on-write, so building a response does not allocate them.
    private static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]
    private static let problemHeaders: HTTPHeaders = ["Content-Type": "application/problem+json"]

    /// A JSON response from already-encoded bytes.
    public static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: body)
    }

    public static func json(_ body: String, status: Int = 200) -> HTTPResponse {
        json(Array(body.utf8), status: status)
    }

    public static func text(_ body: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(body.utf8))
    }

    /// An RFC 9457 `application/problem+json` response:
    /// `{"type":"/problems/<slug>","title":...,"status":N,"detail":...}`.
    public static func problem(status: Int, slug: String, title: String? = nil, detail: String) -> HTTPResponse {
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
    public static func jsonEscaped(_ s: String) -> String {
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

public enum HTTPStatus {
    public static func reason(_ code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(code)"
        }
    }
}

/// An error response produced by the server layer itself (never by the handler).
struct HTTPError: Error, Equatable, Sendable {
    var status: Int
    var slug: String
    var detail: String

    static func badRequest(_ d: String) -> HTTPError { .init(status: 400, slug: "bad-request", detail: d) }
    static let timeout = HTTPError(status: 408, slug: "request-timeout", detail: "The request was not received in time.")
    static let bodyTooLarge = HTTPError(status: 413, slug: "body-too-large", detail: "The request body is larger than the limit.")
    static let uriTooLong = HTTPError(status: 414, slug: "uri-too-long", detail: "The request target is longer than the limit.")
    static let headersTooLarge = HTTPError(status: 431, slug: "headers-too-large", detail: "The request head is larger than the limit.")
    static let plainHTTPOnTLSPort = badRequest("This port serves HTTPS; the request was sent as plain HTTP.")
    static let overloaded = HTTPError(status: 503, slug: "overloaded", detail: "Too many connections; try again later.")
    static let version = HTTPError(status: 505, slug: "http-version", detail: "Only HTTP/1.0 and HTTP/1.1 are supported.")
    static func unsupportedMedia(_ d: String) -> HTTPError { .init(status: 415, slug: "unsupported-media-type", detail: d) }
    static func notImplemented(_ d: String) -> HTTPError { .init(status: 501, slug: "not-implemented", detail: d) }

    var response: HTTPResponse { .problem(status: status, slug: slug, detail: detail) }
}
