import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on non-blocking POSIX sockets: one event loop per I/O thread (epoll on
/// Linux, Dispatch sources elsewhere or when `eventQueue` says so; `server.io_threads`).
///
/// ```swift
/// let server = HTTPServer(configuration: config, handler: MyHandler())
/// let port = try server.start()      // listening when this returns
/// ...
/// server.shutdown { print("drained") }
/// ```
/// Thread-safety: the mutable state below is guarded by `lock`; each loop owns its connections.
package final class HTTPServer: @unchecked Sendable {
    /// Lifecycle: `idle` → `starting` → `ready` → `draining` → `stopped`.
    package enum State: Sendable, Equatable { case idle, starting, ready, draining, stopped }

    package let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler

    /// Mutable server state, only touched under `lock` (see `withStateLock`).
    struct Shared {
        var state = State.idle
        var loops: [EventLoop] = []
        var listenFD: Int32 = -1
        var port = 0
        var openCount = 0
        /// Open connections per loop (index = `EventLoop.index`), for `reserveConnection`.
        var loopLoad: [Int] = []
        var drainedLoops = 0
        var completions: [@Sendable () -> Void] = []
        /// The context new TLS connections use (swapped by `reloadTLS`).
        var tlsContext: TLSContext?
    }

    private let lock = NSLock()
    private var shared = Shared()
    private let workers: [DispatchQueue]
    /// One deflater per worker queue, used only on that (serial) queue.
    private let workerDeflaters: [WorkerDeflater]
    /// Gzipped copies of bodies with a `compressionKey`, shared by the loops.
    let gzipCache = GzipCache()

    func withStateLock<T>(_ body: (inout Shared) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&shared)
    }

    package init(configuration: HTTPServerConfiguration = .init(), handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        if case .pool(let width) = configuration.handlerMode {
            workers = (0..<max(1, width)).map { DispatchQueue(label: "formd-http-worker-\($0)") }
        } else {
            workers = []
        }
        workerDeflaters = workers.map { _ in WorkerDeflater() }
    }

    package var state: State { withStateLock { $0.state } }
    /// True while accepting work (`ready`); false while starting, draining or stopped.
    package var isReady: Bool { state == .ready }
    /// The bound port (valid after `start()`).
    package var port: Int { withStateLock { $0.port } }
    /// Connections currently open.
    package var openConnections: Int { withStateLock { $0.openCount } }
    /// Connections currently open, per I/O loop.
    package var openConnectionsPerLoop: [Int] { withStateLock { $0.loopLoad } }

    /// Binds, listens and starts the I/O loops. Returns the bound port (useful with port 0).
    /// When it returns, connections are being accepted.
    @discardableResult
    package func start() throws -> Int {
        let fresh = withStateLock { s -> Bool in
            guard s.state == .idle else { return false }
            s.state = .starting
            return true
        }
        guard fresh else { throw HTTPServerError(description: "server already started") }
        signal(SIGPIPE, SIG_IGN)
        do {
            let tlsContext = try configuration.tls.map { try TLSContext($0) }
            let (fd, port) = try Sys.makeListener(host: configuration.host, port: configuration.port,
                                              backlog: configuration.listenBacklog)
            var made: [EventLoop] = []
            for i in 0..<max(1, configuration.ioThreads) {
                made.append(try EventLoop(index: i, server: self, config: configuration, handler: handler))
            }
            withStateLock { s in
                s.listenFD = fd
                s.port = port
                s.loops = made
                s.loopLoad = Array(repeating: 0, count: made.count)
                s.tlsContext = tlsContext
                s.state = .ready
            }
            for l in made { l.start(listenFD: fd) }
            return port
        } catch {
            withStateLock { $0.state = .stopped }
            throw error
        }
    }

    /// The worker a connection's requests run on (always the same one, so they stay in order).
    func workerIndex(for fd: Int32) -> Int { Int(fd) % workers.count }
    var workerCount: Int { workers.count }
    func workerQueue(_ index: Int) -> DispatchQueue { workers[index] }

    /// Gzips a worker's response on that worker (call it on `workerQueue(worker)`), so that large
    /// answers are not compressed on the I/O loop, where health probes wait behind them.
    func compressOnWorker(_ response: inout HTTPResponse, acceptEncoding: String?, worker: Int) {
        guard ResponseEncoder.wantsGzip(response, acceptEncoding, minBytes: configuration.compressionMinBytes) else { return }
        let deflater = workerDeflaters[worker]
        if let z = deflater.compress(response.body), z.count < response.body.count {
            response.body = z
            response.bodyIsGzipped = true
        } else {
            response.allowsCompression = false  // gzip does not help: the loop must not try again
        }
    }

    /// Reserves a slot for a connection the loop `acceptedBy` just accepted, and picks the loop
    /// that will own it: the one with the fewest connections, the accepting loop on ties. With
    /// `EPOLLEXCLUSIVE` one wake-up may accept a whole burst (64 connections opened at once all
    /// landed on one loop and left the other core idle); this spreads them. nil past
    /// `max_connections`.
    func reserveConnection(acceptedBy loop: Int) -> EventLoop? {
        withStateLock { s in
            guard s.openCount < configuration.maxConnections, loop < s.loops.count else { return nil }
            s.openCount += 1
            var best = loop
            for (i, n) in s.loopLoad.enumerated() where n < s.loopLoad[best] { best = i }
            s.loopLoad[best] += 1
            return s.loops[best]
        }
    }

    /// Gives back the slot of a connection owned by loop `loop`.
    func releaseConnection(loop: Int) {
        withStateLock { s in
            s.openCount -= 1
            s.loopLoad[loop] -= 1
        }
    }
}
