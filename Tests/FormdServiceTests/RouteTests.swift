import Foundation
import FormdHTTP
import FormdService
import Logging
import Testing

/// The service's routes called in-process (no binary, no socket): `FormService.handle` on the
/// bundled forms. What only the binary shows (signals, config files, drain, the wire) stays in
/// the out-of-process suites.
@Suite("routes, in-process")
struct RouteTests {
    static let forms = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Forms").path

    static func service(cors: [String] = [], ui: Bool = true) -> FormService {
        let logger = Logger(label: "route-tests")
        let metrics = ServiceMetrics()
        let registry = FormRegistry(directory: forms, logger: logger, metrics: metrics)
        _ = registry.loadAll()
        let s = FormService(registry: registry, metrics: metrics, logger: logger, corsAllowedOrigins: cors, uiEnabled: ui)
        s.isReady = true
        return s
    }

    static func request(_ method: String, _ target: String, _ headers: HTTPHeaders = [:], body: String = "") -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
    }

    static func json(_ r: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
    }

    @Test func formsAndDefinitions() throws {
        let s = Self.service()
        let list = s.handle(Self.request("GET", "/forms"))
        #expect(list.status == 200)
        let ids = (Self.json(list)["forms"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids == ["customer-no", "employment", "expenses", "feedback-i18n", "newsletter-i18n", "signup"])
        let def = s.handle(Self.request("GET", "/forms/signup"))
        let etag = try #require(def.headers["ETag"])
        #expect(def.status == 200 && etag.hasPrefix("\""))
        #expect(s.handle(Self.request("GET", "/forms/signup", ["If-None-Match": etag])).status == 304)
        let missing = s.handle(Self.request("GET", "/forms/nope"))
        #expect(missing.status == 404 && missing.headers["Content-Type"] == "application/problem+json")
        let wrong = s.handle(Self.request("DELETE", "/forms/signup"))
        #expect(wrong.status == 405 && wrong.headers["Allow"] == "GET, HEAD")
    }

    /// A definition that gives texts per language: resolved for `?locale=` and `Accept-Language`,
    /// as written without either or with `?raw=true`, each variant with its own ETag that
    /// `If-Match` accepts as the form's version.
    @Test func localizedDefinitions() throws {
        let s = Self.service()
        func title(_ r: HTTPResponse) -> String? { Self.json(r)["title"] as? String }
        let nb = s.handle(Self.request("GET", "/forms/newsletter-i18n?locale=nb"))
        #expect(nb.status == 200 && title(nb) == "Nyhetsbrev" && nb.headers["Content-Language"] == "nb")
        #expect(nb.headers["Vary"] == "Accept-Language")
        let es = s.handle(Self.request("GET", "/forms/newsletter-i18n", ["Accept-Language": "es-419, en;q=0.5"]))
        #expect(title(es) == "Boletín" && es.headers["Content-Language"] == "es")
        let raw = s.handle(Self.request("GET", "/forms/newsletter-i18n"))
        #expect(title(raw) == nil && (Self.json(raw)["title"] as? [String: String])?["nb"] == "Nyhetsbrev")
        #expect(raw.headers["Content-Language"] == nil)
        let forcedRaw = s.handle(Self.request("GET", "/forms/newsletter-i18n?raw=true", ["Accept-Language": "nb"]))
        #expect(forcedRaw.body == raw.body && forcedRaw.headers["ETag"] == raw.headers["ETag"])
        let nbTag = try #require(nb.headers["ETag"]), esTag = try #require(es.headers["ETag"]), rawTag = try #require(raw.headers["ETag"])
        #expect(Set([nbTag, esTag, rawTag]).count == 3)
        #expect(s.handle(Self.request("GET", "/forms/newsletter-i18n?locale=nb", ["If-None-Match": nbTag])).status == 304)
        #expect(s.handle(Self.request("GET", "/forms/newsletter-i18n?locale=es", ["If-None-Match": nbTag])).status == 200)
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        for tag in [nbTag, esTag, rawTag] {
            let pinned = s.handle(Self.request("POST", "/forms/newsletter-i18n/validate", ["Content-Type": "application/json", "If-Match": tag], body: "{}"))
            #expect(pinned.status == 422, "\(tag)")
        }
        let stale = s.handle(Self.request("POST", "/forms/newsletter-i18n/validate", ["Content-Type": "application/json", "If-Match": "\"0-nb\""], body: "{}"))
        #expect(stale.status == 412)
        // Messages quote the label in the message's language.
        let messages = s.handle(Self.request("POST", "/forms/newsletter-i18n/validate?locale=nb", json, body: #"{"name": "K"}"#))
        let errors = Self.json(messages)["errors"] as? [[String: Any]] ?? []
        #expect(errors.compactMap { $0["message"] as? String } == ["Navn må ha minst 2 tegn.", "E-post må fylles ut."])
        // A form without localized text is the same for every language, without Vary.
        let plain = s.handle(Self.request("GET", "/forms/signup?locale=nb"))
        #expect(plain.headers["ETag"] == s.handle(Self.request("GET", "/forms/signup")).headers["ETag"] && plain.headers["Vary"] == nil)
    }

    @Test func validateAndEvaluate() {
        let s = Self.service()
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        let invalid = s.handle(Self.request("POST", "/forms/signup/validate", json, body: #"{"email": "x"}"#))
        #expect(invalid.status == 422 && Self.json(invalid)["valid"] as? Bool == false)
        let valid = s.handle(Self.request(
            "POST", "/forms/signup/validate", json,
            body: #"{"email": "ola@example.com", "username": "ola_n", "password": "Secret123!", "password_confirmation": "Secret123!", "terms": true}"#))
        #expect(valid.status == 200 && Self.json(valid)["valid"] as? Bool == true)
        let form = s.handle(Self.request(
            "POST", "/forms/signup/validate", ["Content-Type": "application/x-www-form-urlencoded"], body: "email=ola%40example.com&terms=true"))
        #expect(form.status == 422 && (Self.json(form)["values"] as? [String: Any])?["terms"] as? Bool == true)
        let live = s.handle(Self.request("POST", "/forms/employment/evaluate", json, body: #"{"values": {"employment_type": "contractor"}, "changed": ["employment_type"]}"#))
        #expect(live.status == 200)
        let fields = Self.json(live)["fields"] as? [String: [String: Bool]] ?? [:]
        #expect(fields["bonus"]?["visible"] == false && fields["end_date"]?["visible"] == true)
        let bad = s.handle(Self.request("POST", "/forms/employment/evaluate", json, body: #"{"changed": ["nope"]}"#))
        #expect(bad.status == 400 && (Self.json(bad)["type"] as? String) == "/problems/bad-request")
        let notObject = s.handle(Self.request("POST", "/forms/signup/validate", json, body: "[1]"))
        #expect(notObject.status == 400 && (Self.json(notObject)["type"] as? String) == "/problems/not-an-object")
    }

    @Test func healthReadinessAndThePage() {
        let s = Self.service()
        #expect(s.handle(Self.request("GET", "/healthz")).status == 200)
        #expect(s.handle(Self.request("GET", "/readyz")).status == 200)
        s.isReady = false
        #expect(s.handle(Self.request("GET", "/readyz")).status == 503)
        #expect(s.handle(Self.request("GET", "/")).headers["Content-Security-Policy"] != nil)
        #expect(s.handle(Self.request("GET", "/client/formd.js")).status == 200)
        let noUI = Self.service(ui: false)
        #expect(noUI.handle(Self.request("GET", "/")).status == 404)
        #expect(noUI.handle(Self.request("GET", "/client/formd.js")).status == 200)
    }

    @Test func cors() {
        let s = Self.service(cors: ["http://app.example"])
        let preflight = s.handle(Self.request(
            "OPTIONS", "/forms/signup/validate", ["Origin": "http://app.example", "Access-Control-Request-Method": "POST"]))
        #expect(preflight.status == 204 && preflight.headers["Access-Control-Allow-Origin"] == "http://app.example")
        let foreign = s.handle(Self.request("GET", "/forms", ["Origin": "http://evil.example"]))
        #expect(foreign.status == 200 && foreign.headers["Access-Control-Allow-Origin"] == nil)
    }
}
