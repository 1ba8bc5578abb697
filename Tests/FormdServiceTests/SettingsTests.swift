import Foundation
import FormdHTTP
import FormdService
import Testing

/// The one list of settings, in-process: the README table and `config/formd.json` follow from it,
/// every key reads from every source with swift-configuration's precedence, and a bad value from
/// any source fails naming the key and the source.
@Suite("settings")
struct SettingsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func resolve(
        _ commandLine: [String: String] = [:], environment: [String: String] = [:], file: String? = nil
    ) throws -> ServiceConfiguration {
        guard let file else {
            return try ServiceConfiguration.resolve(
                commandLine: commandLine, environment: environment, configFile: nil, configFileIsExplicit: false)
        }
        let folder = try TempFolder()
        let path = try folder.write("formd.json", file).path
        return try ServiceConfiguration.resolve(
            commandLine: commandLine, environment: environment, configFile: path, configFileIsExplicit: true)
    }

    func failure(
        _ commandLine: [String: String] = [:], environment: [String: String] = [:], file: String? = nil
    ) -> String? {
        do {
            _ = try resolve(commandLine, environment: environment, file: file)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func readmeTableIsTheDeclaredSettings() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = ServiceConfiguration.referenceMarkdown()
        #expect(table.split(separator: "\n").count == ServiceConfiguration.settings.count + 2)
        #expect(readme.contains(table), "README's settings table differs from `formd config --reference`:\n\(table)")
    }

    @Test func bundledConfigFileIsTheDefaults() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("config/formd.json"), encoding: .utf8)
        #expect(file == ServiceConfiguration().configFileJSON(), "config/formd.json differs from `formd config --defaults`")
        // And it reads back as the defaults.
        #expect(try resolve(file: file) == ServiceConfiguration())
    }

    @Test func keysAreUniqueAndEnvironmentNamesFollowThem() {
        let keys = ServiceConfiguration.keys
        #expect(Set(keys).count == keys.count)
        for s in ServiceConfiguration.settings {
            #expect(s.environmentName == "FORMD_" + s.key.uppercased().replacingOccurrences(of: ".", with: "_"))
            #expect(!s.summary.isEmpty && s.expected.hasPrefix("expected"), "\(s.key)")
        }
    }

    /// A configuration with every setting changed survives `configFileJSON` and a reload.
    @Test func everySettingRoundTripsThroughAConfigFile() throws {
        var c = ServiceConfiguration()
        c.http.host = "0.0.0.0"
        c.http.port = 9090
        c.ioThreads = 3
        c.workers = 0
        c.eventQueue = .dispatch
        c.tlsCert = "cert.pem"
        c.tlsKey = "key.pem"
        c.formsDirectory = "Elsewhere"
        c.formsReload = false
        c.formsStrict = true
        c.maxFileBytes = 4096
        c.http.maxBodyBytes = 2048
        c.http.maxHeaderBytes = 1024
        c.http.maxConnections = 7
        c.http.maxQueuedResponseBytes = 8192
        c.http.maxTotalQueuedResponseBytes = 16384
        c.maxInstances = 5
        c.maxTextBytes = 128
        c.maxBatchLines = 7
        c.maxBatchLineBytes = 8192
        c.maxBatchBytes = 65536
        c.batchSeconds = 2.5
        c.http.headerTimeout = 1.5
        c.http.bodyTimeout = 2
        c.http.idleTimeout = 3
        c.http.shutdownTimeout = 4
        c.logLevel = "debug"
        c.logFormat = .json
        c.postalCodes = "postal \"codes\".json"
        c.corsAllowedOrigins = ["https://a.example", "http://b.example:8080"]
        c.uiEnabled = false
        let text = c.configFileJSON()
        for key in ServiceConfiguration.keys {
            #expect(text.contains("\"\(key.split(separator: ".").last!)\""), "\(key) missing from \(text)")
        }
        #expect(try resolve(file: text) == c)
        #expect(c != ServiceConfiguration())
    }

    @Test func precedenceIsCommandLineThenEnvironmentThenFileThenDefault() throws {
        let file = #"{"server": {"port": 1111, "host": "10.0.0.1"}, "log": {"level": "error"}}"#
        let env = ["FORMD_SERVER_PORT": "2222", "FORMD_SERVER_HOST": "10.0.0.2"]
        let c = try resolve(["server.port": "3333"], environment: env, file: file)
        #expect(c.http.port == 3333)
        #expect(c.http.host == "10.0.0.2")
        #expect(c.logLevel == "error")
        #expect(c.logFormat == .text)
        // Variables that are not formd's are ignored.
        #expect(try resolve(environment: ["SERVER_PORT": "1", "PORT": "2"]).http.port == 8080)
    }

    @Test func listsReadFromEveryShape() throws {
        let want = ["https://a.example", "https://b.example"]
        #expect(try resolve(["cors.allowed_origins": "https://a.example, https://b.example"]).corsAllowedOrigins == want)
        #expect(
            try resolve(environment: ["FORMD_CORS_ALLOWED_ORIGINS": "https://a.example,https://b.example"]).corsAllowedOrigins
                == want)
        #expect(try resolve(file: #"{"cors": {"allowed_origins": ["https://a.example", "https://b.example"]}}"#).corsAllowedOrigins == want)
        #expect(try resolve(file: #"{"cors": {"allowed_origins": "*"}}"#).corsAllowedOrigins == ["*"])
        #expect(try resolve(file: #"{"cors": {"allowed_origins": null}}"#).corsAllowedOrigins == [])
    }

    /// A value no setting of that kind takes fails from each source, naming key and source; an
    /// overridden bad value fails too.
    @Test func badValuesFailNamingKeyAndSource() throws {
        for s in ServiceConfiguration.settings {
            // Any non-empty text is a host, a folder or a path; the others refuse this.
            let takesAnyText = ["server.host", "server.tls.cert", "server.tls.key", "forms.directory", "validators.postal_codes"]
                .contains(s.key)
            let bad = "no such value/"
            let fromEnv = failure(environment: [s.environmentName: bad])
            let fromFlag = failure([s.key: bad])
            if takesAnyText { continue }
            #expect(fromEnv?.contains(s.key) == true && fromEnv?.contains(s.environmentName) == true, "\(s.key): \(fromEnv ?? "accepted")")
            #expect(fromFlag?.contains(s.key) == true && fromFlag?.contains("command line") == true, "\(s.key): \(fromFlag ?? "accepted")")
        }
        let overridden = failure(["server.port": "1"], file: #"{"server": {"port": 70000}}"#)
        #expect(overridden?.contains("server.port") == true && overridden?.contains("formd.json") == true, "\(overridden ?? "accepted")")
        #expect(failure(file: #"{"server": {"port": true}}"#)?.contains("not true") == true)
        #expect(failure(file: #"{"server": {"host": null}}"#)?.contains("server.host") == true, "null only where a key may be unset")
        #expect(failure(file: #"{"cors": {"allowed_origins": ["https://a.example", 3]}}"#) != nil)
        #expect(failure(["server.prot": "1"])?.contains("unknown setting \"server.prot\"") == true)
        #expect(failure(file: #"{"server": {"tls": {"cert": "a.pem"}}}"#)?.contains("set together") == true)
        #expect(failure(file: #"{"server": {"port": 80}, "srever": {}}"#)?.contains("srever") == true)
    }

    @Test func wordsAndNumbersAreReadLeniently() throws {
        let c = try resolve(
            environment: [
                "FORMD_LOG_LEVEL": "DEBUG", "FORMD_FORMS_RELOAD": "off", "FORMD_SERVER_IO_THREADS": " auto ",
                "FORMD_TIMEOUTS_IDLE_SECONDS": "2.5", "FORMD_SERVER_EVENT_QUEUE": "Dispatch", "FORMD_LIMITS_MAX_CONNECTIONS": " 12 ",
            ])
        #expect(c.logLevel == "debug" && !c.formsReload && c.ioThreads == nil && c.http.idleTimeout == 2.5)
        #expect(c.eventQueue == .dispatch && c.http.maxConnections == 12)
        #expect(try resolve(environment: ["FORMD_SERVER_TLS_CERT": ""]).tlsCert == nil, "an empty path is unset")
    }
}
