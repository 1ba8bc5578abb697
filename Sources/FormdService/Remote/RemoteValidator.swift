import FormdCore
import FormdHTTP
import Foundation

/// A declared remote validator at run time: its cache, breaker, concurrency gate and metrics,
/// and the call itself (API.md §11). Thread-safe (one lock); calls go through the shared
/// `HTTPClient`, whose loop runs the completions.
final class RemoteValidator: @unchecked Sendable {
    /// What became of one question.
    enum Outcome: Sendable {
        case verdict(RemoteVerdict)
        /// No verdict; `kind` names why (metrics): timeout, connect, tls, status, malformed,
        /// oversized, closed, breaker_open, overloaded, stopped.
        case failed(kind: String)
    }

    let settings: RemoteValidatorSettings
    private let client: HTTPClient
    private let metrics: RemoteMetrics
    private let lock = NSLock()
    private var cache: RemoteCache
    private var breaker: CircuitBreaker
    private var inFlight = 0
    /// Calls waiting for a slot, oldest first.
    private var waiting: [Waiter] = []

    private final class Waiter: @unchecked Sendable {
        let deadline: Int64
        let run: (Int) -> Void
        let expire: () -> Void
        var done = false
        init(deadline: Int64, run: @escaping (Int) -> Void, expire: @escaping () -> Void) {
            self.deadline = deadline
            self.run = run
            self.expire = expire
        }
    }

    init(settings: RemoteValidatorSettings, client: HTTPClient, metrics: RemoteMetrics) {
        self.settings = settings
        self.client = client
        self.metrics = metrics
        cache = RemoteCache(ttlSeconds: settings.cacheTTLSeconds, capacity: settings.cacheMaxEntries)
        breaker = CircuitBreaker(failures: settings.breakerFailures, openMs: settings.breakerOpenMs)
        metrics.breakerState(.closed)
    }

    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Answers `question` (cache, breaker, gate, call); `completion` runs once, on any thread,
    /// within the validator's timeout.
    func ask(_ question: RemoteQuestion, form: String, version: String, fields: [(String, JSONValue)],
             completion: @escaping @Sendable (Outcome) -> Void) {
        let start = Self.now()
        let deadline = start + Int64(settings.timeoutMs)
        let body = requestBody(question, form: form, version: version, fields: fields)
        let key = cacheKey(form: form, version: version, question: question, fields: fields)
        enum Decision { case cached(RemoteVerdictRecord), breakerOpen, go, wait, overloaded }
        let waiter = Waiter(deadline: deadline, run: { [self] remaining in
            call(body, key: key, timeoutMs: remaining, completion: completion)
        }, expire: { [self] in
            metrics.failed("overloaded")
            completion(.failed(kind: "overloaded"))
        })
        let decision: Decision = lock.withLock {
            if cache.isEnabled, let hit = cache.get(key, now: start) { return .cached(hit) }
            if inFlight < settings.maxConcurrency || waiting.count < settings.maxQueued {
                let allowed = breaker.allow(now: start)
                metrics.breakerState(breaker.state)
                guard allowed else { return .breakerOpen }
                if inFlight < settings.maxConcurrency {
                    inFlight += 1
                    return .go
                }
                waiting.append(waiter)
                return .wait
            }
            return .overloaded
        }
        switch decision {
        case .cached(let v):
            metrics.cacheHit()
            completion(.verdict(v.verdict))
        case .breakerOpen:
            metrics.failed("breaker_open")
            completion(.failed(kind: "breaker_open"))
        case .overloaded:
            metrics.failed("overloaded")
            completion(.failed(kind: "overloaded"))
        case .go:
            call(body, key: key, timeoutMs: settings.timeoutMs, completion: completion)
        case .wait:
            // Not answered by a free slot before the deadline: the policy decides.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(settings.timeoutMs)) { [self] in
                let expired = lock.withLock { () -> Bool in
                    guard !waiter.done else { return false }
                    waiter.done = true
                    waiting.removeAll { $0 === waiter }
                    return true
                }
                if expired { waiter.expire() }
            }
        }
    }

    private func call(_ body: [UInt8], key: String, timeoutMs: Int, completion: @escaping @Sendable (Outcome) -> Void) {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
        for h in settings.headers { headers.append((h.name, h.value)) }
        let request = HTTPClientRequest(url: settings.url, headers: headers, body: body, timeoutMs: max(1, timeoutMs))
        let started = ContinuousClock.now
        client.send(request, caFile: settings.caFile) { [self] result in
            metrics.called(ContinuousClock.now - started)
            let outcome: Outcome
            var record: RemoteVerdictRecord?
            switch result {
            case .failure(let e): outcome = .failed(kind: e.kind)
            case .success(let response):
                if !(200..<300).contains(response.status) {
                    outcome = .failed(kind: "status")
                } else if let r = Self.verdict(response.body) {
                    record = r
                    outcome = .verdict(r.verdict)
                } else {
                    outcome = .failed(kind: "malformed")
                }
            }
            let now = Self.now()
            let next: Waiter? = lock.withLock {
                if record != nil { breaker.succeeded() } else { breaker.failed(now: now) }
                metrics.breakerState(breaker.state)
                if let record { cache.put(key, record, now: now) }
                // Hand the slot to the oldest waiter still in time.
                while !waiting.isEmpty {
                    let w = waiting.removeFirst()
                    if w.done { continue }
                    w.done = true
                    if w.deadline > now { return w }
                    DispatchQueue.global().async { w.expire() }
                }
                inFlight -= 1
                return nil
            }
            if case .failed(let kind) = outcome { metrics.failed(kind) }
            completion(outcome)
            if let next { next.run(Int(next.deadline - now)) }
        }
    }

    /// `{"valid": bool, "code"?: string, "message"?: string, "params"?: object}`; nil otherwise.
    static func verdict(_ body: [UInt8]) -> RemoteVerdictRecord? {
        guard let doc = try? JSONParser.parse(body, options: .submission), case .object(let o) = doc.root,
            case .bool(let valid)? = o["valid"]
        else { return nil }
        if valid { return .valid }
        var code: String?
        var message: String?
        var params: String?
        switch o["code"] {
        case nil, .null?: break
        case .string(let c)?: code = c
        default: return nil
        }
        switch o["message"] {
        case nil, .null?: break
        case .string(let m)?: message = m
        default: return nil
        }
        switch o["params"] {
        case nil, .null?: break
        case .object(let p)?: params = String(decoding: JSONWriter.encode(.object(p)), as: UTF8.self)
        default: return nil
        }
        return .invalid(code: code, message: message, params: params)
    }

    private func requestBody(_ q: RemoteQuestion, form: String, version: String, fields: [(String, JSONValue)]) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("validator"); w.string(settings.name)
        w.key("form"); w.string(form)
        w.key("version"); w.string(version)
        w.key("field"); w.string(q.field)
        w.key("value"); w.rawValue(Array(q.value.utf8))
        if !settings.sendFields.isEmpty {
            w.key("fields")
            w.beginObject()
            for (k, v) in fields { w.key(k); w.writeValue(v) }
            w.endObject()
        }
        w.endObject()
        return w.bytes
    }

    private func cacheKey(form: String, version: String, question q: RemoteQuestion, fields: [(String, JSONValue)]) -> String {
        var k = form + "\u{0}" + version + "\u{0}" + q.field + "\u{0}" + q.value
        for (name, v) in fields { k += "\u{0}" + name + "=" + String(decoding: JSONWriter.encode(v), as: UTF8.self) }
        return k
    }
}
