import Dispatch

/// A streamed request in progress on a connection (`Connection+Streaming.swift`): the body bytes
/// decoded but not yet handed to the stream, and where the exchange stands. Confined to the
/// connection's loop; what the pieces of work use is in `side` (hence `@unchecked Sendable`: the
/// closures that carry a piece to a worker and back hold the exchange).
final class StreamExchange: @unchecked Sendable {
    let request: HTTPRequest
    var context: ResponseContext
    /// Chunked framing (HTTP/1.1); an HTTP/1.0 answer is unframed and ends with the connection.
    let chunked: Bool
    /// The stream and its unused bytes, used by one piece of work at a time.
    let side = StreamSide()
    /// `openStream` said `.stream` (known on the loop once its piece is back).
    var opened = false
    /// The finishing piece has been handed out.
    var finishing = false
    /// Decoded body bytes not yet handed to a piece (at most about `window`).
    var input: [UInt8] = []
    /// Bytes handed to pieces and not yet reported used (including the stream side's carry).
    var bytesInFlight = 0
    var piecesInFlight = 0
    /// Inline mode: the loop yielded to its other connections before the next piece.
    var yielding = false
    /// For a `Content-Encoding: gzip` body.
    let inflater: StreamInflater?
    var bodyEnded = false
    /// The body will not arrive whole (framing, gzip, timeout, early close).
    var failure: HTTPError?
    /// The stream wants no more body.
    var stopped = false

    /// Body bytes held per connection before it stops reading (and as many more handed to the
    /// worker): with one read's worth of raw bytes and the connection's queued answer
    /// (`maxQueuedResponseBytes`), the memory of a stream.
    static let window = 128 << 10
    /// One piece of work ends after this much time, or this much answer, whichever comes first.
    static let inlineBudgetNanos: UInt64 = 1_000_000
    static let poolBudgetNanos: UInt64 = 5_000_000
    static let sliceAnswerBytes = 128 << 10
    /// Pieces queued on the worker at once: the next is there when one ends, so the worker does
    /// not wait for the loop between pieces (it runs them in order, one at a time).
    static let poolPieces = 2

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

    /// A piece of work is out (or the loop yielded): the stream is busy.
    var busy: Bool { piecesInFlight > 0 || yielding }

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

    /// The next piece of work, if one may go out now with `maxPieces` out at once (taken from
    /// the exchange's state unless `peek`).
    func nextWork(maxPieces: Int, peek: Bool = false) -> StreamWork? {
        if yielding || finishing { return nil }
        if !opened {
            if piecesInFlight > 0 { return nil }
            return .open(request)
        }
        if failure != nil || stopped {
            if piecesInFlight > 0 { return nil }
            if !peek { finishing = true }
            return .finish(failure.map { .failed($0) } ?? .stopped)
        }
        if piecesInFlight >= maxPieces { return nil }
        if !input.isEmpty && bytesInFlight < Self.window {
            let chunk = input
            if !peek {
                input = []
                bytesInFlight += chunk.count
            }
            return .receive(chunk)
        }
        if piecesInFlight > 0 { return nil }
        if bytesInFlight > 0 { return .receive([]) }  // the stream side's carry
        if bodyEnded && input.isEmpty && (inflater.map { $0.ended } ?? true) {
            if !peek { finishing = true }
            return .finish(.complete)
        }
        return nil
    }
}

/// The stream and the bytes it has not used yet ("carry"): used by one piece of work at a time,
/// on the worker in `.pool` mode (its serial queue runs the pieces in order), on the loop in
/// `.inline` mode.
final class StreamSide: @unchecked Sendable {
    var body: (any HTTPBodyStream)?
    var carry: [UInt8] = []
    var stopped = false
}

/// One piece of a stream's work.
enum StreamWork {
    case open(HTTPRequest)
    /// New body bytes (after the carry), or none: go on with the carry.
    case receive([UInt8])
    case finish(HTTPStreamEnd)
}

/// What a piece of work came to, back on the loop.
enum StreamResult {
    case opened(HTTPStreamOpening)
    /// `consumed`: bytes used, of the carry and the piece's bytes.
    case received(answer: [UInt8], consumed: Int, wantsMore: Bool)
    case finished(answer: [UInt8], trailers: HTTPHeaders)
}

/// A piece of work as it travels to a worker (or runs on the loop).
struct StreamJob: @unchecked Sendable {
    let handler: any HTTPStreamingHandler
    let side: StreamSide
    let work: StreamWork
    let budgetNanos: UInt64

    func run() -> StreamResult {
        switch work {
        case .open(let request):
            let opening = handler.openStream(request)
            if case .stream(_, let body) = opening { side.body = body }
            return .opened(opening)
        case .finish(let end):
            var out: [UInt8] = []
            let trailers = side.body?.finish(end, into: &out) ?? [:]
            side.body = nil
            side.carry = []
            return .finished(answer: out, trailers: trailers)
        case .receive(let chunk):
            guard let body = side.body, !side.stopped else {
                side.carry = []
                return .received(answer: [], consumed: 0, wantsMore: false)
            }
            var data = chunk
            if !side.carry.isEmpty {
                data = side.carry + chunk
                side.carry = []
            }
            var out: [UInt8] = []
            var used = 0
            let start = DispatchTime.now().uptimeNanoseconds
            data.withUnsafeBytes { bytes in
                while used < bytes.count {
                    let n = body.receive(UnsafeRawBufferPointer(rebasing: bytes[used...]), into: &out)
                    // A stream that takes nothing would be offered the same bytes forever.
                    used = n > 0 ? min(bytes.count, used + n) : bytes.count
                    if !body.wantsMore { break }
                    if out.count >= StreamExchange.sliceAnswerBytes || DispatchTime.now().uptimeNanoseconds - start >= budgetNanos { break }
                }
            }
            if !body.wantsMore {
                side.stopped = true
            } else if used < data.count {
                side.carry = Array(data[used...])
            }
            return .received(answer: out, consumed: used, wantsMore: !side.stopped)
        }
    }
}
