import Foundation
import FormdTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP

/// Streamed requests (`HTTPStreamingHandler`, `Connection+Streaming.swift`) on both event queues
/// and in both handler modes: the body reaches the handler as it arrives, the answer leaves as it
/// is written, memory stays bounded, and the connection goes on afterwards.
@Suite(.serialized, .timeLimit(.minutes(3))) struct StreamingTests {
    /// `POST /stream...` is a stream; everything else is `EchoHandler`'s.
    ///
    /// `/stream` echoes the body (at most 1000 bytes a call, to exercise partial use), and ends
    /// with `end:complete`, `end:stopped` or `end:failed:<slug>` and a `Stream-Bytes` trailer.
    /// `/stream/stop` wants no more after 10 bytes; `/stream/refuse` is refused with a 415.
    final class StreamEcho: HTTPStreamingHandler {
        let received = Atomic<Int>(0)

        final class Echo: HTTPBodyStream {
            let owner: StreamEcho
            let stopAfter: Int?
            var total = 0
            var wantsMore = true
            init(owner: StreamEcho, stopAfter: Int?) {
                self.owner = owner
                self.stopAfter = stopAfter
            }
            func receive(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Int {
                var n = min(bytes.count, 1000)
                if let stopAfter { n = min(n, stopAfter - total) }
                out.append(contentsOf: bytes[0..<n])
                total += n
                owner.received.add(n, ordering: .relaxed)
                if let stopAfter, total >= stopAfter { wantsMore = false }
                return max(n, 1)
            }
            func finish(_ end: HTTPStreamEnd, into out: inout [UInt8]) -> HTTPHeaders {
                switch end {
                case .complete: out += Array("\nend:complete\n".utf8)
                case .stopped: out += Array("\nend:stopped\n".utf8)
                case .failed(let e): out += Array("\nend:failed:\(e.slug)\n".utf8)
                }
                return ["Stream-Bytes": "\(total)"]
            }
        }

        func handle(_ r: HTTPRequest) -> HTTPResponse { EchoHandler().handle(r) }
        func streams(_ r: HTTPRequest) -> Bool { r.method == "POST" && r.path.hasPrefix("/stream") }
        func openStream(_ r: HTTPRequest) -> HTTPStreamOpening {
            if r.path == "/stream/refuse" { return .respond(.problem(status: 415, slug: "nope", detail: "refused")) }
            var head = HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream", "Trailer": "Stream-Bytes"])
            head.body = Array("ignored".utf8)
            return .stream(head: head, body: Echo(owner: self, stopAfter: r.path == "/stream/stop" ? 10 : nil))
        }
    }

    struct Setup: CustomStringConvertible, Sendable {
        var queue: EventQueueKind
        var mode: HTTPServerConfiguration.HandlerMode
        var description: String { "\(queue.rawValue), \(mode == .inline ? "inline" : "pool")" }
    }

    static let setups: [Setup] = {
        var queues: [EventQueueKind] = [.dispatch]
        #if os(Linux)
        queues.insert(.epoll, at: 0)
        #endif
        return queues.flatMap { q in [Setup(queue: q, mode: .inline), Setup(queue: q, mode: .pool(width: 2))] }
    }()

    static func server(_ setup: Setup, handler: StreamEcho = StreamEcho(), _ tweak: (inout HTTPServerConfiguration) -> Void = { _ in })
        throws -> (HTTPServer, Int)
    {
        try makeServer(handler: handler) { c in
            c.eventQueue = setup.queue
            c.handlerMode = setup.mode
            c.maxBodyBytes = 64 << 10  // streams are not bound by it
            tweak(&c)
        }
    }

    static func payload(_ count: Int, seed: UInt64 = 7) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(97 + rng.next() % 26) }
    }

    static func expectEcho(_ r: TestResponse, _ body: [UInt8], end: String = "complete") {
        #expect(r.status == 200)
        #expect(r.header("Transfer-Encoding") == "chunked")
        #expect(r.header("Content-Length") == nil)
        let tail = Array("\nend:\(end)\n".utf8)
        #expect(r.body.count == body.count + tail.count)
        #expect(Array(r.body.prefix(body.count)) == body, "the echo differs")
        #expect(Array(r.body.suffix(tail.count)) == tail, "\(String(decoding: r.body.suffix(40), as: UTF8.self))")
        #expect(r.trailers["Stream-Bytes"] == "\(body.count)")
    }

    @Test(arguments: setups) func contentLengthBodyLargerThanTheBodyLimitThenKeepAlive(setup: Setup) throws {
        let (s, port) = try Self.server(setup)
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10)
        let body = Self.payload(3 << 20)
        // The client writes while it reads: a client that writes everything first would fill the
        // server's answer window and both would wait (as with any streaming server).
        let sender = Thread { try? c.send(HTTPTestClient.encode("POST", "/stream", body: body)) }
        sender.start()
        Self.expectEcho(try c.readResponse(), body)
        // Same connection: the next request is an ordinary one, and the ordinary body limit holds.
        #expect(try c.exchange("GET", "/after").object["path"] as? String == "/after")
        #expect(try c.exchange("POST", "/echo", body: Self.payload(100 << 10)).status == 413)
    }

    @Test(arguments: setups) func chunkedRequestBody(setup: Setup) throws {
        let (s, port) = try Self.server(setup)
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10)
        let body = Self.payload(300_000, seed: 3)
        var wire = Array("POST /stream HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        var rng = SplitMix64(seed: 5)
        var i = 0
        while i < body.count {
            let n = min(body.count - i, Int(1 + rng.next() % 9000))
            wire += Array(String(n, radix: 16).utf8) + [13, 10] + body[i..<(i + n)] + [13, 10]
            i += n
        }
        wire += Array("0\r\nX-Trailer: yes\r\n\r\n".utf8)
        try c.send(wire)
        Self.expectEcho(try c.readResponse(), body)
        #expect(try c.exchange("GET", "/again").status == 200)
    }

    @Test(arguments: setups) func answersLeaveBeforeTheBodyEnds(setup: Setup) throws {
        let (s, port) = try Self.server(setup)
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10)
        let first = Self.payload(5000, seed: 1), second = Self.payload(3000, seed: 2)
        try c.send("POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: \(first.count + second.count)\r\n\r\n")
        // A trickle: the first part a few bytes at a time.
        for k in stride(from: 0, to: first.count, by: 1000) {
            try c.send(Array(first[k..<min(first.count, k + 1000)]))
            usleep(20_000)
        }
        let head = try c.readHead()
        #expect(head.status == 200 && head.header("Trailer") == "Stream-Bytes")
        var trailers = TestHeaders()
        var echoed: [UInt8] = []
        while echoed.count < first.count, let chunk = try c.readChunk(trailers: &trailers) { echoed += chunk }
        #expect(echoed == first, "the first part's answer arrives while the body is incomplete")
        try c.send(second)
        while let chunk = try c.readChunk(trailers: &trailers) { echoed += chunk }
        #expect(echoed == first + second + Array("\nend:complete\n".utf8))
        #expect(trailers["Stream-Bytes"] == "8000")
    }

    @Test(arguments: setups) func gzipBody(setup: Setup) throws {
        let (s, port) = try Self.server(setup)
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10)
        let body = Array(String(repeating: "line of text, compressible\n", count: 40_000).utf8)  // 1 MiB
        let gz = try #require(Gzip.compress(body))
        let sender = Thread { try? c.send(HTTPTestClient.encode("POST", "/stream", headers: [("Content-Encoding", "gzip")], body: gz)) }
        sender.start()
        Self.expectEcho(try c.readResponse(), body)
        // A corrupt gzip body: the stream is told, and the connection closes after its answer.
        let bad = try HTTPTestClient(port: port, timeout: 10)
        try bad.send(HTTPTestClient.encode("POST", "/stream", headers: [("Content-Encoding", "gzip")], body: Array(gz[0..<20]) + [1, 2, 3, 4, 5, 6, 7, 8] + Array(gz[28...])))
        let r = try bad.readResponse()
        // Found before the answer's head went out: a plain 400; after: the stream's own ending.
        #expect(r.status == 400 || r.text.hasSuffix("end:failed:bad-request\n"), "\(r)")
        #expect(bad.isClosedByServer())
    }

    @Test(arguments: setups) func aClientThatStopsReadingHoldsBoundedMemoryAndOthersAreServed(setup: Setup) throws {
        let handler = StreamEcho()
        let (s, port) = try Self.server(setup, handler: handler) { c in
            c.maxQueuedResponseBytes = 64 << 10
            c.idleTimeout = 1.5
        }
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10, receiveBuffer: 4096)
        let total = 64 << 20
        try c.send("POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: \(total)\r\n\r\n")
        // Write without reading until the server stops taking bytes.
        let flags = fcntl(c.fd, F_GETFL)
        _ = fcntl(c.fd, F_SETFL, flags | O_NONBLOCK)
        let block = [UInt8](repeating: 0x61, count: 65536)
        var sent = 0
        var stalls = 0
        while sent < total && stalls < 20 {
            let n = block.withUnsafeBytes { send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; stalls = 0 } else { stalls += 1; usleep(50_000) }
        }
        let taken = handler.received.load(ordering: .relaxed)
        // The window (128 KiB), the queued answer (64 KiB), a read, and the kernel's buffers.
        #expect(sent < 32 << 20, "the server went on reading: \(sent) bytes taken")
        #expect(taken < 16 << 20, "the stream was fed \(taken) bytes for a client that reads nothing")
        // Another connection of the same server is served meanwhile.
        let other = try HTTPTestClient(port: port, timeout: 5)
        let t0 = Date()
        #expect(try other.exchange("GET", "/meanwhile").status == 200)
        #expect(Date().timeIntervalSince(t0) < 1)
        // The idle timeout closes the stuck connection.
        #expect(eventually(within: 10) { s.openConnections <= 1 ? true : nil } == true)
    }

    @Test(arguments: setups) func refusalsAndStopsClose(setup: Setup) throws {
        let (s, port) = try Self.server(setup)
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10)
        try c.send("POST /stream/refuse HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc")
        let r = try c.readResponse()
        #expect(r.status == 415 && r.header("Connection") == "close" && r.header("Content-Length") != nil)
        #expect(c.isClosedByServer())

        let d = try HTTPTestClient(port: port, timeout: 10)
        try d.send("POST /stream/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "z", count: 5000))
        let stopped = try d.readResponse()
        #expect(stopped.text == String(repeating: "z", count: 10) + "\nend:stopped\n")
        #expect(d.isClosedByServer())
    }

    @Test(arguments: setups) func aBodyThatStopsArrivingEndsTheAnswer(setup: Setup) throws {
        let (s, port) = try Self.server(setup) { $0.bodyTimeout = 0.5 }
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10)
        try c.send("POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nhello")
        let r = try c.readResponse()
        #expect(r.status == 200)
        #expect(r.text == "hello\nend:failed:request-timeout\n")
        #expect(c.isClosedByServer())
        // Broken chunked framing mid-body: the same, with the parser's 400.
        let d = try HTTPTestClient(port: port, timeout: 10)
        try d.send("POST /stream HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
        #expect(try d.readHead().status == 200)
        var trailers = TestHeaders()
        #expect(try d.readChunk(trailers: &trailers) == Array("hello".utf8))
        try d.send("zz\r\n")
        #expect(try d.readChunk(trailers: &trailers) == Array("\nend:failed:bad-request\n".utf8))
        #expect(try d.readChunk(trailers: &trailers) == nil)
        #expect(d.isClosedByServer())
        // Broken before the head went out: an ordinary 400.
        let e = try HTTPTestClient(port: port, timeout: 10)
        try e.send("POST /stream HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        #expect(try e.readResponse().status == 400)
    }

    @Test func http10GetsTheBytesUnframedThenClose() throws {
        let (s, port) = try Self.server(Self.setups[1])
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10)
        try c.send("POST /stream HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello")
        let all = String(decoding: c.readToEnd(), as: UTF8.self)
        #expect(all.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(!all.contains("Transfer-Encoding"))
        #expect(all.hasSuffix("\r\n\r\nhello\nend:complete\n"))
    }

    @Test(arguments: setups) func overTLS(setup: Setup) throws {
        let pki = try TestPKI()
        let (cert, key) = try pki.issue("server")
        let (s, port) = try Self.server(setup) { $0.tls = TLSConfiguration(certificateChainPath: cert, privateKeyPath: key) }
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, tls: TLSClientOptions(caFile: pki.caCert), timeout: 10)
        let body = Self.payload(1 << 20, seed: 9)
        // TLS streams are not thread-safe: send and read in turns, a piece at a time.
        try c.send("POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
        var k = 0
        var echoed: [UInt8] = []
        var trailers = TestHeaders()
        var headRead = false
        while k < body.count {
            try c.send(Array(body[k..<min(body.count, k + 32768)]))
            k += 32768
            if !headRead { _ = try c.readHead(); headRead = true }
            while echoed.count + 1000 <= min(k, body.count), let chunk = try c.readChunk(trailers: &trailers) { echoed += chunk }
        }
        while let chunk = try c.readChunk(trailers: &trailers) { echoed += chunk }
        #expect(echoed == body + Array("\nend:complete\n".utf8))
        #expect(trailers["Stream-Bytes"] == "\(body.count)")
        #expect(try c.exchange("GET", "/after-tls").status == 200)
    }
}
