import Foundation
import FormdTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP

/// Both event queues run the same connection code; these run on each explicitly, whatever
/// `FORMD_TEST_EVENT_QUEUE` says (the whole suites run once per queue in `.ci/run`).
@Suite(.serialized) struct EventQueueTests {
    static let kinds: [EventQueueKind] = {
        #if os(Linux)
        [.epoll, .dispatch]
        #else
        [.dispatch]
        #endif
    }()

    @Test(arguments: kinds) func keepAlivePipeliningAndManyConnections(_ kind: EventQueueKind) throws {
        let (s, port) = try makeServer { $0.eventQueue = kind; $0.ioThreads = 2 }
        defer { stop(s) }
        // Many connections opened and closed: descriptors are reused only once their sources are gone.
        for round in 0..<3 {
            var clients: [HTTPTestClient] = []
            for i in 0..<40 {
                let c = try HTTPTestClient(port: port)
                try c.send("GET /c\(round)-\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                clients.append(c)
            }
            for (i, c) in clients.enumerated() {
                let r = try #require(c.read())
                #expect(r.status == 200 && r.text == "{\"path\":\"/c\(round)-\(i)\",\"query\":\"\",\"len\":0}")
            }
        }
        let c = try HTTPTestClient(port: port)
        var all = ""
        for i in 0..<50 { all += "POST /p\(i) HTTP/1.1\r\nHost: x\r\nContent-Length: \(i)\r\n\r\n" + String(repeating: "z", count: i) }
        try c.send(all)
        for i in 0..<50 {
            let r = try #require(c.read())
            #expect(r.text == "{\"path\":\"/p\(i)\",\"query\":\"\",\"len\":\(i)}")
        }
    }

    /// A large answer to a client that reads slowly: the write side (EPOLLOUT / the write
    /// source) carries it out in pieces, then the connection reads again.
    @Test(arguments: kinds) func largeAnswersGoOutAsTheClientReads(_ kind: EventQueueKind) throws {
        struct Big: HTTPHandler {
            func handle(_ r: HTTPRequest) -> HTTPResponse {
                HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(repeating: UInt8(ascii: "a"), count: 4 << 20), allowsCompression: false)
            }
        }
        let (s, port) = try makeServer(handler: Big()) { $0.eventQueue = kind; $0.ioThreads = 1 }
        defer { stop(s) }
        let c = try HTTPTestClient(port: port)
        try c.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /big2 HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(200_000)  // the server fills the socket buffers and waits for writability
        for _ in 0..<2 {
            let r = try #require(c.read())
            #expect(r.status == 200 && r.body.count == 4 << 20)
        }
    }

    /// Shutdown: an idle connection is closed, one in flight gets its answer, the server stops.
    /// Once shutdown reports completion the server holds no listening descriptor: on the Dispatch
    /// queue the listen source's own descriptor (a dup of the socket) must be closed before the
    /// report, or the kernel still completes handshakes into the backlog (a CI run saw one).
    ///
    /// On Linux this is checked in the process's own descriptor table (`/proc/self/fd` against
    /// the listening sockets of `/proc/net/tcp`), not by connecting: other suites running in
    /// parallel start processes, and a child between its fork and its exec holds a copy of every
    /// descriptor (close-on-exec or not), so the socket can accept for that instant although
    /// formd closed its own (CI runs connected at rounds 25 and 0). The port must then refuse
    /// within a second, once no copy is left.
    @Test(arguments: kinds) func afterShutdownThePortRefuses(_ kind: EventQueueKind) throws {
        #if os(Linux)
        let host = kind == .epoll ? "127.0.0.2" : "127.0.0.3"
        #else
        let host = "127.0.0.1"
        #endif
        for round in 0..<40 {
            let (s, port) = try makeServer { $0.eventQueue = kind; $0.ioThreads = 2; $0.host = host }
            #expect(Self.connects(host, port), "round \(round): the server listens")
            #if os(Linux)
            #expect(!Self.ownListeningSockets(host: host, port: port).isEmpty, "round \(round): the check sees the listener")
            #endif
            stop(s)
            #expect(s.state == .stopped)
            #if os(Linux)
            #expect(Self.ownListeningSockets(host: host, port: port).isEmpty, "round \(round): no listening descriptor left after shutdown")
            #endif
            let deadline = ContinuousClock.now + .seconds(1)
            var refused = !Self.connects(host, port)
            while !refused, ContinuousClock.now < deadline {
                usleep(2_000)
                refused = !Self.connects(host, port)
            }
            #expect(refused, "round \(round): refused after shutdown")
        }
    }

    #if os(Linux)
    /// Inodes of the sockets this process holds that listen on IPv4 `host`:`port` (the address
    /// too: the port number freed on 127.0.0.2 may be given at once to a listener of another
    /// suite on 127.0.0.1).
    static func ownListeningSockets(host: String, port: Int) -> Set<String> {
        var listening: Set<String> = []
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return [] }
        // /proc/net/tcp prints the address as the 32-bit word in host order, in hex.
        let local = String(format: "%08X:%04X", address.s_addr, port)
        for table in ["/proc/net/tcp"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let f = line.split(separator: " ", omittingEmptySubsequences: true)
                // sl local_address rem_address st tx:rx tr:tm retrnsmt uid timeout inode
                guard f.count > 9, f[3] == "0A", f[1] == local else { continue }
                listening.insert(String(f[9]))
            }
        }
        var own: Set<String> = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                target.hasPrefix("socket:[")
            else { continue }
            let inode = String(target.dropFirst("socket:[".count).dropLast())
            if listening.contains(inode) { own.insert(inode) }
        }
        return own
    }
    #endif

    /// Whether a TCP connection to `host`:`port` is accepted (by the kernel: the handshake).
    static func connects(_ host: String, _ port: Int) -> Bool {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Reads stay on while a request is with the worker pool: bytes that arrive meanwhile are
    /// kept and answered in order after it, and a client that half-closes meanwhile still gets
    /// every answer before the server closes.
    @Test(arguments: kinds) func inputWhileARequestIsWithThePool(_ kind: EventQueueKind) throws {
        struct SlowFirst: HTTPHandler {
            func handle(_ r: HTTPRequest) -> HTTPResponse {
                if r.path == "/slow" { usleep(150_000) }
                return .json("{\"path\":\"\(r.path)\"}")
            }
        }
        let (s, port) = try makeServer(handler: SlowFirst()) { $0.eventQueue = kind; $0.ioThreads = 1; $0.handlerMode = .pool(width: 2) }
        defer { stop(s) }
        for halfClose in [false, true] {
            let c = try HTTPTestClient(port: port)
            try c.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(30_000)  // the first request is with a worker now
            var rest = ""
            for i in 0..<20 { rest += "POST /n\(i) HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc" }
            try c.send(rest)
            if halfClose { shutdown(c.fd, Int32(SHUT_WR)) }
            let first = try #require(c.read())
            #expect(first.text == "{\"path\":\"/slow\"}")
            for i in 0..<20 {
                let r = try #require(c.read(), "answer \(i), half-closed: \(halfClose)")
                #expect(r.status == 200 && r.text == "{\"path\":\"/n\(i)\"}")
            }
            if halfClose { #expect(c.isClosedByServer()) }
        }
        // A client that vanishes while its request is with a worker costs nothing afterwards.
        do {
            let gone = try HTTPTestClient(port: port)
            try gone.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(20_000)
            var reset = linger(l_onoff: 1, l_linger: 0)
            setsockopt(gone.fd, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
        }  // closed with a reset here
        let after = try HTTPTestClient(port: port)
        try after.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(after.read()).text == "{\"path\":\"/after\"}")
    }

    @Test(arguments: kinds) func drainFinishes(_ kind: EventQueueKind) throws {
        struct Slow: HTTPHandler {
            func handle(_ r: HTTPRequest) -> HTTPResponse {
                usleep(300_000)
                return .json("{\"ok\":true}")
            }
        }
        let (s, port) = try makeServer(handler: Slow()) { $0.eventQueue = kind; $0.ioThreads = 2; $0.handlerMode = .pool(width: 2) }
        let idle = try HTTPTestClient(port: port)
        let busy = try HTTPTestClient(port: port)
        try busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(50_000)
        let done = DispatchSemaphore(value: 0)
        let t0 = Date()
        s.shutdown { done.signal() }
        let r = try #require(busy.read())
        #expect(r.status == 200 && r.headers["connection"] == "close")
        #expect(busy.isClosedByServer())
        shutdown(busy.fd, Int32(SHUT_WR))  // the server lingers until the client's FIN (up to 2 s)
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(Date().timeIntervalSince(t0) < 2, "the drain ends when the last answer is out")
        #expect(idle.isClosedByServer())
        #expect(s.state == .stopped)
    }
}
