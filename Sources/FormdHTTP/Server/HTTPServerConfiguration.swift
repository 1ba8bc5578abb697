import Foundation

/// Server settings. Defaults follow `API.md` (`limits.*`, `timeouts.*`).
package struct HTTPServerConfiguration: Sendable, Equatable {
    /// How handlers are run.
    package enum HandlerMode: Sendable, Equatable {
        /// On the connection's I/O loop thread (default). Fastest for short CPU-bound handlers
        /// (~10-20 µs); concurrency is bounded by the number of I/O loops. A slow handler
        /// delays the other connections of its loop, so use `.pool` for anything that blocks.
        case inline
        /// On a fixed pool of `width` serial worker queues; the I/O loops run only the requests the
        /// handler marks cheap (`HTTPHandler.runsOnIOLoop`). Each connection has at most one
        /// request in a worker at a time (responses stay in order).
        case pool(width: Int)
    }

    package var host: String = "127.0.0.1"
    /// 0 takes a free port; `HTTPServer.start()` returns the bound one.
    package var port: Int = 8080
    /// HTTPS when set; nil (default) serves plain HTTP.
    package var tls: TLSConfiguration?
    package var listenBacklog: Int32 = 1024
    /// The cores this process may run on: the machine's, and on Linux no more than its CPU
    /// affinity (`taskset`, a cpuset) and its cgroup v2 CPU limit allow.
    package static var activeCores: Int { Sys.activeCores }

    /// Number of I/O loops (epoll threads or Dispatch queues); default: active cores.
    package var ioThreads: Int = Sys.activeCores
    package var handlerMode: HandlerMode = .inline
    /// How the loops wait for socket readiness: epoll (Linux, the default there) or Dispatch
    /// read/write sources (portable; the default elsewhere).
    package var eventQueue: EventQueueKind = .platformDefault

    package var maxBodyBytes: Int = 1_048_576
    package var maxHeaderBytes: Int = 16_384
    package var maxConnections: Int = 10_000
    /// Back-pressure: a connection stops parsing pipelined requests while this many bytes of its
    /// answers wait for the client to read them (a single larger answer is still sent whole).
    package var maxQueuedResponseBytes: Int = 1 << 20
    /// Across all connections: past this many queued bytes, a connection that already has an
    /// answer waiting parses no further request until the client reads (each may still get one).
    package var maxTotalQueuedResponseBytes: Int = 64 << 20

    package var headerTimeout: Double = 10
    package var bodyTimeout: Double = 30
    package var idleTimeout: Double = 60
    package var shutdownTimeout: Double = 25

    /// Bodies at least this long are gzipped when the client accepts gzip.
    package var compressionMinBytes: Int = 1025
    /// The `Server` header value.
    package var serverName: String = "formd"

    package init() {}
}
