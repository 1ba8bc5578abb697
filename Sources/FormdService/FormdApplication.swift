import FormdCore
import FormdHTTP
import Foundation
import Logging

/// The whole service: registry, routes and HTTP server, started and drained together.
package final class FormdApplication: @unchecked Sendable {
    package let configuration: ServiceConfiguration
    package let service: FormRoutes
    package let http: HTTPServer
    /// `validators.remote`: their shared HTTP client stops with the server.
    package let remote: RemoteValidators
    let logger: Logger
    private let drainLock = NSLock()
    private var drainRequested = false

    /// Builds everything; a bad postal-code table fails here with a message naming the key.
    package init(configuration c: ServiceConfiguration, logger: Logger, metrics: ServiceMetrics = ServiceMetrics())
        throws(ConfigurationError)
    {
        configuration = c
        self.logger = logger
        var postal: PostalCodeTable?
        if let path = c.postalCodes {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError("validators.postal_codes: cannot read \(path)")
            }
            do {
                postal = try PostalCodeTable(json: JSONParser.parse(Array(data), options: .definition).root)
            } catch let e as JSONParseError {
                throw ConfigurationError("validators.postal_codes: \(path):\(e.line):\(e.column): \(e.message)")
            } catch {
                throw ConfigurationError("validators.postal_codes: \(path): \(error)")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: c.formsDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigurationError("forms.directory: \(c.formsDirectory) is not a folder")
        }
        var options = EvaluationOptions(locale: .en, postalCodes: postal)
        options.maxTextBytes = c.maxTextBytes
        options.maxInstances = c.maxInstances
        let registry = FormRegistry(
            directory: c.formsDirectory, maxFileBytes: c.maxFileBytes, strict: c.formsStrict,
            maxCompiledBytes: c.maxCompiledBytes, options: options, logger: logger, metrics: metrics)
        service = FormRoutes(
            registry: registry, metrics: metrics, logger: logger, maxChanged: c.maxChanged, corsAllowedOrigins: c.corsAllowedOrigins, uiEnabled: c.uiEnabled,
            htmlSuccessURL: c.htmlSuccessURL, htmlErrorURL: c.htmlErrorURL,
            maxBatchLines: c.maxBatchLines, maxBatchLineBytes: c.maxBatchLineBytes, maxBatchBytes: c.maxBatchBytes,
            batchSeconds: c.batchSeconds)
        var h = c.http
        let threads = c.threads(cores: HTTPServerConfiguration.activeCores)
        h.ioThreads = threads.io
        h.eventQueue = c.eventQueue ?? .platformDefault
        h.handlerMode = threads.workers == 0 ? .inline : .pool(width: threads.workers)
        if let cert = c.tlsCert, let key = c.tlsKey {
            let tls = TLSConfiguration(certificateChainPath: cert, privateKeyPath: key)
            do { try tls.validate() } catch { throw ConfigurationError("server.tls: \(error)") }
            h.tls = tls
        }
        do {
            remote = try RemoteValidators(c.remoteValidators, eventQueue: h.eventQueue, registry: metrics.registry)
        } catch let e as ConfigurationError {
            throw e
        } catch {
            throw ConfigurationError("validators.remote: \(error)")
        }
        registry.declaredRemoteValidators = remote.names
        service.remote = remote
        http = HTTPServer(configuration: h, handler: service)
        metrics.openConnections = { [weak http] in http?.openConnections ?? 0 }
        metrics.formsDigest = { [weak registry] in registry?.formsDigest() }
    }

    /// Loads the forms, starts listening and becomes ready; returns the bound port.
    package func start() throws -> Int {
        let count = service.registry.loadAll()
        var watching = "off"
        if configuration.formsReload {
            do { watching = try service.registry.startWatching(mode: configuration.formsWatch).rawValue } catch {
                throw ConfigurationError("\(error)")
            }
        }
        logger.info(
            "forms found; each is read when first used or by the background indexer",
            metadata: ["count": "\(count)", "folder": "\(configuration.formsDirectory)", "watch": "\(watching)"])
        let port = try http.start()
        let h = http.configuration
        let workers: String
        switch h.handlerMode {
        case .inline: workers = "0"
        case .pool(let width): workers = "\(width)"
        }
        logger.info("serving", metadata: ["event_queue": "\(h.eventQueue.rawValue)", "io_threads": "\(h.ioThreads)", "workers": "\(workers)"])
        service.isReady = true
        return port
    }

    /// SIGHUP: re-reads `server.tls.cert`/`server.tls.key` for new connections (open ones keep
    /// theirs). Throws, keeping the old certificate, when the new files are unusable.
    package func reloadTLS() throws {
        try http.reloadTLS()
    }

    /// SIGTERM: reports not-ready at once (`/readyz` 503) but goes on accepting and answering for
    /// `delay` seconds (`server.drain_delay_seconds` when nil), so that a load balancer's health
    /// check takes this replica out before it stops listening and before any kept-alive
    /// connection the balancer may be about to reuse is closed. Then it stops accepting, lets
    /// requests in flight finish (up to the drain timeout), closes the idle connections, and
    /// calls `completion`. A second call during the delay ends the delay now (its `completion`
    /// runs too).
    package func drain(delay: Double? = nil, completion: @escaping @Sendable () -> Void) {
        service.isReady = false
        let wait = max(0, delay ?? configuration.drainDelay)
        let first = drainLock.withLock { () -> Bool in
            defer { drainRequested = true }
            return !drainRequested
        }
        if !first || wait == 0 {
            stopServing(completion: completion)
            return
        }
        logger.info("not ready; serving on before the drain", metadata: ["drain_delay_seconds": "\(wait)"])
        DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [self] in stopServing(completion: completion) }
    }

    /// Stops accepting and drains (`HTTPServer.shutdown`, which is safe to call again).
    private func stopServing(completion: @escaping @Sendable () -> Void) {
        service.registry.stopWatching()
        let remote = self.remote
        http.shutdown {
            remote.shutdown()
            completion()
        }
    }
}
