import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One I/O loop, owning a set of connections: a thread blocked in `epoll_wait`, or (the
/// `dispatch` event queue, `EventLoop+Dispatch.swift`) a serial `DispatchQueue` with a
/// `DispatchSource` per socket and direction. Both run the same connection code.
///
/// Concurrency: everything except `tasks`/`wakePending` (guarded by `lock`) is confined to the
/// loop's own thread; other threads talk to it only through `execute(_:)`, hence
/// `@unchecked Sendable`. Level-triggered epoll; the listening socket is registered in every
/// loop with `EPOLLEXCLUSIVE`, so the kernel wakes one loop per incoming connection and the
/// connections spread over the loops without a hand-off.
final class EventLoop: @unchecked Sendable {
    let index: Int
    /// Strong on purpose: a running server stays alive; the cycle is broken when it stops.
    let server: HTTPServer
    let config: HTTPServerConfiguration
    let handler: any HTTPHandler
    /// The handler, when it takes some requests as streams (`HTTPStreamingHandler`).
    let streamingHandler: (any HTTPStreamingHandler)?
    /// Its `streams(_:)`, for each connection's parser (nil: no request is a stream).
    let streamClaim: (@Sendable (HTTPRequest) -> Bool)?
    let encoder: ResponseEncoder
    let requestIDs: RequestIDs
    let kind: EventQueueKind

    // The epoll event queue's descriptors (-1 with Dispatch; EventLoop+Epoll.swift).
    let epfd: Int32
    let wakeRead: Int32
    let wakeWrite: Int32
    let lock = NSLock()
    var tasks: [() -> Void] = []
    var wakePending = false
    var alive = true

    /// Set on a Dispatch loop's queue (its loop index): code can tell it runs on an I/O loop.
    static let queueKey = DispatchSpecificKey<Int>()
    /// The same for an epoll loop's thread (in its thread dictionary).
    static let threadKey = "formd-io-loop"

    /// True on an I/O loop's thread or queue (either event queue), false on a worker.
    static var isOnLoop: Bool {
        DispatchQueue.getSpecific(key: queueKey) != nil || Thread.current.threadDictionary[threadKey] != nil
    }

    // The Dispatch event queue's state (unused with epoll).
    let queue: DispatchQueue?
    /// Per fd: the connection's read and write sources.
    var sources: [DispatchRegistration?] = []
    /// The listening socket's source, on this loop's own `dup` of the socket (closed when the
    /// source is cancelled, so the server may close the original at any time).
    var listenSource: DispatchSourceRead?
    var listenSourceSuspended = false
    /// Whether a listen source's own descriptor (a dup of the listening socket) is still open: the
    /// socket keeps accepting into its backlog until every descriptor of it is closed, so a
    /// draining loop reports itself drained only after that (else a connect could still succeed
    /// once the server said it stopped).
    var listenDescriptorOpen = false
    /// What to do once the listen source's descriptor is closed (the drained report).
    var afterListenDescriptorClosed: (() -> Void)?
    var sweepTimer: DispatchSourceTimer?

    var connections: [Connection?] = []
    private(set) var connectionCount = 0
    /// Shared read buffer: bytes land here first, so an idle connection holds no buffer.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Staging buffer for responses produced while handling one connection's input.
    var writeStaging: [UInt8] = []
    /// Pool requests of the current round, per worker (`EventLoop+WorkerPool.swift`).
    var jobBatches: [[PoolJob]] = []
    var hasJobs = false
    /// Answer bytes this loop's connections hold unsent (back-pressure, `Connection`).
    var queuedBytes = 0
    /// This loop's share of `maxTotalQueuedResponseBytes`.
    lazy var queuedBudget = max(config.maxQueuedResponseBytes, config.maxTotalQueuedResponseBytes / max(1, config.ioThreads))

    var now: Int64 = Sys.nowMillis()
    let sweepInterval: Int64
    var nextSweep: Int64 = 0
    var listenFD: Int32 = -1
    var acceptPausedUntil: Int64 = 0
    var listening = false
    private(set) var draining = false
    var drainDeadline: Int64 = 0
    var stopped = false

    init(index: Int, server: HTTPServer, config: HTTPServerConfiguration, handler: any HTTPHandler) throws {
        self.index = index
        self.server = server
        self.config = config
        self.handler = handler
        let streaming = handler as? any HTTPStreamingHandler
        streamingHandler = streaming
        if let streaming {
            streamClaim = { @Sendable request in streaming.streams(request) }
        } else {
            streamClaim = nil
        }
        self.encoder = ResponseEncoder(serverName: config.serverName, compressionMinBytes: config.compressionMinBytes)
        self.requestIDs = RequestIDs(loopIndex: index)
        encoder.gzipCache = server.gzipCache
        kind = config.eventQueue
        if kind == .epoll {
            queue = nil
            #if os(Linux)
            (epfd, wakeRead, wakeWrite) = try Self.makeEpoll()
            #else
            throw HTTPServerError(description: "the epoll event queue exists on Linux only")
            #endif
        } else {
            let q = DispatchQueue(label: "formd-io-\(index)")
            q.setSpecific(key: EventLoop.queueKey, value: index)
            queue = q
            (epfd, wakeRead, wakeWrite) = (-1, -1, -1)
        }
        readBuffer = .allocate(byteCount: 65536, alignment: 16)
        jobBatches = Array(repeating: [], count: server.workerCount)
        let minTimeout = min(config.headerTimeout, config.bodyTimeout, config.idleTimeout)
        // At most 250 ms: a timed-out connection is closed at most that late (a 5 s header
        // timeout then ends a slowloris connection by 5.25 s, not 6 s).
        sweepInterval = max(10, min(250, Int64(minTimeout * 1000 / 5)))
    }

    deinit {
        readBuffer.deallocate()
    }

    // MARK: cross-thread

    /// Runs `task` on the loop thread. False when the loop has stopped (the task is dropped).
    @discardableResult
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        if let queue { return dispatchExecute(on: queue, task) }
        lock.lock()
        guard alive else { lock.unlock(); return false }  // loop gone: the task's connection is closed anyway
        tasks.append(task)
        let needWake = !wakePending
        wakePending = true
        if needWake {
            var b: UInt8 = 1
            _ = write(wakeWrite, &b, 1)  // under the lock so the fd cannot be closed meanwhile
        }
        lock.unlock()
        return true
    }

    func runTasks() {
        // One read empties the pipe: `execute` writes a byte only when no wake is pending, so
        // at most one is in it until `wakePending` is cleared below.
        var drain: UInt64 = 0
        _ = read(wakeRead, &drain, 8)
        lock.lock()
        let batch = tasks
        tasks.removeAll()
        wakePending = false
        lock.unlock()
        for t in batch { t() }
    }

    // MARK: loop

    func start(listenFD: Int32) {
        self.listenFD = listenFD
        if let queue {
            queue.async { [self] in dispatchStart() }
            return
        }
        #if os(Linux)
        resumeAccepting()
        let t = Thread { [self] in self.run() }
        t.name = "formd-io-\(index)"
        t.start()
        #endif
    }

    func shutdownLoop() {
        for c in connections { c?.close() }
        lock.lock()
        alive = false
        tasks.removeAll()
        lock.unlock()
        if kind == .dispatch {
            dispatchShutdown()
            return
        }
        _ = close(epfd)
        _ = close(wakeRead)
        _ = close(wakeWrite)
    }

    // MARK: accept

    func resumeAccepting() {
        guard !listening, !draining, listenFD >= 0 else { return }
        if kind == .dispatch { listening = dispatchResumeAccepting(); return }
        #if os(Linux)
        listening = epollResumeAccepting()
        #endif
    }

    private func pauseAccepting() {
        guard listening else { return }
        if kind == .dispatch {
            dispatchPauseAccepting(forever: draining)
            listening = false
            return
        }
        #if os(Linux)
        epollPauseAccepting()
        #endif
        listening = false
    }

    func acceptConnections() {
        for _ in 0..<64 {
            let fd = Sys.acceptNonBlocking(listenFD)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop polling the listener for a while instead of spinning.
                    pauseAccepting()
                    acceptPausedUntil = now + 100
                    nextSweep = min(nextSweep, acceptPausedUntil)
                    return
                default: return  // EAGAIN and others
                }
            }
            guard let owner = server.reserveConnection(acceptedBy: index) else {
                rejectOverloaded(fd)
                continue
            }
            Sys.setInt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            if owner === self {
                adopt(fd)
            } else if !owner.execute({ owner.adopt(fd) }) {
                close(fd)
                server.releaseConnection(loop: owner.index)
            }
        }
    }

    /// Takes ownership of a connection accepted by this loop or handed over by another one (on
    /// this loop's thread; its slot is already reserved for this loop).
    func adopt(_ fd: Int32) {
        if draining || stopped {  // the server is shutting down: this connection never started
            close(fd)
            server.releaseConnection(loop: index)
            return
        }
        var tls: TLSConnection?
        if config.tls != nil {
            tls = server.currentTLSContext().flatMap { TLSConnection(context: $0, fd: fd) }
            if tls == nil {  // out of memory in OpenSSL: refuse this one, keep serving
                close(fd)
                server.releaseConnection(loop: index)
                return
            }
        }
        let c = Connection(fd: fd, loop: self, tls: tls)
        if Int(fd) >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
        }
        connections[Int(fd)] = c
        connectionCount += 1
        if kind == .dispatch {
            dispatchRegister(c)
            return
        }
        #if os(Linux)
        if !epollRegister(fd) { c.close() }
        #endif
    }

    /// Past max_connections: a 503 written straight into the fresh socket's empty send buffer, then close.
    private func rejectOverloaded(_ fd: Int32) {
        var out: [UInt8] = []
        handler.rejected(status: 503)
        encoder.encode(HTTPError.overloaded.response, ResponseContext(requestID: requestIDs.next(), close: true), into: &out)
        _ = out.withUnsafeBytes { Sys.sendNoSignal(fd, $0.baseAddress!, $0.count) }
        shutdown(fd, Int32(SHUT_WR))
        // Drain what the client already sent so close() does not turn into a reset that eats the 503.
        _ = recv(fd, readBuffer.baseAddress, readBuffer.count, Int32(MSG_DONTWAIT))
        close(fd)
    }

    // MARK: connection bookkeeping (called by Connection)

    func setInterest(_ fd: Int32, _ events: UInt32) {
        if kind == .dispatch { dispatchSetInterest(fd, events); return }
        #if os(Linux)
        epollSetInterest(fd, events)
        #endif
    }

    /// Closes a connection's socket: at once with epoll (closing removes it from the epoll set);
    /// with Dispatch once its sources are cancelled, as Dispatch requires.
    func closeSocket(_ fd: Int32) {
        if kind == .dispatch { dispatchClose(fd); return }
        _ = close(fd)
    }

    /// The connection on `fd`, if this loop has one.
    func connection(_ fd: Int32) -> Connection? { Int(fd) < connections.count ? connections[Int(fd)] : nil }

    func remove(_ c: Connection) {
        let fd = Int(c.fd)
        if fd < connections.count, connections[fd] === c {
            connections[fd] = nil
            connectionCount -= 1
            server.releaseConnection(loop: index)
        }
        if draining && connectionCount == 0 { finishDrain() }
    }

    // MARK: timers

    /// One pass over this loop's connections per `sweepInterval` instead of a timer per connection.
    func sweep() {
        if !listening && !draining && acceptPausedUntil > 0 && now >= acceptPausedUntil {
            acceptPausedUntil = 0
            resumeAccepting()
        }
        if draining && now >= drainDeadline {
            for c in connections { c?.close() }
            return
        }
        for c in connections {
            if let c, c.deadline <= now { c.deadlinePassed() }
        }
        if connections.count > 1024 && connectionCount == 0 { connections = [] }  // give memory back
    }

    // MARK: drain

    /// Stops accepting, closes idle connections now, lets busy ones finish their response.
    func beginDrain(deadline: Int64) {
        draining = true
        drainDeadline = deadline
        nextSweep = min(nextSweep, deadline)
        pauseAccepting()
        for c in connections { c?.drain() }
        if connectionCount == 0 { finishDrain() }
    }

    private func finishDrain() {
        guard !stopped else { return }
        stopped = true
        let report = { [self] in
            server.loopDidDrain(self)
            // The epoll thread leaves its loop and shuts down; a Dispatch loop has no thread to leave.
            if let queue { queue.async { [self] in shutdownLoop() } }
        }
        if kind == .dispatch {
            // Also a source paused for want of descriptors, which the drain did not cancel.
            dispatchPauseAccepting(forever: true)
            if listenDescriptorOpen {
                afterListenDescriptorClosed = report
                return
            }
        }
        report()
    }
}
