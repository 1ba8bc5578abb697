import ArgumentParser
import FormdService
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `formd healthcheck`: one blocking `GET` over a plain POSIX socket, for container health checks
/// (the runtime image has no curl). Exit 0 on a 200, 1 on anything else (refused, timed out,
/// another status), 2 on a usage or configuration error.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "GET a health endpoint of a running server; exit 0 on 200, 1 otherwise.",
        discussion: """
            Without --url, the address comes from the same settings as `formd serve` (command line, \
            FORMD_* environment variables, config file, defaults): server.host and server.port. A \
            wildcard host (0.0.0.0, ::) is reached on loopback. Plain HTTP only.
            """
    )

    @Option(help: "Full URL to GET, e.g. http://127.0.0.1:8080/healthz (overrides --host, --port, --path).")
    var url: String?
    @Option(help: "Config file (default: config/formd.json when it exists).")
    var config: String?
    @Option(help: "Server address (server.host; 0.0.0.0 and :: mean loopback).")
    var host: String?
    @Option(help: "Server port (server.port).")
    var port: Int?
    @Option(help: "Path to GET.")
    var path: String = "/healthz"
    @Option(help: "Seconds allowed for connecting, sending and reading the status line.")
    var timeout: Double = 2

    func validate() throws {
        if url != nil && (host != nil || port != nil) {
            throw ValidationError("--url cannot be combined with --host or --port")
        }
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be in (0, 60]") }
        guard path.hasPrefix("/") else { throw ValidationError("--path must start with /") }
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be in 1...65535") }
        if let url, Target(url: url) == nil {
            throw ValidationError("--url: expected http://HOST[:PORT][/PATH], got \(url)")
        }
    }

    func run() throws {
        let target: Target
        if let url {
            target = Target(url: url)!  // checked by validate()
        } else {
            var flags: [String: String] = [:]
            flags["server.host"] = host
            flags["server.port"] = port.map(String.init)
            let c: ServiceConfiguration
            do {
                c = try ServiceConfiguration.resolve(
                    commandLine: flags, configFile: config ?? "config/formd.json", configFileIsExplicit: config != nil)
            } catch {
                printError("formd healthcheck: \(error)")
                throw ExitCode(2)
            }
            if c.tlsCert != nil {
                printError("formd healthcheck: the server uses TLS; healthcheck speaks plain HTTP only")
                throw ExitCode(2)
            }
            guard (1...65535).contains(c.http.port) else {
                printError("formd healthcheck: server.port \(c.http.port) is not a port a client can reach")
                throw ExitCode(2)
            }
            target = Target(host: c.http.host, port: c.http.port, path: path)
        }
        switch HealthProbe.get(target, timeout: timeout) {
        case .status(200):
            print("ok: \(target) 200")
        case .status(let code):
            printError("unhealthy: \(target) answered \(code)")
            throw ExitCode(1)
        case .failed(let why):
            printError("unhealthy: \(target): \(why)")
            throw ExitCode(1)
        }
    }

    struct Target: CustomStringConvertible {
        var host: String
        var port: Int
        var path: String

        init(host: String, port: Int, path: String) {
            // A wildcard listen address is reached over loopback.
            switch host {
            case "0.0.0.0", "": self.host = "127.0.0.1"
            case "::", "[::]": self.host = "::1"
            default: self.host = host
            }
            self.port = port
            self.path = path
        }

        /// `http://HOST[:PORT][/PATH]`; IPv6 literals in brackets.
        init?(url: String) {
            guard url.lowercased().hasPrefix("http://") else { return nil }
            var rest = Substring(url.dropFirst("http://".count))
            var path = "/"
            if let slash = rest.firstIndex(of: "/") {
                path = String(rest[slash...])
                rest = rest[..<slash]
            }
            var host: String
            var portText: Substring?
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                host = String(rest[rest.index(after: rest.startIndex)..<close])
                let after = rest[rest.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { return nil }
                    portText = after.dropFirst()
                }
            } else if let colon = rest.lastIndex(of: ":") {
                host = String(rest[..<colon])
                portText = rest[rest.index(after: colon)...]
            } else {
                host = String(rest)
            }
            var port = 80
            if let portText {
                guard let p = Int(portText), (1...65535).contains(p) else { return nil }
                port = p
            }
            guard !host.isEmpty, !path.contains(where: { $0 == " " || $0 == "\r" || $0 == "\n" }) else { return nil }
            if host.contains(where: { $0 == "@" || $0 == "/" }) { return nil }
            self.init(host: host, port: port, path: path)
        }

        var description: String {
            let h = host.contains(":") ? "[\(host)]" : host
            return "http://\(h):\(port)\(path)"
        }
    }
}

/// A minimal HTTP/1.1 client: connect, send one GET with `Connection: close`, read the status line.
/// Every step shares one deadline.
enum HealthProbe {
    enum Outcome { case status(Int), failed(String) }

    static func get(_ target: HealthcheckCommand.Target, timeout: Double) -> Outcome {
        let deadline = monotonicMillis() + Int64(timeout * 1000)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Socket.stream
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var res: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(target.host, String(target.port), &hints, &res)
        guard rc == 0, let first = res else {
            return .failed("cannot resolve \(target.host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(res) }

        var lastError = "no address"
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            ai = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            if fd < 0 { lastError = errnoText(); continue }
            Socket.prepare(fd)
            defer { close(fd) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { lastError = "connect: \(errnoText())"; continue }
                guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return .failed("connect: timed out") }
                var err: Int32 = 0
                var len = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
                if err != 0 { lastError = "connect: \(String(cString: strerror(err)))"; continue }
            }
            let hostHeader = target.host.contains(":") ? "[\(target.host)]:\(target.port)" : "\(target.host):\(target.port)"
            let request = Array(
                "GET \(target.path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: formd-healthcheck\r\nConnection: close\r\n\r\n".utf8)
            var sent = 0
            while sent < request.count {
                let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, request.count - sent, Socket.noSignal) }
                if n > 0 { sent += n; continue }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                    guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return .failed("send: timed out") }
                    continue
                }
                return .failed("send: \(errnoText())")
            }
            // Read until the end of the status line.
            var head: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while !head.contains(UInt8(ascii: "\n")) && head.count < 8192 {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
                if n > 0 { head += buffer[0..<n]; continue }
                if n == 0 { break }
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    guard wait(fd, for: Int16(POLLIN), until: deadline) else { return .failed("read: timed out") }
                    continue
                }
                return .failed("read: \(errnoText())")
            }
            return parseStatus(head)
        }
        return .failed(lastError)
    }

    /// `HTTP/1.x NNN ...` → NNN.
    static func parseStatus(_ head: [UInt8]) -> Outcome {
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            return .failed(head.isEmpty ? "connection closed without a response" : "not an HTTP response")
        }
        return .status(code)
    }

    private static func wait(_ fd: Int32, for events: Int16, until deadline: Int64) -> Bool {
        while true {
            let left = deadline - monotonicMillis()
            if left <= 0 { return false }
            var p = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&p, 1, Int32(min(left, Int64(Int32.max))))
            if rc > 0 { return true }
            if rc == 0 { return false }
            if errno != EINTR { return true }  // let the next call report the error
        }
    }

    private static func monotonicMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
