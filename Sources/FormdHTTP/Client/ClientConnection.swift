#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One outgoing call in flight: what to send, whom to tell, and its deadline.
/// Confined to the client loop; `@unchecked Sendable` only to travel there.
final class ClientCall: @unchecked Sendable {
    let request: HTTPClientRequest
    let head: [UInt8]
    let completion: @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    let deadline: Int64
    var timer = 0
    var finished = false
    /// A reused keep-alive connection the upstream had closed gets one fresh attempt.
    var retried = false

    init(request: HTTPClientRequest, deadline: Int64, completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void) {
        self.request = request
        self.deadline = deadline
        self.completion = completion
        var h = "\(request.method) \(request.url.path) HTTP/1.1\r\nHost: \(request.url.hostHeader)\r\n"
        h += "Content-Length: \(request.body.count)\r\nAccept: application/json\r\nUser-Agent: formd\r\n"
        for (name, value) in request.headers { h += "\(name): \(value)\r\n" }
        h += "\r\n"
        head = Array(h.utf8) + request.body
    }
}

/// A connection to one upstream origin, confined to the client loop: connect, TLS handshake,
/// one request at a time, the response read within the call's deadline; kept for reuse when
/// the response allows it (HTTP/1.1 keep-alive).
final class ClientConnection: ClientLoopMember {
    enum State { case connecting, handshaking, writing, reading, idle, closed }

    let fd: Int32
    let loop: ClientLoop
    let client: HTTPClient
    let origin: String
    private(set) var state: State
    private var tls: TLSConnection?
    private var call: ClientCall?
    private var out: [UInt8] = []
    private var outOffset = 0
    private var parser = ClientResponseParser()
    private var interest: UInt32 = 0
    /// Whether this connection answered a call before (a failure before any answer byte on a
    /// reused connection is the upstream's idle close: retried once).
    private(set) var reused = false
    var idleSince: Int64 = 0

    init(fd: Int32, loop: ClientLoop, client: HTTPClient, origin: String, tls: TLSConnection?) {
        self.fd = fd
        self.loop = loop
        self.client = client
        self.origin = origin
        self.tls = tls
        state = .connecting
    }

    /// Starts `call` on a fresh connection (its non-blocking connect under way) or an idle one.
    func start(_ call: ClientCall) {
        self.call = call
        out = call.head
        outOffset = 0
        parser = ClientResponseParser()
        if state == .idle {
            reused = true
            state = .writing
            writeSome()
        } else {
            setInterest(Readiness.writable)
        }
    }

    /// Registered with the loop (a fresh connection).
    func registered() { interest = Readiness.writable }

    func handleEvents(_ events: UInt32) {
        switch state {
        case .connecting:
            var err: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
            if err != 0 {
                fail(.connect(String(cString: strerror(err))))
                return
            }
            if tls != nil {
                state = .handshaking
                handshake()
            } else {
                state = .writing
                writeSome()
            }
        case .handshaking: handshake()
        case .writing:
            if tls?.writeNeedsReadable == true || events & Readiness.writable != 0 || events & (Readiness.hangup | Readiness.error) != 0 {
                writeSome()
            }
        case .reading: readSome()
        case .idle:
            // The upstream closed (or sent something unasked): this connection is done. (A
            // Dispatch source may also fire once with nothing to read.)
            if stillOpen { return }
            client.discardIdle(self)
            close()
        case .closed: break
        }
    }

    private func handshake() {
        guard let tls else { return }
        switch tls.handshake() {
        case .bytes:
            state = .writing
            writeSome()
        case .wouldBlock:
            setInterest(tls.handshakeWantsWrite ? Readiness.writable : Readiness.readable)
        case .eof, .failed:
            fail(.tls(tls.verifyFailure ?? "handshake failed"))
        }
    }

    private func writeSome() {
        while outOffset < out.count {
            let n: Int
            if let tls {
                switch out.withUnsafeBytes({ tls.write(UnsafeRawBufferPointer(rebasing: $0[outOffset...])) }) {
                case .bytes(let k): n = k
                case .wouldBlock:
                    setInterest(tls.writeNeedsReadable ? Readiness.readable : Readiness.writable)
                    return
                case .eof, .failed:
                    fail(.closed)
                    return
                }
            } else {
                n = out.withUnsafeBytes { Sys.sendNoSignal(fd, $0.baseAddress! + outOffset, out.count - outOffset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        setInterest(Readiness.writable)
                        return
                    }
                    fail(reused ? .closed : .connect(String(cString: strerror(errno))))
                    return
                }
            }
            outOffset += n
        }
        out = []
        outOffset = 0
        state = .reading
        setInterest(Readiness.readable)
        readSome()
    }

    private func readSome() {
        let buf = loop.readBuffer
        while state == .reading {
            let n: Int
            if let tls {
                switch tls.read(into: buf) {
                case .bytes(let k): n = k
                case .wouldBlock:
                    setInterest(tls.readNeedsWritable ? Readiness.writable : Readiness.readable)
                    return
                case .eof: n = 0
                case .failed: fail(parser.started ? .closed : .tls(tls.verifyFailure ?? "read failed")); return
                }
            } else {
                n = recv(fd, buf.baseAddress, buf.count, 0)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { return }
                    fail(.closed)
                    return
                }
            }
            let outcome = n == 0 ? parser.end() : parser.feed(UnsafeRawBufferPointer(rebasing: buf[0..<n]))
            switch outcome {
            case .needMore: if n == 0 { fail(.closed); return }
            case .failed(let e): fail(e); return
            case .done(let response, let reusable): finish(response, reusable: reusable && n > 0)
            }
        }
    }

    private func finish(_ response: HTTPClientResponse, reusable: Bool) {
        guard let call else { return }
        self.call = nil
        if reusable && loop.lock.withLock({ loop.alive }) {
            state = .idle
            idleSince = loop.now
            setInterest(Readiness.readable)
            client.finished(call, .success(response), idle: self)
        } else {
            close()
            client.finished(call, .success(response), idle: nil)
        }
    }

    /// The call fails here; a reused connection that failed before any answer byte retries.
    private func fail(_ error: HTTPClientError) {
        let retry = reused && !parser.started && (error == .closed || error.kind == "connect")
        close()
        guard let call else { return }
        self.call = nil
        if retry && !call.retried {
            call.retried = true
            client.restart(call)
        } else {
            client.finished(call, .failure(error), idle: nil)
        }
    }

    /// The call's deadline passed: the connection is abandoned (its state is unknown).
    func abandon() {
        call = nil
        close()
    }

    /// An idle socket the upstream has not closed: nothing to read, no error.
    var stillOpen: Bool {
        var b: UInt8 = 0
        let n = recv(fd, &b, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    private func setInterest(_ want: UInt32) {
        guard state != .closed, want != interest else { return }
        interest = want
        loop.setInterest(fd, want)
    }

    func close() {
        guard state != .closed else { return }
        state = .closed
        tls?.sendCloseNotify()
        tls = nil
        loop.closeSocket(fd)
    }
}
