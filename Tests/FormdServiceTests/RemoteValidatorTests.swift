import FormdCore
import FormdHTTP
import FormdTestSupport
import Foundation
import Prometheus
import Testing
@testable import FormdService

/// Remote validators in process (API.md §9): cache, breaker, concurrency cap, policies and the
/// request the upstream sees, against real upstreams on loopback, on both event queues.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RemoteValidatorTests {
    static let kinds: [EventQueueKind] = {
        #if os(Linux)
        [.epoll, .dispatch]
        #else
        [.dispatch]
        #endif
    }()

    func make(_ json: String, _ kind: EventQueueKind, environment: [String: String] = [:]) throws -> (RemoteValidators, PrometheusCollectorRegistry) {
        let settings = try RemoteValidatorSettings.parse(json, environment: environment)
        let registry = PrometheusCollectorRegistry()
        return (try RemoteValidators(settings, eventQueue: kind, registry: registry), registry)
    }

    /// Asks and waits (bounded).
    func ask(_ r: RemoteValidators, _ questions: [RemoteQuestion], values: FormValues = FormValues()) -> (RemoteValidators.Result?, Int) {
        let sem = DispatchSemaphore(value: 0)
        let box = Box()
        let start = DispatchTime.now()
        r.ask(questions, form: "f", version: "\"v1\"", values: values) { result in
            box.value = result
            sem.signal()
        }
        _ = sem.wait(timeout: .now() + 10)
        return (box.value, Int((DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000))
    }

    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var _value: RemoteValidators.Result?
        var value: RemoteValidators.Result? {
            get { lock.withLock { _value } }
            set { lock.withLock { _value = newValue } }
        }
    }

    func q(_ field: String = "username", _ value: String = "\"ola\"", validator: String = "v") -> RemoteQuestion {
        RemoteQuestion(field: field, validator: validator, value: value)
    }

    func verdicts(_ r: RemoteValidators.Result?) -> RemoteVerdicts? {
        if case .verdicts(let v)? = r { return v }
        return nil
    }

    func unavailableKind(_ r: RemoteValidators.Result?) -> String? {
        if case .unavailable(_, _, let kind, _)? = r { return kind }
        return nil
    }

    func metric(_ registry: PrometheusCollectorRegistry, _ prefix: String) -> Double? {
        let text = String(decoding: { var b: [UInt8] = []; registry.emit(into: &b); return b }(), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(prefix + " ") {
            return Double(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    @Test(arguments: kinds) func requestVerdictsAndCache(_ kind: EventQueueKind) throws {
        let up = try TestUpstream { body in
            (body["value"] as? String) == "taken"
                ? .json(#"{"valid":false,"code":"taken","message":"Taken.","params":{"suggestion":"ola2"}}"#)
                : .json(#"{"valid":true}"#)
        }
        defer { up.stop() }
        let (r, registry) = try make(
            #"{"v": {"url": "\#(up.url)", "cache_ttl_s": 60, "send_fields": ["country"], "headers": {"Authorization": "env:TEST_TOKEN", "X-Team": "forms"}}}"#,
            kind, environment: ["TEST_TOKEN": "Bearer s3cret"])
        defer { r.shutdown() }
        var values = FormValues()
        values["username"] = .string("ola")
        values["country"] = .string("NO")
        values["password"] = .string("hunter2")
        let (first, _) = ask(r, [q(), q("other", "\"taken\"")], values: values)
        let v = try #require(verdicts(first))
        #expect(v["username"] == .valid)
        #expect(v["other"] == .invalid(RemoteRejection(code: "taken", message: "Taken.", params: #"{"suggestion":"ola2"}"#)))
        #expect(up.requests == 2)
        // What the upstream saw: the contract's keys, the declared field, nothing else.
        let body = try #require(up.bodies.first { ($0["field"] as? String) == "username" })
        #expect(Set(body.keys) == ["validator", "form", "version", "field", "value", "fields"])
        #expect(body["validator"] as? String == "v")
        #expect(body["form"] as? String == "f")
        #expect(body["version"] as? String == "\"v1\"")
        #expect(body["value"] as? String == "ola")
        #expect((body["fields"] as? [String: Any])?.keys.sorted() == ["country"])
        #expect(up.requestHeaders.first?["authorization"] == "Bearer s3cret")
        #expect(up.requestHeaders.first?["x-team"] == "forms")
        #expect(up.requestHeaders.first?["content-type"] == "application/json")
        // Identical questions within the TTL: from the cache.
        let (again, _) = ask(r, [q()], values: values)
        #expect(verdicts(again)?["username"] == .valid)
        #expect(up.requests == 2)
        #expect(metric(registry, #"formd_remote_cache_hits_total{validator="v"}"#) == 1)
        #expect(metric(registry, #"formd_remote_calls_total{validator="v"}"#) == 2)
        // Another value of a field it sends along is another question.
        values["country"] = .string("SE")
        _ = ask(r, [q()], values: values)
        #expect(up.requests == 3)
    }

    @Test(arguments: kinds) func breakerOpensAndHalfOpens(_ kind: EventQueueKind) throws {
        let healthy = Flag()
        let up = try TestUpstream { _ in healthy.value ? .json(#"{"valid":true}"#) : .json(status: 500, "{}") }
        defer { up.stop() }
        let (r, registry) = try make(#"{"v": {"url": "\#(up.url)", "breaker": {"failures": 3, "open_ms": 400}}}"#, kind)
        defer { r.shutdown() }
        for _ in 0..<3 { #expect(unavailableKind(ask(r, [q()]).0) == "status") }
        #expect(up.requests == 3)
        #expect(metric(registry, #"formd_remote_breaker_state{validator="v"}"#) == 2)
        // Open: answered at once by the policy, no call.
        let (open, ms) = ask(r, [q()])
        #expect(unavailableKind(open) == "breaker_open")
        #expect(ms < 50)
        #expect(up.requests == 3)
        // Half-open after open_ms: a failing trial opens it again.
        usleep(450_000)
        #expect(unavailableKind(ask(r, [q()]).0) == "status")
        #expect(up.requests == 4)
        #expect(unavailableKind(ask(r, [q()]).0) == "breaker_open")
        // A successful trial closes it.
        usleep(450_000)
        healthy.value = true
        #expect(verdicts(ask(r, [q()]).0)?["username"] == .valid)
        #expect(verdicts(ask(r, [q()]).0)?["username"] == .valid)
        #expect(up.requests == 6)
        #expect(metric(registry, #"formd_remote_breaker_state{validator="v"}"#) == 0)
        #expect(metric(registry, #"formd_remote_failures_total{validator="v",kind="breaker_open"}"#) == 2)
        #expect(metric(registry, #"formd_remote_failures_total{validator="v",kind="status"}"#) == 4)
    }

    @Test(arguments: kinds) func concurrencyCapAndQueue(_ kind: EventQueueKind) throws {
        let up = try TestUpstream { _ in .delay(ms: 150, .json(#"{"valid":true}"#)) }
        defer { up.stop() }
        let (r, _) = try make(#"{"v": {"url": "\#(up.url)", "timeout_ms": 3000, "max_concurrency": 2, "max_queue": 10}}"#, kind)
        defer { r.shutdown() }
        // One submission with six remote fields: asked concurrently, two at a time.
        let questions = (0..<6).map { q("f\($0)") }
        let (result, ms) = ask(r, questions)
        let v = try #require(verdicts(result))
        #expect((0..<6).allSatisfy { v["f\($0)"] == .valid })
        #expect(up.maxInFlight == 2)
        #expect(ms >= 440 && ms < 2000, "three rounds of 150 ms: \(ms) ms")

        // Past the queue: the policy at once.
        let (small, registry) = try make(#"{"v": {"url": "\#(up.url)", "timeout_ms": 3000, "max_concurrency": 1, "max_queue": 0}}"#, kind)
        defer { small.shutdown() }
        let (overloaded, _) = ask(small, [q("a"), q("b")])
        #expect(unavailableKind(overloaded) == "overloaded")
        #expect(metric(registry, #"formd_remote_failures_total{validator="v",kind="overloaded"}"#) == 1)
        // Waiting for a slot counts against the deadline.
        let (tight, _) = try make(#"{"v": {"url": "\#(up.url)", "timeout_ms": 200, "max_concurrency": 1, "max_queue": 5}}"#, kind)
        defer { tight.shutdown() }
        let (late, lateMs) = ask(tight, [q("a"), q("b")])
        // "a" gets the slot at once, "b" with 50 ms left: no verdict for "b" either way.
        #expect(["timeout", "overloaded"].contains(unavailableKind(late)))
        #expect(lateMs < 200 + 150)
    }

    @Test(arguments: kinds) func failOpenAndFailClosed(_ kind: EventQueueKind) throws {
        let up = try TestUpstream { body in
            switch body["value"] as? String {
            case "hang": .hang
            case "garbage": .json(#"{"valid":"yes"}"#)
            default: .json(#"{"valid":true}"#)
            }
        }
        defer { up.stop() }
        let (r, _) = try make(
            #"{"open": {"url": "\#(up.url)", "timeout_ms": 250, "on_error": "fail_open"}, "closed": {"url": "\#(up.url)", "timeout_ms": 250, "retry_after_s": 7}}"#,
            kind)
        defer { r.shutdown() }
        let (open, ms) = ask(r, [q("a", "\"hang\"", validator: "open"), q("b", "\"garbage\"", validator: "open"), q("c", validator: "open")])
        let v = try #require(verdicts(open))
        #expect(v["a"] == .unchecked)
        #expect(v["b"] == .unchecked)
        #expect(v["c"] == .valid)
        #expect(ms < 250 + 150, "concurrent: bounded by one timeout, \(ms) ms")
        let (closed, closedMs) = ask(r, [q("a", "\"hang\"", validator: "closed"), q("c", validator: "closed")])
        guard case .unavailable(let validator, let field, let kind, let retryAfter)? = closed else {
            Issue.record("expected unavailable, got \(String(describing: closed))")
            return
        }
        #expect(validator == "closed" && field == "a" && kind == "timeout" && retryAfter == 7)
        #expect(closedMs < 250 + 150)
    }

    @Test func settingsAreChecked() {
        func refusal(_ json: String, _ env: [String: String] = [:]) -> String? {
            do { _ = try RemoteValidatorSettings.parse(json, environment: env); return nil } catch { return error.message }
        }
        #expect(refusal(#"{"v": {}}"#)?.contains("\"url\"") == true)
        #expect(refusal(#"{"v": {"url": "ftp://x"}}"#)?.contains("http://") == true)
        #expect(refusal(#"{"v": {"url": "http://x", "on_error": "maybe"}}"#)?.contains("fail_closed") == true)
        #expect(refusal(#"{"v": {"url": "http://x", "timeout_ms": 0}}"#)?.contains("timeout_ms") == true)
        #expect(refusal(#"{"v": {"url": "http://x", "headers": {"Host": "y"}}}"#)?.contains("Host") == true)
        #expect(refusal(#"{"v": {"url": "http://x", "headers": {"A": "env:NOPE"}}}"#)?.contains("NOPE") == true)
        #expect(refusal(#"{"v": {"url": "http://x", "ca_file": "/x"}}"#)?.contains("https") == true)
        #expect(refusal(#"{"v": {"url": "http://x", "tiemout_ms": 5}}"#)?.contains("unknown key") == true)
        #expect(refusal(#"{"1v": {"url": "http://x"}}"#) != nil)
        let s = try? RemoteValidatorSettings.parse(#"{"v": {"url": "https://x.example/c"}}"#, environment: [:]).first
        #expect(s?.timeoutMs == 300)
        #expect(s?.onError == .failClosed)
        #expect(s?.cacheTTLSeconds == 0)
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var _value = false
    var value: Bool {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
}
