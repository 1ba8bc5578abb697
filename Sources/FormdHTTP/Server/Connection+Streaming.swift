/// Streamed requests (`HTTPStreamingHandler`): the body goes to the handler's stream as it
/// arrives, its answer goes out chunked as it is written.
///
/// Bounded memory per connection: at most `StreamExchange.window` decoded body bytes wait for the
/// stream, one read's worth of raw bytes waits in `pending`, and while the answer bytes the client
/// has not read reach `maxQueuedResponseBytes`, no more work is given to the stream and the socket
/// is not read. A client that stops reading is closed by the idle timeout like any other; one that
/// stops sending, after `timeouts.body_seconds` (the stream is told, and ends its answer).
///
/// The stream's work is done in pieces of bounded time (`StreamJob`): on the connection's worker
/// in `.pool` mode (the loop sends each piece's answer as it comes back, and other requests of that
/// worker run between pieces), on the loop in `.inline` mode, which then yields to its other
/// connections between pieces (an `execute` round trip), so a large body never stalls them.
extension Connection {
    /// `parse`: a head the handler took as a stream.
    func beginStream(_ request: HTTPRequest, keepAlive: Bool, sendContinue: Bool, gzip: Bool) {
        let ctx = ResponseContext(isHead: false, versionMinor: request.versionMinor, acceptEncoding: nil,
                                  requestID: request.requestID, close: !keepAlive || request.versionMinor == 0)
        stream = StreamExchange(request: request, context: ctx, gzip: gzip)
        if sendContinue { loop.writeStaging.append(contentsOf: ResponseEncoder.continueBytes) }
    }

    /// `parse`: body bytes of the stream (still gzipped when it is).
    func streamBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let stream, !stream.stopped, stream.failure == nil else { return }
        if let inflater = stream.inflater {
            inflater.feed(bytes)
            stream.refill()
        } else {
            stream.input.append(contentsOf: bytes)
        }
    }

    /// `received` while streaming: the bytes wait in `pending` until the stream has room.
    func streamReceived(_ n: Int) {
        if n == 0 {
            peerEOF = true
        } else {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: loop.readBuffer.baseAddress, count: n))
        }
        streamStep()
    }

    /// Unsent answer bytes below the bound: the stream may write more.
    private var streamOutputHasRoom: Bool { unsent.count - unsentOffset < loop.config.maxQueuedResponseBytes }

    /// Moves the stream on: parses held body bytes while there is room, gives the stream its next
    /// piece of work, sends what it wrote. Called after every event of a streaming connection.
    func streamStep() {
        guard let stream, !closed, !lingering else { return }
        loop.writeStaging.removeAll(keepingCapacity: true)
        if !stream.blocksParsing && !closeAfterFlush && !outputFull {
            if !pending.isEmpty {
                parsePending()
            } else if parser.phase == .body {
                // The last body bytes may have been parsed just as the window filled: the end of
                // the body is then known without another byte.
                _ = parse(UnsafeBufferPointer(start: nil, count: 0))
            }
        }
        stream.refill()
        if peerEOF && pending.isEmpty && !stream.bodyEnded && stream.failure == nil && !stream.stopped {
            stream.failure = .badRequest("The client closed the connection before the end of the body.")
        }
        if streamOutputHasRoom && !closeAfterFlush {
            if !stream.opened && !stream.busy, let failure = stream.failure {
                // Nothing is sent yet: an ordinary refusal.
                self.stream = nil
                loop.handler.rejected(status: failure.status)
                var ctx = stream.context
                ctx.close = true
                loop.encoder.encode(failure.response, ctx, into: &loop.writeStaging)
                closeAfterFlush = true
            } else {
                switch loop.config.handlerMode {
                case .inline:
                    if let work = stream.nextWork(maxPieces: 1) { runInline(work, of: stream) }
                case .pool:
                    while let work = stream.nextWork(maxPieces: StreamExchange.poolPieces) { dispatch(work, of: stream) }
                }
            }
        }
        flushStaging()
        if !closed && self.stream == nil && !closeAfterFlush { parseWhileDrained() }
    }

    /// `.inline`: the piece runs here; then the loop lets its other connections in before the next.
    private func runInline(_ work: StreamWork, of stream: StreamExchange) {
        guard let handler = loop.streamingHandler else { return }
        let job = StreamJob(handler: handler, side: stream.side, work: work, budgetNanos: StreamExchange.inlineBudgetNanos)
        stream.piecesInFlight += 1
        let result = job.run()
        stream.piecesInFlight -= 1
        apply(result, to: stream)
        stream.refill()
        if self.stream === stream && stream.nextWork(maxPieces: 1, peek: true) != nil {
            stream.yielding = true
            let resumed = loop.execute { [self] in
                stream.yielding = false
                streamStep()
            }
            if !resumed { stream.yielding = false }
        }
    }

    /// `.pool`: the piece goes to the connection's worker; its result comes back to the loop.
    private func dispatch(_ work: StreamWork, of stream: StreamExchange) {
        guard let handler = loop.streamingHandler else { return }
        stream.piecesInFlight += 1
        let job = StreamJob(handler: handler, side: stream.side, work: work, budgetNanos: StreamExchange.poolBudgetNanos)
        let loop = self.loop
        let worker = loop.server.workerQueue(loop.server.workerIndex(for: fd))
        worker.async { [self] in
            let box = StreamResultBox(result: job.run())
            loop.execute { [self] in pieceDone(box.result, of: stream) }
        }
    }

    /// A worker's piece, back on the loop.
    private func pieceDone(_ result: StreamResult, of stream: StreamExchange) {
        guard !closed, self.stream === stream else { return }
        stream.piecesInFlight -= 1
        loop.writeStaging.removeAll(keepingCapacity: true)
        apply(result, to: stream)
        flushStaging()
        if closed { return }
        if self.stream != nil { streamStep() } else if !closeAfterFlush { parseWhileDrained() }
    }

    /// Writes what a piece of work produced into the loop's staging buffer.
    private func apply(_ result: StreamResult, to stream: StreamExchange) {
        switch result {
        case .opened(.respond(let response)):
            self.stream = nil
            var ctx = stream.context
            ctx.close = true  // the body is not read
            loop.encoder.encode(response, ctx, into: &loop.writeStaging)
            closeAfterFlush = true
        case .opened(.stream(let head, _)):
            stream.opened = true
            if loop.draining { stream.context.close = true }
            loop.encoder.encodeStreamHead(head, stream.context, into: &loop.writeStaging)
        case .received(let answer, let consumed, let wantsMore):
            if !stream.stopped { stream.bytesInFlight -= consumed }
            if !wantsMore && !stream.stopped {
                stream.stopped = true
                stream.input = []
                stream.bytesInFlight = 0
            }
            ResponseEncoder.appendChunk(answer, chunked: stream.chunked, into: &loop.writeStaging)
        case .finished(let answer, let trailers):
            ResponseEncoder.appendChunk(answer, chunked: stream.chunked, into: &loop.writeStaging)
            if stream.chunked { ResponseEncoder.appendLastChunk(trailers: trailers, into: &loop.writeStaging) }
            self.stream = nil
            // The rest of an unread body cannot be told from the next request: close.
            if !stream.bodyEnded || stream.failure != nil || stream.stopped || stream.context.close || !stream.chunked || peerEOF
                || loop.draining
            {
                closeAfterFlush = true
            }
        }
    }

    /// Read interest while streaming: readable while the stream has room for body bytes and the
    /// client reads its answer; writable while answer bytes wait.
    func streamInterest(_ stream: StreamExchange) -> UInt32 {
        var want: UInt32 = 0
        if !unsent.isEmpty { want |= Readiness.writable }
        // `pending` holds what could not be parsed yet (the loop's share of queued answers may be
        // spent): at most a read or two, then reading waits.
        if !closeAfterFlush && !peerEOF && !stream.blocksParsing && streamOutputHasRoom && pending.count < 1 << 16 {
            want |= Readiness.readable
        }
        if let tls {
            if tls.writeNeedsReadable && !unsent.isEmpty { want = (want & ~Readiness.writable) | Readiness.readable }
            if tls.readNeedsWritable { want |= Readiness.writable }
        }
        return want
    }

    /// The deadline passed while streaming.
    func streamDeadlinePassed() {
        guard let stream else { return }
        if stream.busy {
            deadline = loop.now + Int64(loop.config.idleTimeout * 1000)
            return
        }
        if unsent.count > unsentOffset { close(); return }  // the client stopped reading
        if stream.opened && stream.failure == nil && !stream.bodyEnded && !stream.stopped {
            // The client stopped sending: the stream ends its answer, then the connection closes.
            stream.failure = .timeout
            deadline = loop.now + Int64(loop.config.idleTimeout * 1000)
            streamStep()
            return
        }
        close()
    }
}

/// A piece's result on its way back to the loop (its arrays are handed over, not shared).
struct StreamResultBox: @unchecked Sendable {
    let result: StreamResult
}
