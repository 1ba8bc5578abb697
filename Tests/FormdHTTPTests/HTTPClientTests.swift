import Foundation
import FormdTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP

/// formd's own HTTP client (remote validators) against real upstreams on loopback, on both
/// event queues: answers, keep-alive reuse, and every way an upstream can fail, each within the
/// call's deadline.
@Suite(.serialized) struct HTTPClientTests {
    static let kinds = EventQueueTests.kinds

    /// Sends one call and waits for its completion; the result and how long it took (ms).
    func call(_ client: HTTPClient, _ url: String, timeoutMs: Int = 1000, caFile: String? = nil, body: String = #"{"value":"x"}"#)
        -> (Result<HTTPClientResponse, HTTPClientError>, Int)
    {
        let box = ResultBox()
        let start = DispatchTime.now()
        client.send(HTTPClientRequest(url: UpstreamURL(url)!, body: Array(body.utf8), timeoutMs: timeoutMs), caFile: caFile) { r in
            box.set(r)
        }
        let r = box.wait(seconds: 10)
        let ms = Int((DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000)
        return (r ?? .failure(.stopped), ms)
    }

    final class ResultBox: @unchecked Sendable {
        private let sem = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var result: Result<HTTPClientResponse, HTTPClientError>?
        private var count = 0
        func set(_ r: Result<HTTPClientResponse, HTTPClientError>) {
            lock.withLock {
                count += 1
                result = r
            }
            sem.signal()
        }
        func wait(seconds: Double) -> Result<HTTPClientResponse, HTTPClientError>? {
            guard sem.wait(timeout: .now() + seconds) == .success else { return nil }
            return lock.withLock { result }
        }
        var completions: Int { lock.withLock { count } }
    }

    func error(_ r: Result<HTTPClientResponse, HTTPClientError>) -> HTTPClientError? {
        if case .failure(let e) = r { return e }
        return nil
    }

    @Test(arguments: kinds) func answersAndReusesConnections(_ kind: EventQueueKind) throws {
        let up = try TestUpstream { body in .json(#"{"valid":true,"echo":"\#(body["value"] as? String ?? "")"}"#) }
        defer { up.stop() }
        let client = try HTTPClient(eventQueue: kind)
        defer { client.shutdown() }
        for i in 0..<5 {
            let (r, _) = call(client, up.url, body: #"{"value":"v\#(i)"}"#)
            let response = try r.get()
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"valid":true,"echo":"v\#(i)"}"#)
        }
        #expect(up.requests == 5)
        #expect(up.connections == 1, "keep-alive: one connection for five sequential calls")
        #expect(up.requestHeaders.first?["host"] == "127.0.0.1:\(up.port)")
        #expect(up.requestHeaders.first?["content-type"] == nil || true)
    }

    @Test(arguments: kinds) func chunkedAndServerErrors(_ kind: EventQueueKind) throws {
        let up = try TestUpstream { body in
            (body["value"] as? String) == "chunked" ? .chunked(#"{"valid":false,"code":"taken"}"#) : .json(status: 500, #"{"oops":1}"#)
        }
        defer { up.stop() }
        let client = try HTTPClient(eventQueue: kind)
        defer { client.shutdown() }
        let (chunked, _) = call(client, up.url, body: #"{"value":"chunked"}"#)
        #expect(String(decoding: try chunked.get().body, as: UTF8.self) == #"{"valid":false,"code":"taken"}"#)
        let (failed, _) = call(client, up.url, body: #"{"value":"500"}"#)
        #expect(try failed.get().status == 500)
    }

    @Test(arguments: kinds) func failuresAreBoundedByTheDeadline(_ kind: EventQueueKind) throws {
        let eight = 8 << 20
        let up = try TestUpstream { body in
            switch body["value"] as? String {
            case "slow": .delay(ms: 2000, .json(#"{"valid":true}"#))
            case "hang": .hang
            case "drip": .drip(Array("HTTP/1.1 200 OK\r\nContent-Length: 14\r\n\r\n{\"valid\":true}".utf8), intervalMs: 200)
            case "garbage": .raw(Array("this is not HTTP\r\n\r\n".utf8))
            case "huge": .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: \(eight)\r\n\r\n".utf8) + [UInt8](repeating: 0x20, count: eight))
            case "huge-unframed": .raw(Array("HTTP/1.1 200 OK\r\n\r\n".utf8) + [UInt8](repeating: 0x20, count: eight))
            case "close": .close
            default: .json(#"{"valid":true}"#)
            }
        }
        defer { up.stop() }
        let client = try HTTPClient(eventQueue: kind)
        defer { client.shutdown() }
        for (value, expected) in [("slow", HTTPClientError.timeout), ("hang", .timeout), ("drip", .timeout)] {
            let (r, ms) = call(client, up.url, timeoutMs: 300, body: #"{"value":"\#(value)"}"#)
            #expect(error(r) == expected, "\(value)")
            #expect(ms >= 295 && ms < 300 + 150, "\(value): answered after \(ms) ms (timeout 300)")
        }
        let (garbage, _) = call(client, up.url, body: #"{"value":"garbage"}"#)
        #expect(error(garbage)?.kind == "malformed")
        let (huge, hugeMs) = call(client, up.url, timeoutMs: 2000, body: #"{"value":"huge"}"#)
        #expect(error(huge) == .oversized)
        #expect(hugeMs < 1000, "refused on the Content-Length, not after reading 8 MiB")
        let (unframed, _) = call(client, up.url, timeoutMs: 2000, body: #"{"value":"huge-unframed"}"#)
        #expect(error(unframed) == .oversized)
        let (closed, _) = call(client, up.url, body: #"{"value":"close"}"#)
        #expect(error(closed) == .closed)
        // And a good call after all that.
        let (ok, _) = call(client, up.url)
        #expect(try ok.get().status == 200)
    }

    @Test(arguments: kinds) func refusedConnection(_ kind: EventQueueKind) throws {
        let up = try TestUpstream { _ in .close }
        let url = up.url
        up.stop()
        let client = try HTTPClient(eventQueue: kind)
        defer { client.shutdown() }
        let (r, ms) = call(client, url, timeoutMs: 1000)
        #expect(error(r)?.kind == "connect")
        #expect(ms < 500)
    }

    @Test(arguments: kinds) func tlsVerifiesChainAndHost(_ kind: EventQueueKind) throws {
        let pki = try TestPKI()
        let good = try pki.issue("upstream")
        let wrong = try pki.issue("wrong", subjectAltName: "DNS:elsewhere.example")
        let handler = HTTPClosureHandler { _ in .json(#"{"valid":true}"#) }
        let (s1, p1) = try makeServer(handler: handler) { $0.tls = TLSConfiguration(certificateChainPath: good.cert, privateKeyPath: good.key) }
        defer { stop(s1) }
        let (s2, p2) = try makeServer(handler: handler) { $0.tls = TLSConfiguration(certificateChainPath: wrong.cert, privateKeyPath: wrong.key) }
        defer { stop(s2) }
        let client = try HTTPClient(eventQueue: kind)
        defer { client.shutdown() }
        for host in ["localhost", "127.0.0.1"] {
            let (ok, _) = call(client, "https://\(host):\(p1)/check", caFile: pki.caCert)
            #expect(try ok.get().status == 200, "\(host)")
        }
        // Reused: a second call on the kept TLS connection.
        let (again, _) = call(client, "https://localhost:\(p1)/check", caFile: pki.caCert)
        #expect(try again.get().status == 200)
        // The system store does not know the test CA.
        let (untrusted, _) = call(client, "https://localhost:\(p1)/check")
        #expect(error(untrusted)?.kind == "tls")
        // Trusted chain, but for another name.
        let (wrongHost, _) = call(client, "https://localhost:\(p2)/check", caFile: pki.caCert)
        #expect(error(wrongHost)?.kind == "tls")
        if case .tls(let why)? = error(wrongHost) { #expect(why.contains("hostname") || why.contains("host")) }
        // Plain HTTP spoken to a TLS port is not an answer either.
        let (plain, _) = call(client, "http://127.0.0.1:\(p1)/check", timeoutMs: 500)
        #expect((try? plain.get().status) == 400)
    }

    @Test func urls() {
        #expect(UpstreamURL("http://a.example/x?y=1")?.path == "/x?y=1")
        #expect(UpstreamURL("https://a.example")?.port == 443)
        #expect(UpstreamURL("http://[::1]:8080/v")?.host == "::1")
        #expect(UpstreamURL("http://[::1]:8080/v")?.hostHeader == "[::1]:8080")
        #expect(UpstreamURL("ftp://a.example") == nil)
        #expect(UpstreamURL("http://user@a.example/") == nil)
        #expect(UpstreamURL("http://a.example:99999/") == nil)
        #expect(UpstreamURL("http:///x") == nil)
    }
}

/// Deferred responses: the loop answers other requests and connections meanwhile, and a
/// pipelined request behind a deferred one is answered after it, in order.
@Suite(.serialized) struct DeferredResponseTests {
    struct Handler: HTTPHandler {
        func handle(_ r: HTTPRequest) -> HTTPResponse {
            if r.path == "/later" {
                return .deferred { complete in
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { complete(.json(#"{"later":true}"#)) }
                }
            }
            return .json(#"{"now":"\#(r.path)"}"#)
        }
        func runsOnIOLoop(_ r: HTTPRequest) -> Bool { r.path != "/pool" }
    }

    @Test(arguments: EventQueueTests.kinds, [true, false]) func inOrderAndNotBlocking(_ kind: EventQueueKind, _ inline: Bool) throws {
        let (server, port) = try makeServer(handler: Handler()) { c in
            c.eventQueue = kind
            c.ioThreads = 1
            c.handlerMode = inline ? .inline : .pool(width: 1)
        }
        defer { stop(server) }
        let a = try HTTPTestClient(port: port, timeout: 5)
        // A deferred request, then one pipelined behind it on the same connection.
        try a.send(HTTPTestClient.encode("GET", "/later") + HTTPTestClient.encode("GET", "/after"))
        // Meanwhile another connection is answered at once (one I/O loop: it is not blocked).
        let b = try HTTPTestClient(port: port, timeout: 5)
        let start = Date()
        let quick = try b.exchange("GET", "/quick")
        #expect(quick.text == #"{"now":"/quick"}"#)
        #expect(Date().timeIntervalSince(start) < 0.25)
        let first = try a.readResponse()
        let second = try a.readResponse()
        #expect(first.text == #"{"later":true}"#)
        #expect(second.text == #"{"now":"/after"}"#)
    }
}
