import ArgumentParser
import FormdService
import Foundation
import Logging
import Metrics
import Prometheus

/// `formd serve`: serves the forms until SIGTERM or SIGINT, then drains and exits 0.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the forms of a folder over HTTP.",
        discussion: """
            Settings come from the command line, then FORMD_* environment variables, then the config \
            file (default config/formd.json when it exists), then built-in defaults.
            """
    )

    @Option(help: "Config file (default: config/formd.json when it exists).")
    var config: String?
    @Option(help: "Folder of form definitions (forms.directory).")
    var forms: String?
    @Option(help: "Address to listen on (server.host).")
    var host: String?
    @Option(help: "Port; 0 takes a free one (server.port).")
    var port: Int?
    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain (server.tls.cert).")
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key (server.tls.key).")
    var tlsKey: String?
    @Option(name: .customLong("cors-allowed-origins"), help: "Comma-separated origins whose pages may call formd, or * (cors.allowed_origins).")
    var corsAllowedOrigins: String?
    @Flag(name: .customLong("no-ui"), help: "Do not serve the form page at / (ui.enabled false).")
    var noUI = false
    @Option(name: .customLong("set"), help: ArgumentHelp("Any setting, as KEY=VALUE (repeatable), e.g. --set limits.max_instances=50.", valueName: "key=value"))
    var settings: [String] = []

    func run() throws {
        var flags: [String: String] = [:]
        flags["forms.directory"] = forms
        flags["server.host"] = host
        flags["server.port"] = port.map(String.init)
        flags["server.tls.cert"] = tlsCert
        flags["server.tls.key"] = tlsKey
        flags["cors.allowed_origins"] = corsAllowedOrigins
        if noUI { flags["ui.enabled"] = "false" }
        flags.merge(try settingFlags(settings)) { _, set in set }
        let configuration: ServiceConfiguration
        do {
            configuration = try ServiceConfiguration.resolve(
                commandLine: flags, configFile: config ?? "config/formd.json", configFileIsExplicit: config != nil)
        } catch {
            printError("formd: \(error)")
            throw ExitCode(2)
        }
        FormdLogging.bootstrap(format: configuration.logFormat, level: configuration.logLevel)
        let logger = Logger(label: "formd")
        let metrics = ServiceMetrics()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
        let server: FormdApplication
        let boundPort: Int
        do {
            server = try FormdApplication(configuration: configuration, logger: logger, metrics: metrics)
            boundPort = try server.start()
        } catch {
            printError("formd: \(error)")
            throw ExitCode(1)
        }
        // Signals are handled (the sources armed, see awaitSignalRegistration) before the
        // listening line, so a SIGTERM sent as soon as a supervisor sees the line always drains.
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler {
                logger.info("draining", metadata: ["signal": "\(sig)"])
                // SIGINT (Ctrl-C at a terminal) skips server.drain_delay_seconds; SIGTERM waits it.
                server.drain(delay: sig == SIGINT ? 0 : nil) {
                    logger.info("stopped")
                    Foundation.exit(0)
                }
            }
            source.resume()
            sources.append(source)
        }
        // SIGHUP: new certificate/key for new connections; a bad pair is logged and the old one kept.
        signal(SIGHUP, SIG_IGN)
        let hup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .main)
        hup.setEventHandler {
            guard configuration.tlsCert != nil else {
                logger.info("SIGHUP ignored: TLS is not configured")
                return
            }
            do {
                try server.reloadTLS()
                logger.info("TLS certificate reloaded", metadata: ["cert": "\(configuration.tlsCert ?? "")"])
            } catch {
                logger.error("TLS reload failed; keeping the previous certificate", metadata: ["error": "\(error)"])
            }
        }
        hup.resume()
        sources.append(hup)
        if !Self.awaitSignalRegistration([SIGTERM, SIGINT, SIGHUP]) {
            logger.warning("signal handlers not confirmed in 5 s; a SIGTERM sent right now may be lost")
        }
        let scheme = configuration.tlsCert == nil ? "http" : "https"
        let shownHost = configuration.http.host.contains(":") ? "[\(configuration.http.host)]" : configuration.http.host
        FileHandle.standardOutput.write(Data("formd listening on \(scheme)://\(shownHost):\(boundPort)\n".utf8))

        withExtendedLifetime(sources) { dispatchMain() }
    }
}
