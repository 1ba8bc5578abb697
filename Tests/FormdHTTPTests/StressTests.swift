import Foundation
import FormdTestSupport
import Testing
@testable import FormdHTTP

/// Many client threads, many requests, both handler modes: every response must match its
/// request (order on each connection). Run under TSan: `swift test --sanitize=thread`.
@Suite(.serialized) struct StressTests {
    @Test(arguments: [HTTPServerConfiguration.HandlerMode.inline, .pool(width: 3)])
    func manyThreadsManyRequests(_ mode: HTTPServerConfiguration.HandlerMode) throws {
        let (s, port) = try makeServer { $0.handlerMode = mode }
        let threads = 16, perThread = 150
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            guard let c = try? HTTPTestClient(port: port) else { failures.add(); return }
            var i = 0
            while i < perThread {
                // alternate single requests and pipelined bursts of 3, some with bodies
                let burst = i % 4 == 0 ? 3 : 1
                var wire = ""
                for k in 0..<burst {
                    let body = String(repeating: "b", count: (t + i + k) % 7)
                    wire += "POST /t\(t)/\(i + k) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                }
                do { try c.send(wire) } catch { failures.add(); return }
                for k in 0..<burst {
                    let expect = "{\"path\":\"/t\(t)/\(i + k)\",\"query\":\"\",\"len\":\((t + i + k) % 7)}"
                    guard let r = c.read(), r.text == expect else { failures.add(); return }
                }
                i += burst
            }
            // and one connection per thread that closes
            if let d = try? HTTPTestClient(port: port) {
                if (try? d.send("GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) == nil { failures.add() }
                if d.read()?.status != 200 || !d.isClosedByServer() { failures.add() }
            }
        }
        #expect(failures.value == 0)
        stop(s)
        #expect(s.openConnections == 0)
    }

    /// Connections opened in a burst are spread over the loops (one accept wake-up can take a
    /// whole burst; before the hand-off, 64 benchmark connections could all land on one loop).
    @Test func burstOfConnectionsIsSpreadOverLoops() throws {
        let (s, port) = try makeServer { $0.ioThreads = 4 }
        var clients: [HTTPTestClient] = []
        for i in 0..<41 {
            let c = try HTTPTestClient(port: port)
            try c.send("GET /n\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
            clients.append(c)
        }
        for (i, c) in clients.enumerated() {
            #expect(c.read()?.text == "{\"path\":\"/n\(i)\",\"query\":\"\",\"len\":0}")
        }
        let perLoop = s.openConnectionsPerLoop
        #expect(perLoop.count == 4)
        #expect(perLoop.reduce(0, +) == 41)
        #expect(perLoop.max()! - perLoop.min()! <= 1, "connections per loop: \(perLoop)")
        clients.removeAll()  // closes them
        #expect(eventually { s.openConnectionsPerLoop == [0, 0, 0, 0] ? true : nil } != nil)
        stop(s)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
