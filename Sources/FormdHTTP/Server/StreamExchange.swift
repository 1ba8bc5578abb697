import Dispatch

/// A streamed request in progress on a connection (`Connection+Streaming.swift`): the body bytes
/// decoded but not yet given to the stream, and where the exchange stands. Confined to the
/// connection's loop, except `body`, which one worker uses while `busy` (hence `@unchecked
/// Sendable`: the closures that carry a piece of work there and back hold it).
final class StreamExchange: @unchecked Sendable {
    let request: HTTPRequest
    var context: ResponseContext
    /// Chunked framing (HTTP/1.1); an HTTP/1.0 answer is unframed and ends with the connection.
    let chunked: Bool
    /// The handler's reader, once `openStream` said `.stream`.
    var body: (any HTTPBodyStream)?
    var opened = false
    /// Decoded body bytes not yet received by the stream (at most about `window`).
    var input: [UInt8] = []
    /// For a `Content-Encoding: gzip` body.
    let inflater: StreamInflater?
    var bodyEnded = false
    /// The body will not arrive whole (framing, gzip, timeout, early close).
    var failure: HTTPError?
    /// The stream wants no more body.
    var stopped = false
    /// A piece of work is on a worker, or (inline) the loop yielded before the next one.
    var busy = false

    /// Body bytes held per connection before it stops reading: the memory of a stream, with one
    /// read's worth of raw bytes and the connection's queued answer (`maxQueuedResponseBytes`).
    static let window = 128 << 10
    /// One piece of work ends after this much time, or this much answer, whichever comes first.
    static let inlineBudgetNanos: UInt64 = 1_000_000
    static let poolBudgetNanos: UInt64 = 5_000_000
    static let sliceAnswerBytes = 128 << 10

    init(request: HTTPRequest, context: ResponseContext, gzip: Bool) {
        self.request = request
        self.context = context
        chunked = request.versionMinor == 1
        inflater = gzip ? StreamInflater() : nil
    }

    /// Whether the connection must stop parsing (and so reading) for now.
    var blocksParsing: Bool {
        bodyEnded || stopped || failure != nil || input.count >= Self.window
            || (inflater.map { $0.pendingInput >= Self.window } ?? false)
    }

    /// Inflates what the window has room for; a corrupt or truncated gzip body is a failure.
    func refill() {
        guard let inflater, failure == nil, !stopped else { return }
        while input.count < Self.window && inflater.pendingInput > 0 && !inflater.ended && !inflater.failed {
            let before = (input.count, inflater.pendingInput)
            inflater.drain(max: Self.window - input.count, into: &input)
            if (input.count, inflater.pendingInput) == before { break }
        }
        if inflater.failed || (bodyEnded && input.isEmpty && !inflater.ended && inflater.pendingInput == 0) {
            failure = .badRequest("The gzip request body is corrupt.")
        }
    }

    /// What the stream is to do next, if anything.
    func nextWork() -> StreamWork? {
        if !opened { return .open(request) }
        if let failure { return .finish(.failed(failure)) }
        if stopped { return .finish(.stopped) }
        if !input.isEmpty {
            let chunk = input
            input = []
            return .receive(chunk)
        }
        if bodyEnded && (inflater.map { $0.ended } ?? true) { return .finish(.complete) }
        return nil
    }

    var hasWork: Bool {
        !opened || failure != nil || stopped || !input.isEmpty || (bodyEnded && (inflater.map { $0.ended } ?? true))
    }
}

/// One piece of a stream's work.
enum StreamWork {
    case open(HTTPRequest)
    case receive([UInt8])
    case finish(HTTPStreamEnd)
}

/// What a piece of work came to, back on the loop.
enum StreamResult {
    case opened(HTTPStreamOpening)
    /// `chunk` is the input given; `consumed` of it was used (the rest goes back first in line).
    case received(answer: [UInt8], consumed: Int, chunk: [UInt8], wantsMore: Bool)
    case finished(answer: [UInt8], trailers: HTTPHeaders)
}

/// A piece of work as it travels to a worker: the handler and the stream are used there, by one
/// thread at a time (the exchange is `busy` meanwhile), hence `@unchecked Sendable`.
struct StreamJob: @unchecked Sendable {
    let handler: any HTTPStreamingHandler
    let body: (any HTTPBodyStream)?
    let work: StreamWork
    let budgetNanos: UInt64

    func run() -> StreamResult {
        switch work {
        case .open(let request):
            return .opened(handler.openStream(request))
        case .finish(let end):
            var out: [UInt8] = []
            let trailers = body?.finish(end, into: &out) ?? [:]
            return .finished(answer: out, trailers: trailers)
        case .receive(let chunk):
            guard let body else { return .received(answer: [], consumed: chunk.count, chunk: chunk, wantsMore: false) }
            var out: [UInt8] = []
            var used = 0
            var wantsMore = true
            let start = DispatchTime.now().uptimeNanoseconds
            chunk.withUnsafeBytes { bytes in
                while used < bytes.count {
                    let n = body.receive(UnsafeRawBufferPointer(rebasing: bytes[used...]), into: &out)
                    // A stream that takes nothing would be offered the same bytes forever.
                    used = n > 0 ? min(bytes.count, used + n) : bytes.count
                    if !body.wantsMore { wantsMore = false; break }
                    if out.count >= StreamExchange.sliceAnswerBytes || DispatchTime.now().uptimeNanoseconds - start >= budgetNanos { break }
                }
            }
            if !body.wantsMore { wantsMore = false }
            return .received(answer: out, consumed: used, chunk: chunk, wantsMore: wantsMore)
        }
    }
}
