import Foundation
import FormdTestSupport
import FormdHTTP
import FormdService
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Settings precedence (command line > FORMD_* environment > config file > defaults) and
/// start-up failures, through the real binary.
@Suite("formd serve configuration", .timeLimit(.minutes(3)))
struct ConfigurationTests {
    /// Three folders, each with one form whose id says which folder it came from.
    struct Folders {
        let root: TempFolder
        let file: URL
        let env: URL
        let flag: URL

        init() throws {
            root = try TempFolder()
            file = try root.subfolder("from-file")
            env = try root.subfolder("from-env")
            flag = try root.subfolder("from-flag")
            try root.write("from-file/file.json", Fixtures.titled("File"))
            try root.write("from-env/env.json", Fixtures.titled("Env"))
            try root.write("from-flag/flag.json", Fixtures.titled("Flag"))
        }

        func writeConfig(_ name: String = "config/formd.json", port: Int = 0, extra: String = "") throws -> URL {
            try root.write(name, """
                {"server": {"port": \(port)}, "forms": {"directory": "\(file.path)"}\(extra)}
                """)
        }
    }

    func servedIDs(_ server: FormdServerProcess) throws -> [String] {
        let forms = try server.request("GET", "/forms").object["forms"] as? [[String: Any]] ?? []
        return forms.compactMap { $0["id"] as? String }
    }

    /// A free port the test can name in a config file (bind to 0, read it, close).
    func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard ok else { throw HarnessError("cannot find a free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    @Test func configFileSetsPortAndFolder() throws {
        let f = try Folders()
        let port = try freePort()
        _ = try f.writeConfig(port: port)
        // The default config file is config/formd.json in the working directory.
        let server = try FormdServerProcess(forms: nil, extraArguments: [], directory: f.root.url)
        #expect(server.port == port)
        #expect(try servedIDs(server) == ["file"])
        #expect(server.stop() == 0)
    }

    @Test func explicitConfigFile() throws {
        let f = try Folders()
        let config = try f.writeConfig("elsewhere.json")
        let server = try FormdServerProcess(forms: nil, extraArguments: ["--config", config.path], directory: f.root.url)
        #expect(server.port != 0)
        #expect(try servedIDs(server) == ["file"])
        #expect(server.stop() == 0)
    }

    @Test func environmentOverridesFile() throws {
        let f = try Folders()
        _ = try f.writeConfig()
        let server = try FormdServerProcess(
            forms: nil, extraArguments: [], environment: ["FORMD_FORMS_DIRECTORY": f.env.path], directory: f.root.url)
        #expect(try servedIDs(server) == ["env"])
        #expect(server.stop() == 0)
    }

    @Test func commandLineOverridesEnvironment() throws {
        let f = try Folders()
        _ = try f.writeConfig(port: 1)  // port 1 would fail to bind: --port 0 must win over the file
        let server = try FormdServerProcess(
            forms: f.flag, extraArguments: ["--port", "0"], environment: ["FORMD_FORMS_DIRECTORY": f.env.path],
            directory: f.root.url)
        #expect(try servedIDs(server) == ["flag"])
        #expect(server.stop() == 0)
    }

    @Test func environmentPortOverridesFilePort() throws {
        let f = try Folders()
        _ = try f.writeConfig(port: 1)
        let server = try FormdServerProcess(
            forms: nil, extraArguments: [], environment: ["FORMD_SERVER_PORT": "0"], directory: f.root.url)
        #expect(server.port > 1)
        #expect(server.stop() == 0)
    }

    /// Runs `formd serve` expecting a start-up failure; returns (status, stderr).
    func failingStart(_ args: [String], environment: [String: String] = [:], in dir: URL) throws -> (Int32, String) {
        let r = try FormdProcess.run(["serve"] + args, environment: environment, directory: dir, timeout: 30)
        #expect(!r.stdout.contains("formd listening"), "must not start: \(r.stdout)")
        return (r.status, r.stderr)
    }

    @Test func badEnvironmentValueFailsNamingTheKey() throws {
        let f = try Folders()
        let (status, stderr) = try failingStart(
            ["--forms", f.flag.path, "--port", "0"], environment: ["FORMD_LIMITS_MAX_BODY_BYTES": "lots"], in: f.root.url)
        #expect(status != 0)
        #expect(stderr.contains("limits.max_body_bytes"), "\(stderr)")
        #expect(stderr.contains("FORMD_LIMITS_MAX_BODY_BYTES"), "\(stderr)")

        let (status2, stderr2) = try failingStart(
            ["--forms", f.flag.path], environment: ["FORMD_SERVER_PORT": "abc"], in: f.root.url)
        #expect(status2 != 0)
        #expect(stderr2.contains("server.port"), "\(stderr2)")
    }

    @Test func unknownKeyInFileFailsNamingTheKey() throws {
        let f = try Folders()
        _ = try f.root.write("config/formd.json", #"{"server": {"port": 0, "prot": 8080}}"#)
        let (status, stderr) = try failingStart(["--forms", f.flag.path], in: f.root.url)
        #expect(status != 0)
        #expect(stderr.contains("server.prot"), "\(stderr)")
        // An unknown (even empty) section is a typo, not an empty section.
        _ = try f.root.write("config/formd.json", #"{"srever": {}}"#)
        let (status2, stderr2) = try failingStart(["--forms", f.flag.path, "--port", "0"], in: f.root.url)
        #expect(status2 != 0)
        #expect(stderr2.contains("srever"), "\(stderr2)")
    }

    @Test func badValuesInFileFailNamingTheKey() throws {
        let f = try Folders()
        for (json, key) in [
            (#"{"server": {"port": 70000}}"#, "server.port"), (#"{"log": {"format": "xml"}}"#, "log.format"),
            (#"{"timeouts": {"shutdown_seconds": -1}}"#, "timeouts.shutdown_seconds"),
            (#"{"forms": {"reload": "maybe"}}"#, "forms.reload"),
            (#"{"forms": {"max_file_bytes": 0}}"#, "forms.max_file_bytes"),
            (#"{"forms": {"max_file_bytes": "8 MiB"}}"#, "forms.max_file_bytes"),
            (#"{"server": {"io_threads": 0}}"#, "server.io_threads"), (#"{"server": {"workers": "many"}}"#, "server.workers"),
        ] {
            _ = try f.root.write("config/formd.json", json)
            let (status, stderr) = try failingStart(["--forms", f.flag.path, "--port", "0"], in: f.root.url)
            #expect(status != 0, "\(json)")
            #expect(stderr.contains(key), "\(json): \(stderr)")
        }
    }

    /// `server.io_threads` / `server.workers`: "auto" (the default) sizes them from the cores,
    /// numbers are taken as given, 0 workers means handlers run on the I/O threads.
    @Test func threadSettings() throws {
        let auto = try ServiceConfiguration.resolve(environment: [:], configFile: nil, configFileIsExplicit: false)
        #expect(auto.ioThreads == nil && auto.workers == nil)
        #expect(auto.threads(cores: 1) == (1, 0), "one core: the handlers run on the loop, no hand-off")
        #expect(auto.threads(cores: 2) == (2, 2), "one loop caps the I/O at one core")
        #expect(auto.threads(cores: 4) == (2, 4))
        #expect(auto.threads(cores: 8) == (2, 8))
        #expect(auto.threads(cores: 12) == (3, 12))
        #expect(auto.threads(cores: 64) == (16, 64))
        var dispatch = auto
        dispatch.eventQueue = .dispatch
        #expect(dispatch.threads(cores: 2) == (2, 2), "a Dispatch loop is a queue: one per core")
        #expect(dispatch.threads(cores: 1) == (1, 0))

        let f = try TempFolder()
        let file = try f.write("c.json", #"{"server": {"io_threads": 3, "workers": "auto"}}"#).path
        let fromFile = try ServiceConfiguration.resolve(environment: [:], configFile: file, configFileIsExplicit: true)
        #expect(fromFile.threads(cores: 2) == (3, 2))
        let fromEnv = try ServiceConfiguration.resolve(
            environment: ["FORMD_SERVER_WORKERS": "0", "FORMD_SERVER_IO_THREADS": "auto"], configFile: file,
            configFileIsExplicit: true)
        // The environment wins over the file, "auto" included.
        #expect(fromEnv.threads(cores: 4) == (2, 0))
        #expect(throws: ConfigurationError.self) {
            _ = try ServiceConfiguration.resolve(environment: ["FORMD_SERVER_WORKERS": "-1"], configFile: nil, configFileIsExplicit: false)
        }
        #expect(throws: ConfigurationError.self) {
            _ = try ServiceConfiguration.resolve(commandLine: ["server.io_threads": "1000"], environment: [:], configFile: nil, configFileIsExplicit: false)
        }
    }

    @Test func brokenConfigFileAndMissingExplicitFile() throws {
        let f = try Folders()
        _ = try f.root.write("config/formd.json", "{\"server\": ")
        let (status, stderr) = try failingStart(["--forms", f.flag.path, "--port", "0"], in: f.root.url)
        #expect(status != 0)
        #expect(stderr.contains("config/formd.json"), "\(stderr)")
        let (status2, stderr2) = try failingStart(
            ["--config", "/nonexistent/formd.json", "--forms", f.flag.path, "--port", "0"], in: f.root.url)
        #expect(status2 != 0)
        #expect(stderr2.contains("/nonexistent/formd.json"), "\(stderr2)")
    }

    @Test func missingFormsFolderFailsNamingTheKey() throws {
        let f = try Folders()
        let (status, stderr) = try failingStart(["--forms", f.root.url.appendingPathComponent("nope").path, "--port", "0"], in: f.root.url)
        #expect(status != 0)
        #expect(stderr.contains("forms.directory"), "\(stderr)")
    }
}
