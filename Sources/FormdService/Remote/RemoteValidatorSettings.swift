import FormdCore
import FormdHTTP
import Foundation

/// One `validators.remote.<name>` entry (API.md §11): where the validator is and how formd treats
/// it. URLs come only from here, never from a definition.
package struct RemoteValidatorSettings: Sendable, Equatable {
    package enum FailurePolicy: String, Sendable { case failClosed = "fail_closed", failOpen = "fail_open" }

    package var name: String
    package var url: UpstreamURL
    /// The whole call: connect, TLS, request and response.
    package var timeoutMs = 300
    package var onError = FailurePolicy.failClosed
    /// 0: no cache.
    package var cacheTTLSeconds = 0
    package var cacheMaxEntries = 10_000
    /// Calls in flight at once; past it calls wait (up to `maxQueued`) within their deadline.
    package var maxConcurrency = 16
    package var maxQueued = 64
    /// Extra request headers; values already resolved from the environment.
    package var headers: [Header] = []
    /// Other fields of the submission sent along (`fields`), as submitted.
    package var sendFields: [String] = []
    /// PEM CA certificates to trust instead of the system store (https only).
    package var caFile: String?
    /// Consecutive failures that open the breaker, and how long it stays open.
    package var breakerFailures = 5
    package var breakerOpenMs = 5_000
    /// `Retry-After` of a fail-closed 503 (seconds).
    package var retryAfterSeconds = 1

    package struct Header: Sendable, Equatable {
        package var name: String
        package var value: String
        /// The value came from the environment (not shown by `formd config`).
        package var fromEnvironment: Bool
    }

    static let keys: Set<String> = [
        "url", "timeout_ms", "on_error", "cache_ttl_s", "cache_max_entries", "max_concurrency", "max_queue", "headers",
        "send_fields", "ca_file", "breaker", "retry_after_s",
    ]
    static let breakerKeys: Set<String> = ["failures", "open_ms"]

    /// The setting's value: a JSON object of validators by name. Header values `env:NAME` are
    /// read from the environment (a variable that is not set is an error).
    static func parse(_ text: String, environment: [String: String]) throws(Setting.Refusal) -> [RemoteValidatorSettings] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return [] }
        let root: JSONValue
        do { root = try JSONParser.parse(trimmed).root } catch {
            throw Setting.Refusal(message: "expected a JSON object of validators by name (\(error.message) at line \(error.line), column \(error.column))")
        }
        guard case .object(let o) = root else { throw Setting.Refusal(message: "expected a JSON object of validators by name") }
        var out: [RemoteValidatorSettings] = []
        for m in o.members {
            out.append(try parseOne(m.key, m.value, environment: environment))
        }
        return out
    }

    private static func parseOne(_ name: String, _ value: JSONValue, environment: [String: String]) throws(Setting.Refusal) -> RemoteValidatorSettings {
        let p = "validators.remote.\(name)"
        func refuse(_ message: String) -> Setting.Refusal { Setting.Refusal(message: "\(p): \(message)") }
        guard Validations.isValidRemoteName(name) else { throw refuse("not a validator name (a letter, then up to 63 letters, digits, _ or -)") }
        guard case .object(let o) = value else { throw refuse("expected an object with at least \"url\"") }
        for m in o.members where !keys.contains(m.key) {
            throw refuse("unknown key \"\(m.key)\" (known: \(keys.sorted().joined(separator: ", ")))")
        }
        guard case .string(let urlText)? = o["url"] else { throw refuse("\"url\" (an http:// or https:// URL) is required") }
        guard let url = UpstreamURL(urlText) else { throw refuse("\"url\" must be an http:// or https:// URL, not \"\(urlText)\"") }
        var s = RemoteValidatorSettings(name: name, url: url)
        func int(_ key: String, _ range: ClosedRange<Int>, _ o: JSONObject, _ prefix: String = "") throws(Setting.Refusal) -> Int? {
            guard let v = o[key] else { return nil }
            guard case .number(let n) = v, let i = Int(n.text), range.contains(i) else {
                throw refuse("\"\(prefix)\(key)\" must be an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return i
        }
        if let v = try int("timeout_ms", 1...600_000, o) { s.timeoutMs = v }
        if let v = try int("cache_ttl_s", 0...86_400, o) { s.cacheTTLSeconds = v }
        if let v = try int("cache_max_entries", 1...10_000_000, o) { s.cacheMaxEntries = v }
        if let v = try int("max_concurrency", 1...100_000, o) { s.maxConcurrency = v }
        if let v = try int("max_queue", 0...1_000_000, o) { s.maxQueued = v } else { s.maxQueued = 4 * s.maxConcurrency }
        if let v = try int("retry_after_s", 1...86_400, o) { s.retryAfterSeconds = v }
        if let v = o["on_error"] {
            guard case .string(let t) = v, let policy = FailurePolicy(rawValue: t) else { throw refuse("\"on_error\" must be \"fail_closed\" or \"fail_open\"") }
            s.onError = policy
        }
        switch o["ca_file"] {
        case nil, .null?: break
        case .string(let f)?:
            guard url.isTLS else { throw refuse("\"ca_file\" applies to https:// URLs only") }
            s.caFile = f
        default: throw refuse("\"ca_file\" must be a path")
        }
        switch o["send_fields"] {
        case nil, .null?: break
        case .array(let items)?:
            for item in items {
                guard case .string(let f) = item, !f.isEmpty else { throw refuse("\"send_fields\" must list field ids") }
                s.sendFields.append(f)
            }
        default: throw refuse("\"send_fields\" must be a list of field ids")
        }
        switch o["headers"] {
        case nil, .null?: break
        case .object(let h)?:
            for m in h.members {
                guard isToken(m.key), !reservedHeaders.contains(m.key.lowercased()) else {
                    throw refuse("\"headers\": \"\(m.key)\" is not a header formd lets you set")
                }
                guard case .string(var v) = m.value else { throw refuse("\"headers\".\(m.key) must be a string") }
                var fromEnvironment = false
                if v.hasPrefix("env:") {
                    let variable = String(v.dropFirst(4))
                    guard let e = environment[variable] else { throw refuse("\"headers\".\(m.key) reads the environment variable \(variable), which is not set") }
                    v = e
                    fromEnvironment = true
                }
                guard !v.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else { throw refuse("\"headers\".\(m.key) has a line break") }
                s.headers.append(Header(name: m.key, value: v, fromEnvironment: fromEnvironment))
            }
        default: throw refuse("\"headers\" must be an object of strings")
        }
        switch o["breaker"] {
        case nil, .null?: break
        case .object(let b)?:
            for m in b.members where !breakerKeys.contains(m.key) { throw refuse("\"breaker\": unknown key \"\(m.key)\" (known: failures, open_ms)") }
            if let v = try int("failures", 1...1_000_000, b, "breaker.") { s.breakerFailures = v }
            if let v = try int("open_ms", 1...3_600_000, b, "breaker.") { s.breakerOpenMs = v }
        default: throw refuse("\"breaker\" must be an object: {\"failures\": N, \"open_ms\": MS}")
        }
        return s
    }

    static let reservedHeaders: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "content-type", "upgrade", "te", "trailer", "expect"]

    private static func isToken(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { b in
            (b >= 48 && b <= 57) || (b | 0x20 >= 97 && b | 0x20 <= 122) || "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }

    /// As `formd config` prints it (environment values shown as `env:…`, not their text).
    var json: String {
        var w = JSONWriter()
        w.beginObject()
        w.key("url"); w.string(url.description)
        w.key("timeout_ms"); w.number(timeoutMs)
        w.key("on_error"); w.string(onError.rawValue)
        w.key("cache_ttl_s"); w.number(cacheTTLSeconds)
        w.key("cache_max_entries"); w.number(cacheMaxEntries)
        w.key("max_concurrency"); w.number(maxConcurrency)
        w.key("max_queue"); w.number(maxQueued)
        if !headers.isEmpty {
            w.key("headers")
            w.beginObject()
            for h in headers { w.key(h.name); w.string(h.fromEnvironment ? "env:…" : h.value) }
            w.endObject()
        }
        if !sendFields.isEmpty {
            w.key("send_fields")
            w.beginArray()
            for f in sendFields { w.string(f) }
            w.endArray()
        }
        if let caFile { w.key("ca_file"); w.string(caFile) }
        w.key("breaker")
        w.beginObject()
        w.key("failures"); w.number(breakerFailures)
        w.key("open_ms"); w.number(breakerOpenMs)
        w.endObject()
        w.key("retry_after_s"); w.number(retryAfterSeconds)
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
