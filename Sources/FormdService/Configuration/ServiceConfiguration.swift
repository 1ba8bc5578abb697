import FormdCore
import FormdHTTP
import Foundation

/// Every setting, resolved from (highest first) the command line, `FORMD_*` environment variables,
/// the config file, and the built-in defaults. Each key is declared once, in
/// `ServiceConfiguration.settings` (ServiceConfiguration+Settings.swift); a default is the initial
/// value of the property the key writes (the HTTP layer's own defaults for `http`).
package struct ServiceConfiguration: Sendable, Equatable {
    package enum LogFormat: String, Sendable { case text, json }

    /// The HTTP server's settings: address, limits and timeouts. `FormdApplication` adds the threads,
    /// the event queue and TLS, which need the machine or files.
    package var http = HTTPServerConfiguration()
    /// I/O loops; nil: one per four cores, at least one (epoll), one per core (Dispatch).
    package var ioThreads: Int?
    /// Threads that run validate/evaluate; 0 runs them on the I/O threads; nil: one per core.
    package var workers: Int?
    /// `server.event_queue`: nil is `auto` (epoll on Linux, Dispatch elsewhere).
    package var eventQueue: EventQueueKind?
    /// `server.drain_delay_seconds`: after SIGTERM, not ready but still serving for this long.
    package var drainDelay: Double = 0
    package var tlsCert: String?
    package var tlsKey: String?
    package var formsDirectory = "Forms"
    package var formsReload = true
    /// How changes are noticed when `formsReload` is on.
    package var formsWatch = FormWatchMode.auto
    /// Estimated memory of the compiled forms kept; least recently used ones are dropped.
    package var maxCompiledBytes = 64 << 20
    /// Refuse definitions that have warnings, not only errors.
    package var formsStrict = false
    /// Definition files larger than this are refused unread.
    package var maxFileBytes = DefinitionFile.defaultMaxBytes
    /// The most ids an evaluate request's `changed` may list.
    package var maxChanged = FormRoutes.defaultMaxChanged
    /// Batch validation (API.md §4.2): lines, bytes per line and in all, seconds.
    package var maxBatchLines = FormRoutes.defaultMaxBatchLines
    package var maxBatchLineBytes = FormRoutes.defaultMaxBatchLineBytes
    package var maxBatchBytes = FormRoutes.defaultMaxBatchBytes
    package var batchSeconds = FormRoutes.defaultBatchSeconds
    /// The longest text a text formula may produce (UTF-8 bytes).
    package var maxTextBytes = EvaluationOptions.defaultMaxTextBytes
    /// Instances evaluated per dynamic section that has no `max_instances`.
    package var maxInstances = EvaluationOptions.defaultMaxInstances
    package var logLevel = "info"
    package var logFormat = LogFormat.text
    package var postalCodes: String?
    /// `validators.remote`: the remote validators definitions may name (API.md §11).
    package var remoteValidators: [RemoteValidatorSettings] = []
    /// Origins whose browsers may call formd (`*` for any); empty: no CORS headers at all.
    package var corsAllowedOrigins: [String] = []
    /// Serve the form page at `/` (the embeddable client under `/client/` is served either way).
    package var uiEnabled = true
    /// Where an HTML form post that asks for HTML is sent (303) when valid / invalid.
    package var htmlSuccessURL: String?
    package var htmlErrorURL: String?

    package init() {}

    /// The dotted keys, in documentation order.
    package static var keys: [String] { settings.map(\.key) }

    /// The I/O threads and workers to run with on `cores` cores. One epoll loop serves tens of
    /// thousands of requests a second, so a few suffice: one per four cores, but two from two
    /// cores up, because a single loop caps the server's I/O at one core (on 2 cores it ran at
    /// 76-79 % of one while the other idled, and two loops answered 8-19 % more health checks
    /// and submissions at high load; docs/BENCHMARKS.md). Validation, the costly part, runs on a
    /// worker per core, so the loops never validate: that is what made tail latency grow when
    /// every core ran a loop that also validated. On one core (a one-CPU container, `taskset`)
    /// there is nothing to run in parallel: a worker only added a hand-off per batch (a futex
    /// wake, two thread switches, the loop's wake-up pipe), so `auto` runs the handlers on the
    /// loop there, 8-11 % more validations a second on that core (docs/BENCHMARKS.md). A batch
    /// on the loop still yields every millisecond.
    ///
    /// On the Dispatch event queue an I/O loop is a serial queue, not a thread: an idle one costs
    /// nothing, and one per core is what it takes to keep up (one queue on this 2-core machine
    /// answered 46,500 health checks a second, two answered 65,600; docs/BENCHMARKS.md).
    package func threads(cores: Int) -> (io: Int, workers: Int) {
        let cores = max(1, cores)
        let queue = eventQueue ?? .platformDefault
        return (ioThreads ?? (queue == .dispatch ? cores : max(min(cores, 2), cores / 4)), workers ?? (cores == 1 ? 0 : cores))
    }
}

/// A setting that cannot be used: start-up fails with this message, naming the key.
package struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
