import FormdHTTP
import FormdTestSupport
import Foundation
import Testing

/// Remote validators end to end (API.md §9): the real `formd` binary, real upstreams on
/// loopback, the answers clients see.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct RemoteValidationTests {
    static let form = """
        [{"id": "g", "title": "Sign up", "sections": [{"id": "s", "fields": [
          {"id": "username", "title": "Username", "type": "text",
           "validations": {"required": true, "min_length": 3, "remote": "username", "messages": {"banned": {"en": "{label} is not allowed.", "nb": "{label} er ikke tillatt."}}}},
          {"id": "coupon", "title": "Coupon", "type": "text", "validations": {"remote": "coupon"}},
          {"id": "email", "title": "Email", "type": "text"}
        ]}]}]
        """

    static let kinds: [String] = {
        #if os(Linux)
        ["epoll", "dispatch"]
        #else
        ["dispatch"]
        #endif
    }()

    struct Setup {
        let folder: TempFolder
        let up: TestUpstream
        let server: FormdServerProcess
    }

    func start(eventQueue: String? = nil, extraForms: [String: String] = [:]) throws -> Setup {
        let up = try TestUpstream { body in
            switch body["value"] as? String {
            case "taken": .json(#"{"valid":false,"code":"taken","message":"That username is taken.","params":{"suggestion":"ola2"}}"#)
            case "banned": .json(#"{"valid":false,"code":"banned","message":"upstream text"}"#)
            case "hang": .hang
            case "slow": .delay(ms: 2000, .json(#"{"valid":true}"#))
            case "boom": .json(status: 500, "{}")
            default: .json(#"{"valid":true}"#)
            }
        }
        let folder = try TempFolder()
        try folder.write("Forms/user.json", Self.form)
        for (name, text) in extraForms { try folder.write("Forms/\(name).json", text) }
        let config = try folder.write("formd.json", """
            {"validators": {"remote": {
              "username": {"url": "\(up.url)", "timeout_ms": 300, "retry_after_s": 2},
              "coupon": {"url": "\(up.url)", "timeout_ms": 300, "on_error": "fail_open"}
            }}}
            """)
        var env: [String: String] = [:]
        if let eventQueue { env["FORMD_SERVER_EVENT_QUEUE"] = eventQueue }
        let server = try FormdServerProcess(
            forms: folder.url.appendingPathComponent("Forms"), extraArguments: ["--port", "0", "--config", config.path],
            environment: env, directory: folder.url)
        return Setup(folder: folder, up: up, server: server)
    }

    func validate(_ s: Setup, _ json: String, headers: [(String, String)] = []) throws -> (TestResponse, Double) {
        let start = Date()
        let r = try s.server.request("POST", "/forms/user/validate", headers: headers, json: json)
        return (r, Date().timeIntervalSince(start) * 1000)
    }

    @Test func verdictsBecomeAnswers() throws {
        let s = try start()
        defer { s.up.stop() }
        let (ok, _) = try validate(s, #"{"username": "ola", "email": "x"}"#)
        #expect(ok.status == 200, "\(ok)")
        #expect(ok.object["valid"] as? Bool == true)
        let (taken, _) = try validate(s, #"{"username": "taken"}"#)
        #expect(taken.status == 422)
        let err = try #require((taken.object["errors"] as? [[String: Any]])?.first)
        #expect(err["field"] as? String == "username")
        #expect(err["code"] as? String == "taken")
        #expect(err["message"] as? String == "That username is taken.")
        #expect((err["params"] as? [String: Any])?["suggestion"] as? String == "ola2")
        // The definition's message for the validator's code wins, per language.
        let (banned, _) = try validate(s, #"{"username": "banned"}"#, headers: [("Accept-Language", "nb")])
        let bannedError = try #require((banned.object["errors"] as? [[String: Any]])?.first)
        #expect(bannedError["code"] as? String == "banned")
        #expect(bannedError["message"] as? String == "Username er ikke tillatt.")
        // Local checks first: a value that fails them is never sent.
        let before = s.up.requests
        let (short, _) = try validate(s, #"{"username": "ab"}"#)
        #expect(short.status == 422)
        #expect((short.object["errors"] as? [[String: Any]])?.first?["code"] as? String == "min_length")
        #expect(s.up.requests == before)
        // Not an oracle: keys without a remote rule are never sent anywhere.
        _ = try validate(s, #"{"username": "ola", "email": "probe", "anything": "else"}"#)
        #expect(s.up.bodies.allSatisfy { ["username", "coupon"].contains($0["field"] as? String ?? "") })
        #expect(s.up.bodies.allSatisfy { $0["fields"] == nil })
    }

    @Test(arguments: kinds) func failClosedIs503WithinTheTimeoutAndHealthStaysFast(_ queue: String) throws {
        let s = try start(eventQueue: queue)
        defer { s.up.stop() }
        // A stalled upstream: health answers at once meanwhile, on other connections.
        let pending = DispatchSemaphore(value: 0)
        let result = ResponseBox()
        DispatchQueue.global().async {
            result.set(try? validate(s, #"{"username": "hang"}"#))
            pending.signal()
        }
        usleep(50_000)
        for _ in 0..<20 {
            let t = Date()
            let h = try s.server.request("GET", "/healthz")
            #expect(h.status == 200)
            #expect(Date().timeIntervalSince(t) < 0.1)
        }
        #expect(pending.wait(timeout: .now() + 5) == .success)
        let (r, ms) = try #require(result.get())
        #expect(r.status == 503, "\(r)")
        #expect(r.header("Content-Type") == "application/problem+json")
        #expect(r.header("Retry-After") == "2")
        #expect(r.object["type"] as? String == "/problems/remote-unavailable")
        #expect(ms < 300 + 200, "\(ms) ms with a 300 ms timeout")
        // A non-2xx and a slow answer are no verdicts either.
        #expect(try validate(s, #"{"username": "boom"}"#).0.status == 503)
        let (slow, slowMs) = try validate(s, #"{"username": "slow"}"#)
        #expect(slow.status == 503)
        #expect(slowMs < 300 + 200)
        let metrics = try s.server.request("GET", "/metrics").text
        #expect(metrics.contains(#"formd_remote_failures_total{validator="username",kind="timeout"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"formd_remote_failures_total{validator="username",kind="status"} 1"#))
    }

    @Test func failOpenWarns() throws {
        let s = try start()
        defer { s.up.stop() }
        let (r, ms) = try validate(s, #"{"username": "ola", "coupon": "hang"}"#)
        #expect(r.status == 200, "\(r)")
        #expect(r.object["valid"] as? Bool == true)
        let warning = try #require((r.object["warnings"] as? [[String: Any]])?.first)
        #expect(warning["field"] as? String == "coupon")
        #expect(warning["code"] as? String == "remote_unchecked")
        #expect(ms < 300 + 200, "both fields asked concurrently: \(ms) ms")
    }

    @Test func evaluateAsksOnlyForChangedFields() throws {
        let s = try start()
        defer { s.up.stop() }
        let before = s.up.requests
        let quiet = try s.server.request("POST", "/forms/user/evaluate", json: #"{"values": {"username": "taken"}, "changed": ["email"]}"#)
        #expect(quiet.status == 200)
        #expect(s.up.requests == before)
        #expect((quiet.object["errors"] as? [[String: Any]])?.isEmpty == true)
        let asked = try s.server.request("POST", "/forms/user/evaluate", json: #"{"values": {"username": "taken"}, "changed": ["username"]}"#)
        #expect(asked.status == 200)
        #expect(s.up.requests == before + 1)
        #expect((asked.object["errors"] as? [[String: Any]])?.first?["code"] as? String == "taken")
    }

    @Test func undeclaredValidatorIsNotServedAndCheckNamesIt() throws {
        let bad = #"[{"id": "g", "sections": [{"id": "s", "fields": [{"id": "a", "type": "text", "validations": {"remote": "nope"}}]}]}]"#
        let s = try start(extraForms: ["bad": bad])
        defer { s.up.stop() }
        #expect(try s.server.request("GET", "/forms/bad").status == 404)
        #expect(try s.server.request("GET", "/forms/user").status == 200)
        let logged = s.server.child.stderr.wait(until: Date() + 5) { $0.contains(#"remote validator "nope" is not declared"#) ? true : nil }
        #expect(logged == true, "\(s.server.child.stderr.text)")

        let checked = try FormdProcess.run(["check", "--config", "formd.json", "Forms"], directory: s.folder.url)
        #expect(checked.status == 1)
        #expect(checked.stdout.contains(#"Forms/bad.json:1:104: error: [0].sections[0].fields[0].validations.remote: remote validator "nope" is not declared"#), "\(checked.stdout)")
        let unchecked = try FormdProcess.run(["check", "Forms"], directory: s.folder.url)
        #expect(unchecked.status == 0)
        #expect(unchecked.stderr.contains("3 remote rules not checked against validators.remote"), "\(unchecked.stderr)")
    }
}

final class ResponseBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (TestResponse, Double)?
    func set(_ v: (TestResponse, Double)?) { lock.withLock { value = v } }
    func get() -> (TestResponse, Double)? { lock.withLock { value } }
}

/// An HTTPS upstream with a test CA, through the binary: trusted with `ca_file`, refused (503,
/// kind tls) without it or for a certificate of another host.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RemoteValidationTLSTests {
    @Test func caFileAndHostNameAreChecked() throws {
        let pki = try TestPKI()
        let good = try pki.issue("upstream")
        let other = try pki.issue("other", subjectAltName: "DNS:elsewhere.example")
        let handler = HTTPClosureHandler { _ in .json(#"{"valid":false,"code":"taken"}"#) }
        var c1 = HTTPServerConfiguration()
        c1.port = 0
        c1.tls = TLSConfiguration(certificateChainPath: good.cert, privateKeyPath: good.key)
        let s1 = HTTPServer(configuration: c1, handler: handler)
        let p1 = try s1.start()
        defer { s1.shutdown {} }
        var c2 = c1
        c2.tls = TLSConfiguration(certificateChainPath: other.cert, privateKeyPath: other.key)
        let s2 = HTTPServer(configuration: c2, handler: handler)
        let p2 = try s2.start()
        defer { s2.shutdown {} }

        let folder = try TempFolder()
        try folder.write("Forms/f.json", """
            [{"sections": [{"id": "s", "fields": [
              {"id": "a", "type": "text", "validations": {"remote": "trusted"}},
              {"id": "b", "type": "text", "validations": {"remote": "system"}},
              {"id": "c", "type": "text", "validations": {"remote": "wronghost"}}]}]}]
            """)
        let config = try folder.write("formd.json", """
            {"validators": {"remote": {
              "trusted": {"url": "https://localhost:\(p1)/check", "ca_file": "\(pki.caCert)", "timeout_ms": 2000},
              "system": {"url": "https://localhost:\(p1)/check", "timeout_ms": 2000},
              "wronghost": {"url": "https://localhost:\(p2)/check", "ca_file": "\(pki.caCert)", "timeout_ms": 2000}
            }}}
            """)
        let server = try FormdServerProcess(
            forms: folder.url.appendingPathComponent("Forms"), extraArguments: ["--port", "0", "--config", config.path],
            directory: folder.url)
        let trusted = try server.request("POST", "/forms/f/validate", json: #"{"a": "x"}"#)
        #expect(trusted.status == 422, "\(trusted)")
        #expect((trusted.object["errors"] as? [[String: Any]])?.first?["code"] as? String == "taken")
        for field in ["b", "c"] {
            let refused = try server.request("POST", "/forms/f/validate", json: #"{"\#(field)": "x"}"#)
            #expect(refused.status == 503, "\(field): \(refused)")
        }
        let metrics = try server.request("GET", "/metrics").text
        #expect(metrics.contains(#"formd_remote_failures_total{validator="system",kind="tls"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"formd_remote_failures_total{validator="wronghost",kind="tls"} 1"#))
    }
}
