import Foundation
import FormdTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP

/// A client that pipelines requests and does not read its answers must not make the server hold
/// them all: past `maxQueuedResponseBytes` queued for a connection the server stops parsing (and
/// so reading) its requests, and goes on once the client reads.
@Suite(.serialized) struct BackPressureTests {
    /// `EchoHandler`, counting the requests it answered.
    final class Counting: HTTPHandler {
        let handled = Atomic<Int>(0)
        func handle(_ r: HTTPRequest) -> HTTPResponse {
            handled.add(1, ordering: .relaxed)
            return EchoHandler().handle(r)
        }
        func runsOnIOLoop(_ r: HTTPRequest) -> Bool { false }
    }

    @Test(arguments: [HTTPServerConfiguration.HandlerMode.inline, .pool(width: 2)])
    func pipelinedRequestsWaitForTheClientToRead(mode: HTTPServerConfiguration.HandlerMode) throws {
        let handler = Counting()
        let (s, port) = try makeServer(handler: handler) { c in
            c.handlerMode = mode
            c.maxQueuedResponseBytes = 64 << 10
        }
        defer { stop(s) }
        let c = try HTTPTestClient(port: port, timeout: 10, receiveBuffer: 4096)
        // 2,000 requests for 8 KiB answers each: 16 MiB of answers if all were made at once.
        let count = 2_000
        var burst: [UInt8] = []
        for i in 0..<count { burst += Array("GET /big-raw?n=\(i) HTTP/1.1\r\nHost: x\r\n\r\n".utf8) }
        try c.send(burst)  // the kernel's buffers take all of it; the server must not parse it all
        var previous = -1
        for _ in 0..<20 {  // until the server stops answering (bounded: 2 s)
            usleep(100_000)
            let now = handler.handled.load(ordering: .relaxed)
            if now == previous { break }
            previous = now
        }
        let made = handler.handled.load(ordering: .relaxed)
        // 64 KiB of queued answers is 8; the sockets' buffers take some more.
        #expect(made < count / 2, "answers made while the client read nothing: \(made) of \(count)")
        // Reading drains it: every answer arrives, in order.
        var answered = 0
        while answered < count, let r = c.read() {
            #expect(r.status == 200 && r.body.count == 8192)
            answered += 1
        }
        #expect(answered == count)
        #expect(handler.handled.load(ordering: .relaxed) == count)
    }
}
