/// A refusal as an RFC 9457 problem: `status`, the slug of `type` (`/problems/<slug>`) and a
/// `detail` for a person. The server layer answers with these (bad framing, limits, timeouts)
/// and so does the service (a body that is not an object, an unknown form, ...): one type for both.
package struct HTTPError: Error, Equatable, Sendable {
    package var status: Int
    package var slug: String
    package var detail: String

    package init(status: Int, slug: String, detail: String) {
        self.status = status
        self.slug = slug
        self.detail = detail
    }

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

    /// The `application/problem+json` answer.
    package var response: HTTPResponse { .problem(status: status, slug: slug, detail: detail) }
}
