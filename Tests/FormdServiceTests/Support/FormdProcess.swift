import Foundation
import FormdTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the `formd` executable is. The test target depends on the `formd` target, so `swift test`
/// builds it into the same products folder as the test bundle.
enum FormdBinary {
    static let path: String? = locate()

    static func locate() -> String? {
        let fm = FileManager.default
        // 1. An explicit override (e.g. a release build).
        if let p = ProcessInfo.processInfo.environment["FORMD_BIN"], !p.isEmpty, fm.isExecutableFile(atPath: p) {
            return p
        }
        // 2. Next to the running test bundle: walk up from the test executable (on Linux
        //    `.build/<triple>/debug/formdPackageTests.xctest`; on macOS inside the .xctest bundle).
        var starts: [String] = []
        #if os(Linux)
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(exe) }
        #endif
        starts.append(Bundle.main.executablePath ?? "")
        starts.append(CommandLine.arguments.first ?? "")
        for start in starts where !start.isEmpty {
            var dir = URL(fileURLWithPath: start).deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = dir.appendingPathComponent("formd").path
                if fm.isExecutableFile(atPath: candidate), !isDirectory(candidate) { return candidate }
                dir = dir.deletingLastPathComponent()
            }
        }
        // 3. The newest `<package>/.build*/debug/formd` (`#filePath`-relative).
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var best: (String, Date)?
        for name in (try? fm.contentsOfDirectory(atPath: root.path)) ?? [] where name.hasPrefix(".build") {
            for sub in ["debug/formd", "release/formd"] {
                let p = root.appendingPathComponent(name).appendingPathComponent(sub).path
                guard fm.isExecutableFile(atPath: p),
                    let date = (try? fm.attributesOfItem(atPath: p))?[.modificationDate] as? Date
                else { continue }
                if best == nil || date > best!.1 { best = (p, date) }
            }
        }
        return best?.0
    }

    private static func isDirectory(_ path: String) -> Bool {
        var d: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &d) && d.boolValue
    }

    static func require() throws -> String {
        guard let p = path else {
            throw HarnessError("cannot find the formd binary; run `swift build` first or set FORMD_BIN")
        }
        return p
    }
}

/// Collects everything a pipe delivers, on a thread of its own, so the child never blocks on a
/// full pipe; callers wait on a condition (with a deadline) for the text they need.
final class PipeCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: [UInt8] = []
    private var eof = false
    private let fd: Int32
    /// Kept so the descriptor stays open while the reading thread uses it.
    private let handle: FileHandle

    init(fileHandle: FileHandle) {
        handle = fileHandle
        fd = fileHandle.fileDescriptor
        let thread = Thread { [self] in self.pump() }
        thread.start()
    }

    private func pump() {
        var buf = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = read(fd, &buf, buf.count)
            if n < 0 && errno == EINTR { continue }
            condition.lock()
            if n > 0 { data.append(contentsOf: buf[0..<n]) } else { eof = true }
            condition.broadcast()
            condition.unlock()
            if n <= 0 { return }
        }
    }

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits until `match` finds something in the text so far, EOF, or the deadline.
    func wait<T>(until deadline: Date, _ match: (String) -> T?) -> T? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = match(String(decoding: data, as: UTF8.self)) { return found }
            if eof || !condition.wait(until: deadline) { return match(String(decoding: data, as: UTF8.self)) }
        }
    }

    /// Waits for EOF (the child closed the pipe, normally by exiting).
    @discardableResult
    func waitForEOF(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !eof { if !condition.wait(until: deadline) { return eof } }
        return true
    }
}

/// A `formd` child process with its standard output and error collected.
final class FormdProcess: @unchecked Sendable {
    let process = Process()
    let stdout: PipeCollector
    let stderr: PipeCollector
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `formd ARGS` in `directory` (so no stray `config/formd.json` is picked up), with the
    /// parent's environment minus every `FORMD_*` variable (but `FORMD_TEST_EVENT_QUEUE` as the
    /// server's event queue), plus `environment`. A `launcher` (`["/usr/bin/taskset", "-c", "0"]`)
    /// runs the binary through that command.
    init(_ arguments: [String], environment: [String: String] = [:], directory: URL, launcher: [String] = []) throws {
        let binary = try FormdBinary.require()
        if let tool = launcher.first {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = Array(launcher.dropFirst()) + [binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FORMD_") }
        // `.ci/run` runs the suites once per event queue: FORMD_TEST_EVENT_QUEUE picks it.
        if let queue = ProcessInfo.processInfo.environment["FORMD_TEST_EVENT_QUEUE"], !queue.isEmpty {
            env["FORMD_SERVER_EVENT_QUEUE"] = queue
        }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.currentDirectoryURL = directory
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Close our copies of the write ends so EOF arrives when the child exits.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        stdout = PipeCollector(fileHandle: out.fileHandleForReading)
        stderr = PipeCollector(fileHandle: err.fileHandleForReading)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var pid: Int32 { process.processIdentifier }

    func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

    /// The exit status, or nil when the process is still running at the deadline. Once it has
    /// exited, also waits (bounded) for both pipes' EOF: the collectors' threads may not yet have
    /// read the last lines the process wrote, which a test then reads in `text`.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()  // let later callers see it too
        stdout.waitForEOF(until: Date() + 5)
        stderr.waitForEOF(until: Date() + 5)
        return process.terminationStatus
    }

    /// Runs `formd ARGS` to completion (bounded) and returns its status, stdout and stderr.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: URL, timeout: TimeInterval = 30
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = try FormdProcess(arguments, environment: environment, directory: directory)
        guard let status = p.waitForExit(timeout: timeout) else {
            p.signal(SIGKILL)
            throw HarnessError("formd \(arguments.joined(separator: " ")) did not exit within \(timeout) s")
        }
        return (status, p.stdout.text, p.stderr.text)
    }
}

/// `formd serve` on a free port: ready for requests once `start` returns (it has printed
/// `formd listening on http://HOST:PORT`).
final class FormdServerProcess: @unchecked Sendable {
    let child: FormdProcess
    let host: String
    let port: Int
    let directory: URL

    init(
        forms: URL?, extraArguments: [String] = ["--port", "0"], environment: [String: String] = [:],
        directory: URL, launcher: [String] = [], timeout: TimeInterval = 30
    ) throws {
        var args = ["serve"]
        if let forms { args += ["--forms", forms.path] }
        args += extraArguments
        self.directory = directory
        child = try FormdProcess(args, environment: environment, directory: directory, launcher: launcher)
        let found = child.stdout.wait(until: Date() + timeout) { text -> (String, Int)? in
            guard let range = text.range(of: "formd listening on http://") else { return nil }
            let rest = text[range.upperBound...]
            guard let nl = rest.firstIndex(of: "\n") else { return nil }
            let hostPort = rest[..<nl]
            guard let colon = hostPort.lastIndex(of: ":"), let port = Int(hostPort[hostPort.index(after: colon)...])
            else { return nil }
            return (String(hostPort[..<colon]), port)
        }
        guard let (host, port) = found else {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeout: 5)
            throw HarnessError(
                "formd serve did not print its listening line; stdout: \(child.stdout.text) stderr: \(child.stderr.text)")
        }
        self.host = host
        self.port = port
    }

    /// A new connection to the server.
    func connect(timeout: Double = 10) throws -> HTTPTestClient {
        try HTTPTestClient(port: port, timeout: timeout)
    }

    /// One request on a fresh connection.
    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> TestResponse {
        let c = try connect()
        return try c.exchange(method, path, headers: headers, body: body)
    }

    func request(_ method: String, _ path: String, headers: [(String, String)] = [], json: String) throws
        -> TestResponse
    {
        try request(method, path, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    /// Sends `sig` until the server logs that it is draining (nil: it never did in `timeout`).
    ///
    /// One signal suffices since `formd serve` arms its signal sources before the listening line
    /// (`SignalRaceTests` checks exactly that); re-sending only bounds the wait on a slow machine.
    @discardableResult
    func beginDrain(_ sig: Int32 = SIGTERM, timeout: TimeInterval = 20) -> Bool? {
        let deadline = Date() + timeout
        while Date() < deadline {
            child.signal(sig)
            if child.stderr.wait(until: min(deadline, Date() + 1), { $0.contains("draining") ? true : nil }) == true {
                return true
            }
            if !child.process.isRunning { return nil }
        }
        return nil
    }

    /// Drains (see `beginDrain`), then the exit status (nil if it did not exit in time).
    func stop(_ sig: Int32 = SIGTERM, timeout: TimeInterval = 30) -> Int32? {
        beginDrain(sig, timeout: timeout)
        return child.waitForExit(timeout: timeout)
    }

    deinit {
        if child.process.isRunning {
            child.signal(SIGTERM)
            if child.waitForExit(timeout: 10) == nil { child.signal(SIGKILL) }
        }
    }
}

/// A temporary folder, removed on deinit.
final class TempFolder: @unchecked Sendable {
    let url: URL

    init(_ label: String = "formd-svc") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func subfolder(_ name: String) throws -> URL {
        let u = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    /// Writes `text` to `name` (relative to the folder) atomically (write + rename), so the
    /// registry's poll never sees a half-written file.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let u = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: u, options: .atomic)
        return u
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }
}
