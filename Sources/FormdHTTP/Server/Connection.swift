#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection. Confined to its `EventLoop`'s thread (the only thread that touches
/// it); `@unchecked Sendable` only so a worker-pool completion can carry it back to that thread.
///
/// Memory: no buffer is held while idle. Bytes are read into the loop's shared buffer and
/// parsed there; only an incomplete head/line is copied into `pending`, and only output the
/// socket did not take is kept in `unsent`.
final class Connection: @unchecked Sendable {
    let fd: Int32
    /// Strong: an `unowned` reference paid a checked retain on every use, several per request.
    /// The loop's connection table is the other half of the cycle, and a connection leaves it
    /// when it closes.
    let loop: EventLoop
    /// nil for plain HTTP (the fast path: every TLS branch below is one nil check).
    var tls: TLSConnection?
    var parser: HTTPParser
    var pending: [UInt8] = []
    /// Output the socket did not take; its size is counted in `loop.queuedBytes` (by hand: a
    /// `didSet` would copy the array on every append).
    var unsent: [UInt8] = []
    var unsentOffset = 0
    /// When the current phase times out (monotonic ms); checked by the loop's sweep.
    var deadline: Int64
    /// Phase the current `deadline` belongs to (see `updateDeadline`). A fresh connection starts
    /// in the head phase: its header deadline runs from accept, and its first bytes must not
    /// restart it (else a client that waits, then trickles, gets up to two header timeouts).
    private var timerState = TimerState.head
    private var interest = Readiness.readable
    private(set) var closed = false
    /// A request is with the worker pool, or its response is deferred (`Connection+Deferred`).
    var inFlight = false
    var closeAfterFlush = false
    var lingering = false
    var peerEOF = false
    /// The streamed request in progress (`Connection+Streaming.swift`), nil for ordinary ones.
    var stream: StreamExchange?

    init(fd: Int32, loop: EventLoop, tls: TLSConnection? = nil) {
        self.fd = fd
        self.loop = loop
        self.tls = tls
        parser = HTTPParser(maxBodyBytes: loop.config.maxBodyBytes, maxHeaderBytes: loop.config.maxHeaderBytes, claims: loop.streamClaim)
        deadline = loop.now + Int64(loop.config.headerTimeout * 1000)
    }

    // MARK: events

    func handleEvents(_ events: UInt32) {
        if closed { return }
        if let tls, !lingering {
            // The header timeout set at accept also bounds the handshake (no updateDeadline here).
            if !tls.established { continueHandshake(tls); return }
            if events & Readiness.writable != 0 && tls.readNeedsWritable { onReadable(); if closed { return } }
            if events & Readiness.readable != 0 && tls.writeNeedsReadable { onWritable(); if closed { return } }
        }
        if events & Readiness.writable != 0 {
            onWritable()
            if closed { return }
        }
        if events & (Readiness.readable | Readiness.hangup | Readiness.error) != 0 { onReadable() }
    }

    private func onReadable() {
        if let tls, !lingering { onReadableTLS(tls); return }
        let n = recv(fd, loop.readBuffer.baseAddress, loop.readBuffer.count, 0)
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            close()
            return
        }
        received(n)
    }

    /// `n` bytes (0: end of input) have landed in the loop's read buffer.
    private func received(_ n: Int) {
        let buf = loop.readBuffer
        if lingering {
            if n == 0 { close() }
            return  // discard: we are only waiting for the client to see our last response
        }
        if stream != nil {
            streamReceived(n)
            return
        }
        if n == 0 {
            peerEOF = true
            if !inFlight && unsent.isEmpty { close() } else { updateInterest() }
            return
        }
        if inFlight || closeAfterFlush || !unsent.isEmpty {
            // Not parsing right now; keep the bytes. Reads stay wanted while a request is with
            // the pool (see updateInterest), until bytes arrive: then they stop, so a pipelining
            // client can park at most one read's worth here.
            pending.append(contentsOf: UnsafeRawBufferPointer(start: buf.baseAddress, count: n))
            updateInterest()
            return
        }
        loop.writeStaging.removeAll(keepingCapacity: true)
        if pending.isEmpty {
            let bytes = UnsafeBufferPointer(start: buf.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            let used = parse(bytes)
            if used < n && !closeAfterFlush {
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[used...]))
            }
        } else {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: buf.baseAddress, count: n))
            parsePending()
        }
        flushStaging()
        parseWhileDrained()
        if stream != nil { streamStep() }
    }

    /// Pipelined requests left in `pending` because the answers reached the back-pressure bound:
    /// when the socket took all of them, go on (no readiness event would come for bytes we
    /// already hold).
    func parseWhileDrained() {
        while !closed && !lingering && unsent.isEmpty && !inFlight && !closeAfterFlush && !peerEOF && !pending.isEmpty {
            let before = pending.count
            loop.writeStaging.removeAll(keepingCapacity: true)
            parsePending()
            flushStaging()
            if pending.count == before { return }  // an incomplete request: wait for its bytes
        }
    }

    /// Whether this connection's answers so far are enough for now: its own bound, or the
    /// loop's share of the total once it has an answer waiting (so nobody starves).
    var outputFull: Bool {
        let mine = loop.writeStaging.count + unsent.count - unsentOffset
        return mine >= loop.config.maxQueuedResponseBytes || (mine > 0 && loop.queuedBytes + loop.writeStaging.count > loop.queuedBudget)
    }

    func parsePending() {
        guard !pending.isEmpty else { return }
        let used = pending.withUnsafeBufferPointer { parse($0) }
        if closeAfterFlush || used == pending.count {
            pending = []  // release the capacity
        } else if used > 0 {
            pending.removeFirst(used)
        }
    }

    /// Runs the parser over `buf`, answering requests into the loop's staging buffer.
    /// Never closes the connection itself (it may run inside `pending`'s buffer access).
    func parse(_ buf: UnsafeBufferPointer<UInt8>) -> Int {
        var off = 0
        let config = loop.config
        while !inFlight && !closeAfterFlush && !outputFull && !(stream?.blocksParsing ?? false) {
            let (event, used) = parser.next(UnsafeBufferPointer(rebasing: buf[off...]))
            off += used
            switch consume event {
            case .needMore:
                if used == 0 || off == buf.count { return off }
            case .sendContinue:
                loop.writeStaging.append(contentsOf: ResponseEncoder.continueBytes)
            case .request(var request, let keepAlive):
                request.requestID = request.mayHaveRequestID ? loop.requestIDs.id(from: request.headers) : loop.requestIDs.next()
                var ctx = ResponseContext(isHead: request.method == "HEAD", versionMinor: request.versionMinor,
                                          acceptEncoding: request.mayHaveAcceptEncoding ? request.headers.list("accept-encoding") : nil,
                                          requestID: request.requestID, close: !keepAlive)
                let inline: Bool
                switch config.handlerMode {
                case .inline: inline = true
                case .pool: inline = loop.handler.runsOnIOLoop(request)
                }
                if inline {
                    let response = loop.handler.handle(request)
                    if let deferred = response.deferred { startDeferred(deferred, ctx); continue }
                    ctx.close = ctx.close || loop.draining
                    loop.encoder.encode(response, ctx, into: &loop.writeStaging)
                    if ctx.close { closeAfterFlush = true }
                } else {
                    inFlight = true
                    loop.submit(PoolJob(connection: self, request: request, context: ctx))
                }
            case .streamHead(var request, let keepAlive, let sendContinue, let gzip):
                request.requestID = loop.requestIDs.id(from: request.headers)
                beginStream(request, keepAlive: keepAlive, sendContinue: sendContinue, gzip: gzip)
            case .bodyPart(let range):
                streamBody(UnsafeBufferPointer(rebasing: buf[(off - range.count)..<off]))
            case .bodyEnd:
                stream?.bodyEnded = true
            case .error(let error, let close):
                if let stream {
                    // The answer's head may be out: the stream ends its answer in its own format.
                    if stream.failure == nil { stream.failure = error }
                    return off
                }
                loop.handler.rejected(status: error.status)
                let ctx = ResponseContext(requestID: loop.requestIDs.next(), close: close || loop.draining)
                loop.encoder.encode(error.response, ctx, into: &loop.writeStaging)
                if ctx.close { closeAfterFlush = true }
            }
        }
        return off
    }

    /// A worker-pool response, back on the loop thread.
    func complete(_ response: HTTPResponse, _ context: ResponseContext) {
        guard !closed else { return }
        if let deferred = response.deferred { startDeferred(deferred, context); return }
        inFlight = false
        var ctx = context
        ctx.close = ctx.close || loop.draining
        loop.writeStaging.removeAll(keepingCapacity: true)
        loop.encoder.encode(response, ctx, into: &loop.writeStaging)
        if ctx.close { closeAfterFlush = true } else if !peerEOF { parsePending() }
        flushStaging()
        parseWhileDrained()
        if stream != nil { streamStep() }
    }

    // MARK: output

    func flushStaging() {
        let staging = loop.writeStaging
        if !staging.isEmpty {
            if unsent.isEmpty {
                let written = staging.withUnsafeBytes { writeSome($0) }
                if written < 0 { close(); return }
                if written < staging.count {
                    unsent = Array(staging[written...])
                    unsentOffset = 0
                    loop.queuedBytes += unsent.count
                }
            } else {
                // A long stream of answers may never drain completely: drop what is sent.
                if unsentOffset >= 1 << 16 && unsentOffset >= unsent.count / 2 {
                    unsent.removeFirst(unsentOffset)
                    loop.queuedBytes -= unsentOffset
                    unsentOffset = 0
                }
                unsent.append(contentsOf: staging)
                loop.queuedBytes += staging.count
            }
            if staging.count > 1 << 20 { loop.writeStaging = [] }
        }
        afterOutput()
    }

    func onWritable() {
        if !unsent.isEmpty {
            let written = unsent.withUnsafeBytes { writeSome(UnsafeRawBufferPointer(rebasing: $0[unsentOffset...])) }
            if written < 0 { close(); return }
            unsentOffset += written
            if unsentOffset < unsent.count {
                if stream != nil { streamStep(); return }
                if tls?.writeNeedsReadable == true { updateInterest() }
                return
            }
            loop.queuedBytes -= unsent.count
            unsent = []
            unsentOffset = 0
        }
        if stream != nil { streamStep(); return }
        if !closeAfterFlush && !inFlight && !peerEOF && !pending.isEmpty {
            loop.writeStaging.removeAll(keepingCapacity: true)
            parsePending()
            flushStaging()
            parseWhileDrained()
        } else {
            afterOutput()
        }
    }

    /// Bytes written (possibly fewer than asked), or -1 when the connection is dead.
    private func writeSome(_ bytes: UnsafeRawBufferPointer) -> Int {
        if let tls { return writeTLS(tls, bytes) }
        var total = 0
        while total < bytes.count {
            let n = Sys.sendNoSignal(fd, bytes.baseAddress! + total, bytes.count - total)
            if n > 0 { total += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            return -1
        }
        return total
    }

    private func afterOutput() {
        if closed { return }
        if unsent.isEmpty {
            if closeAfterFlush && !lingering { startLingering(); return }
            if peerEOF && !inFlight && stream == nil { close(); return }
            if loop.draining && isIdle { close(); return }
        }
        updateInterest()
        updateDeadline()
    }

    /// Half-close after the last response and discard input for a moment, so that unread
    /// request bytes do not make the kernel reset the connection before the client reads it.
    private func startLingering() {
        lingering = true
        pending = []
        if peerEOF { close(); return }
        tls?.sendCloseNotify()
        shutdown(fd, Int32(SHUT_WR))
        deadline = loop.now + min(2000, Int64(loop.config.headerTimeout * 1000))
        updateInterest()
    }

    func updateInterest() {
        if let stream { setInterest(streamInterest(stream)); return }
        var want: UInt32 = 0
        if !unsent.isEmpty {
            want = Readiness.writable
        } else if lingering || (!closeAfterFlush && !peerEOF && (!inFlight || pending.isEmpty)) {
            // Also while a request is with the worker pool, as long as nothing waits in
            // `pending`: a client that waits for its answer sends nothing meanwhile, and not
            // switching interest off and on again saves two epoll_ctl calls per request.
            want = Readiness.readable
        }
        if let tls, !lingering {
            if tls.writeNeedsReadable && !unsent.isEmpty { want = Readiness.readable }  // EPOLLOUT would spin
            if tls.readNeedsWritable { want |= Readiness.writable }
        }
        setInterest(want)
    }

    func setInterest(_ want: UInt32) {
        if want != interest {
            interest = want
            loop.setInterest(fd, want)
        }
    }

    var isIdle: Bool { parser.phase == .idle && pending.isEmpty && unsent.isEmpty && !inFlight && stream == nil }

    // MARK: TLS

    private func continueHandshake(_ tls: TLSConnection) {
        switch tls.handshake() {
        case .bytes:
            updateInterest()
            // read-ahead may already hold the first request, which epoll will not report
            if tls.hasBufferedInput { onReadable() }
        case .wouldBlock: setInterest(tls.handshakeWantsWrite ? Readiness.writable : Readiness.readable)
        case .failed where tls.sawPlainHTTP:
            // The rest of this connection is plain: a 400 saying so, then the usual close.
            self.tls = nil
            loop.writeStaging.removeAll(keepingCapacity: true)
            let ctx = ResponseContext(requestID: loop.requestIDs.next(), close: true)
            loop.handler.rejected(status: 400)
            loop.encoder.encode(HTTPError.plainHTTPOnTLSPort.response, ctx, into: &loop.writeStaging)
            closeAfterFlush = true
            flushStaging()
        case .eof, .failed: close()  // a bad hello, a vanished client
        }
    }

    /// Decrypts into the loop's read buffer. Loops while OpenSSL holds input (decrypted or read
    /// ahead), which level-triggered epoll cannot report.
    private func onReadableTLS(_ tls: TLSConnection) {
        repeat {
            switch tls.read(into: loop.readBuffer) {
            case .bytes(let n): received(n)
            case .eof: received(0); return
            case .wouldBlock:
                if tls.readNeedsWritable { updateInterest() }
                return
            case .failed: close(); return
            }
        } while !closed && !lingering && tls.hasBufferedInput
    }

    private func writeTLS(_ tls: TLSConnection, _ bytes: UnsafeRawBufferPointer) -> Int {
        var total = 0
        while total < bytes.count {
            switch tls.write(UnsafeRawBufferPointer(rebasing: bytes[total...])) {
            case .bytes(let n): total += n
            case .wouldBlock: return total
            case .eof, .failed: return -1
            }
        }
        return total
    }

    // MARK: timers

    private func updateDeadline() {
        if lingering { return }
        let state: TimerState
        if stream != nil && unsent.isEmpty {
            state = .streaming
        } else if inFlight || !unsent.isEmpty {
            state = .answering
        } else {
            switch parser.phase {
            case .idle: state = pending.isEmpty ? .idle : .head
            case .head: state = .head
            case .body: state = .body
            case .dead: state = .dead
            }
        }
        // idle and waiting-on-output deadlines move with activity; head and body ones only
        // start when the phase begins (a trickling client cannot extend them).
        if state != timerState || state.movesWithActivity {
            timerState = state
            let c = loop.config
            let seconds = state == .head ? c.headerTimeout : state == .body || state == .streaming ? c.bodyTimeout : c.idleTimeout
            deadline = loop.now + Int64(seconds * 1000)
        }
    }

    /// What the connection's deadline is counting.
    enum TimerState {
        /// Keep-alive, between requests (`timeouts.idle_seconds`).
        case idle
        /// A request head has begun (`timeouts.header_seconds`).
        case head
        /// A request body is arriving (`timeouts.body_seconds`).
        case body
        /// A request is being handled, or its answer is going out (idle timeout, renewed on progress).
        case answering
        /// The parser refused the stream; the connection is closing.
        case dead
        /// A streamed request waits for body bytes (`timeouts.body_seconds` without one).
        case streaming

        /// Idle, answering and streaming deadlines restart on activity; head and body ones do not.
        var movesWithActivity: Bool { self == .idle || self == .answering || self == .streaming }
    }

    func deadlinePassed() {
        if closed { return }
        if lingering { close(); return }
        if stream != nil { streamDeadlinePassed(); return }
        if inFlight { deadline = loop.now + Int64(loop.config.idleTimeout * 1000); return }
        if !unsent.isEmpty { close(); return }  // the client stopped reading
        if parser.phase == .dead || isIdle || peerEOF { close(); return }  // keep-alive idle: silent
        // a started head or body that did not complete in time
        loop.handler.rejected(status: HTTPError.timeout.status)
        loop.writeStaging.removeAll(keepingCapacity: true)
        let ctx = ResponseContext(requestID: loop.requestIDs.next(), close: true)
        loop.encoder.encode(HTTPError.timeout.response, ctx, into: &loop.writeStaging)
        closeAfterFlush = true
        pending = []
        flushStaging()
    }

    /// Server shutdown: idle connections close now; busy ones close after their response. A
    /// client may have sent a request just before the drain that still sits unread in the socket
    /// (the loop ran the drain task before that socket's readiness event), so an idle connection
    /// reads once more first: a request that arrived is answered.
    func drain() {
        guard !closed, isIdle else { return }
        if !lingering && (tls?.established ?? true) { onReadable() }
        if !closed && isIdle { close() }
    }

    func close() {
        if closed { return }
        closed = true
        if let tls {
            tls.sendCloseNotify()
            self.tls = nil  // frees the SSL now, not when the last reference to self goes
        }
        loop.closeSocket(fd)
        pending = []
        stream = nil
        loop.queuedBytes -= unsent.count
        unsent = []
        loop.remove(self)
    }
}
