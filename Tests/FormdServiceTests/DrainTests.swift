import Foundation
import FormdTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM: stop accepting, finish the requests in flight, `/readyz` 503 meanwhile, exit 0.
@Suite("formd serve drain", .timeLimit(.minutes(3)))
struct DrainTests {
    /// Sends a request head with `Expect: 100-continue` and waits for the interim `100 Continue`,
    /// which proves the server has parsed the head (the connection is busy, not idle), then sends
    /// the first half of the body.
    func startUpload(_ server: FormdServerProcess, method: String = "POST", path: String, body: [UInt8]) throws
        -> HTTPTestClient
    {
        let c = try server.connect()
        try c.send(
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n")
        let interim = try c.readResponse()
        #expect(interim.status == 100)
        try c.send(Array(body[..<(body.count / 2)]))
        return c
    }

    @Test func requestsInFlightFinishAndReadinessDrops() throws {
        let served = try ServedForms(environment: ["FORMD_TIMEOUTS_SHUTDOWN_SECONDS": "5"])
        let server = served.server
        #expect(try server.request("GET", "/readyz").status == 200)

        let valid = Array(#"{"first_name": "Ola Nordmann", "email": "ola@example.com"}"#.utf8)
        let invalid = Array(#"{"first_name": "O", "email": "o@example.com"}"#.utf8)
        let a = try startUpload(server, path: "/forms/contact/validate", body: valid)
        let b = try startUpload(server, path: "/forms/contact/validate", body: invalid)
        let values = Array(#"{"values": {"first_name": "Kari"}}"#.utf8)
        let e = try startUpload(server, path: "/forms/contact/evaluate", body: values)
        // A GET with a body: answered only when the body is complete, i.e. after the drain began.
        let ready = try startUpload(server, method: "GET", path: "/readyz", body: Array("{}  ".utf8))
        // An idle keep-alive connection: closed by the drain.
        let idle = try server.connect()
        #expect(try idle.exchange("GET", "/healthz").status == 200)

        let draining = server.beginDrain(SIGTERM)
        #expect(draining == true, "no 'draining' log line: \(server.child.stderr.text)")
        #expect(server.child.waitForExit(timeout: 0.01) == nil, "must wait for the requests in flight")

        try a.send(Array(valid[(valid.count / 2)...]))
        let ra = try a.readResponse()
        #expect(ra.status == 200, "\(ra)")
        #expect(ra.object["valid"] as? Bool == true)
        #expect(ra.header("Connection")?.lowercased() == "close", "responses while draining close the connection")

        try b.send(Array(invalid[(invalid.count / 2)...]))
        let rb = try b.readResponse()
        #expect(rb.status == 422, "\(rb)")
        #expect(Int(rb.header("Content-Length") ?? "") == rb.body.count)
        #expect(rb.json != nil, "complete JSON body")

        try e.send(Array(values[(values.count / 2)...]))
        let re = try e.readResponse()
        #expect(re.status == 200, "\(re)")
        #expect((re.object["values"] as? [String: Any])?["first_name"] as? String == "Kari")

        // ra arrived with Connection: close, so the drain had begun; readiness is off by then.
        try ready.send(Array("  ".utf8))
        let rr = try ready.readResponse()
        #expect(rr.status == 503, "\(rr)")
        #expect(rr.object["type"] as? String == "/problems/not-ready")

        #expect(idle.isClosedByServer(), "idle keep-alive connections are closed by the drain")
        #expect(a.isClosedByServer())

        let status = server.child.waitForExit(timeout: 20)
        #expect(status == 0)
        #expect(server.child.stderr.text.contains("stopped"))
    }

    /// issue 32: behind a balancer that health-checks `/readyz`, SIGTERM must not close a
    /// kept-alive connection the balancer may be about to use. Readiness drops at once; the
    /// server keeps accepting and answering, on old and new connections, for
    /// `server.drain_delay_seconds`; only then does it stop listening and close idle connections.
    @Test func drainDelayKeepsServingWhileNotReady() throws {
        let served = try ServedForms(environment: ["FORMD_SERVER_DRAIN_DELAY_SECONDS": "3", "FORMD_TIMEOUTS_SHUTDOWN_SECONDS": "5"])
        let server = served.server
        let kept = try server.connect()
        #expect(try kept.exchange("GET", "/readyz").status == 200)
        let start = Date()
        server.child.signal(SIGTERM)
        let notReady = server.child.stderr.wait(until: Date() + 20) { $0.contains("serving on before the drain") ? true : nil }
        #expect(notReady == true, "\(server.child.stderr.text)")

        // The kept-alive connection: readiness fails on it, and it goes on serving (not closed).
        let r1 = try kept.exchange("GET", "/readyz")
        #expect(r1.status == 503, "\(r1)")
        #expect(r1.header("Connection")?.lowercased() != "close")
        let body = Array(#"{"first_name": "Ola Nordmann", "email": "ola@example.com"}"#.utf8)
        let r2 = try kept.exchange("POST", "/forms/contact/validate", headers: [("Content-Type", "application/json")], body: body)
        #expect(r2.status == 200, "\(r2)")
        // New connections are still accepted and answered.
        let fresh = try server.request("POST", "/forms/contact/validate", headers: [("Content-Type", "application/json")], body: body)
        #expect(fresh.status == 200, "\(fresh)")
        #expect(try server.request("GET", "/healthz").status == 200, "liveness stays up")
        #expect(server.child.waitForExit(timeout: 0.5) == nil, "still serving within the delay")
        #expect(try kept.exchange("GET", "/healthz").status == 200, "the kept-alive connection still serves")

        // After the delay: the drain closes the idle connection and the process exits 0.
        let status = server.child.waitForExit(timeout: 20)
        #expect(status == 0)
        #expect(Date().timeIntervalSince(start) >= 2.9, "exited before server.drain_delay_seconds")
        #expect(kept.isClosedByServer())
    }

    /// A second SIGTERM (or SIGINT) ends the delay at once.
    @Test func secondSignalSkipsTheDelay() throws {
        let served = try ServedForms(environment: ["FORMD_SERVER_DRAIN_DELAY_SECONDS": "600"])
        let server = served.server
        server.child.signal(SIGTERM)
        let notReady = server.child.stderr.wait(until: Date() + 20) { $0.contains("serving on before the drain") ? true : nil }
        #expect(notReady == true)
        #expect(try server.request("GET", "/readyz").status == 503)
        server.child.signal(SIGTERM)
        #expect(server.child.waitForExit(timeout: 20) == 0)
    }

    @Test func drainTimeoutStillExitsZero() throws {
        let served = try ServedForms(environment: ["FORMD_TIMEOUTS_SHUTDOWN_SECONDS": "1"])
        let server = served.server
        let stuck = try startUpload(server, path: "/forms/contact/validate", body: Array(#"{"first_name": "Ola"}"#.utf8))
        let start = Date()
        server.beginDrain(SIGTERM)
        let status = server.child.waitForExit(timeout: 20)
        #expect(status == 0)
        #expect(Date().timeIntervalSince(start) < 15, "exits at the shutdown deadline")
        _ = stuck
    }

    @Test func sigintDrainsToo() throws {
        let served = try ServedForms()
        let server = served.server
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(server.stop(SIGINT) == 0)
    }
}

/// API.md: when `formd serve` prints `formd listening on ...` it accepts connections, and SIGTERM
/// drains and exits 0. A Dispatch signal source registers with the kernel asynchronously (on the
/// manager thread) after `resume()`; until it has, the signal is `SIG_IGN` and a SIGTERM sent as
/// soon as the line shows is discarded. Servers started in parallel (the cores contended) and many
/// rounds make that window likely to be hit.
@Suite("formd serve signal race", .timeLimit(.minutes(3)))
struct SignalRaceTests {
    static let batches = 10
    static let parallel = 4

    @Test func sigtermRightAfterTheListeningLine() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        final class Outcomes: @unchecked Sendable {
            let lock = NSLock()
            var statuses: [Int32?] = []
            var harness: [String] = []
        }
        let outcomes = Outcomes()
        for _ in 0..<Self.batches {
            DispatchQueue.concurrentPerform(iterations: Self.parallel) { _ in
                do {
                    let server = try FormdServerProcess(forms: forms, directory: folder.url)
                    server.child.signal(SIGTERM)
                    // An idle server drains in milliseconds; a lost signal leaves it running.
                    let status = server.child.waitForExit(timeout: 5)
                    if status == nil {
                        server.child.signal(SIGKILL)
                        _ = server.child.waitForExit(timeout: 10)
                    }
                    outcomes.lock.withLock { outcomes.statuses.append(status) }
                } catch {
                    outcomes.lock.withLock { outcomes.harness.append("\(error)") }
                }
            }
        }
        let statuses = outcomes.statuses
        #expect(outcomes.harness.isEmpty, "\(outcomes.harness)")
        let lost = statuses.filter { $0 != 0 }
        #expect(
            lost.isEmpty,
            "\(lost.count) of \(statuses.count) servers did not drain (nil: the SIGTERM was lost; 15: killed by it): \(lost)")
    }
}
