/// A handler that takes some requests as streams: their body is handed to it piece by piece as it
/// arrives, and its answer goes out piece by piece (`Transfer-Encoding: chunked`, status and
/// headers first) as it writes it. Memory per streamed request is constant whatever the body's
/// size: the connection holds at most a bounded window of body bytes and of answer bytes, and
/// stops reading the socket while either is full (`Connection+Streaming.swift`).
///
/// Which requests are streams is decided once a head is parsed, by `streams(_:)` (method and
/// path); every other request goes to `handle(_:)` as usual. The server never applies
/// `maxBodyBytes` to a stream's body (the handler keeps its own limits), never gzips its answer,
/// and accepts a `Content-Encoding: gzip` body, inflated on the way in.
///
/// Threading: `openStream` and every call on the `HTTPBodyStream` it returns are made one at a
/// time, in order: on a worker of the pool in `.pool` mode, on the I/O loop in `.inline` mode.
/// Either way a call must do a bounded amount of work (a millisecond or so): the connection calls
/// again with what is left, so that a large body never holds a worker or a loop for long.
package protocol HTTPStreamingHandler: HTTPHandler {
    /// On the I/O loop, for each parsed head (body not read): whether to take it as a stream.
    /// Must be cheap (a method and path test); `request.body` is empty.
    func streams(_ request: HTTPRequest) -> Bool
    /// Starts a request `streams` took (`request.body` is empty): a refusal, or the answer's
    /// head and the object that will read the body and write the rest.
    func openStream(_ request: HTTPRequest) -> HTTPStreamOpening
}

/// What `HTTPStreamingHandler.openStream` decided.
package enum HTTPStreamOpening {
    /// A whole answer with `Content-Length`, sent at once (a refusal: 404, 412, 415, ...); the
    /// body is not read and the connection closes after the answer.
    case respond(HTTPResponse)
    /// `head`'s status and headers go out now (its body is ignored), with `Transfer-Encoding:
    /// chunked` (HTTP/1.1; an HTTP/1.0 client gets the bytes unframed and the connection closes
    /// at the end); then what `body` writes, each piece as it is written.
    case stream(head: HTTPResponse, body: any HTTPBodyStream)
}

/// The reading and writing half of a streamed request (see `HTTPStreamingHandler` for the
/// threading; an instance is used by one request only).
package protocol HTTPBodyStream: AnyObject {
    /// The next body bytes, in order. Returns how many it used: at least one when `bytes` is not
    /// empty (keep an incomplete piece, such as a line without its end, inside), fewer than all to
    /// bound the work of one call (it is called again with the rest). Appends answer bytes to `out`.
    func receive(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Int
    /// False once the stream wants no more body (a limit passed): the connection stops reading,
    /// calls `finish(.stopped)` and closes after the answer.
    var wantsMore: Bool { get }
    /// The end: appends the last answer bytes and returns trailer fields (sent after the last
    /// chunk, HTTP/1.1 only; announce them with a `Trailer` header in the head), often none.
    func finish(_ end: HTTPStreamEnd, into out: inout [UInt8]) -> HTTPHeaders
}

/// How a streamed request's body ended.
package enum HTTPStreamEnd: Sendable, Equatable {
    /// The whole body arrived and was received.
    case complete
    /// The stream said it wanted no more (`wantsMore` false); the rest of the body is not read.
    case stopped
    /// The body did not arrive whole: broken framing or gzip (400), no byte for
    /// `timeouts.body_seconds` (408), the client closed its side early (400). The head is already
    /// sent: this is the stream's chance to end its answer in its own format.
    case failed(HTTPError)
}
