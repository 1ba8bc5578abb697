import Foundation
import FormdHTTP
import FormdService
import Logging
import Testing

/// The service's routes called in-process (no binary, no socket): `FormRoutes.handle` on the
/// bundled forms. What only the binary shows (signals, config files, drain, the wire) stays in
/// the out-of-process suites.
@Suite("routes, in-process")
struct RouteTests {
    static let forms = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Forms").path

    static func service(cors: [String] = [], ui: Bool = true, success: String? = nil, error: String? = nil) -> FormRoutes {
        let logger = Logger(label: "route-tests", factory: { _ in SwiftLogNoOpLogHandler() })
        let metrics = ServiceMetrics()
        let registry = FormRegistry(directory: forms, logger: logger, metrics: metrics)
        _ = registry.loadAll()
        let s = FormRoutes(
            registry: registry, metrics: metrics, logger: logger, corsAllowedOrigins: cors, uiEnabled: ui, htmlSuccessURL: success,
            htmlErrorURL: error)
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
        #expect(ids == ["customer-no", "employment", "expenses", "feedback-i18n", "newsletter-i18n", "registration-pureform", "signup", "workshop"])
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
    /// A PureForm definition is served as written, and in the Hyper shape with `?shape=hyper`
    /// (read by the engine, with its own ETag that `If-Match` accepts); a Hyper form ignores it.
    @Test func pureFormInTheHyperShape() throws {
        let s = Self.service()
        let written = s.handle(Self.request("GET", "/forms/registration-pureform"))
        let hyper = s.handle(Self.request("GET", "/forms/registration-pureform?shape=hyper"))
        #expect(written.status == 200 && hyper.status == 200)
        #expect((try? JSONSerialization.jsonObject(with: Data(written.body))) is [Any], "as written: the PureForm array")
        let groups = try #require(Self.json(hyper)["groups"] as? [[String: Any]])
        let sections = try #require(groups.first?["sections"] as? [[String: Any]])
        let fields = sections.flatMap { ($0["fields"] as? [[String: Any]]) ?? [] }
        let byID = Dictionary(uniqueKeysWithValues: fields.compactMap { f in (f["id"] as? String).map { ($0, f) } })
        #expect(byID["password"]?["type"] as? String == "password", "a secure text entry")
        #expect(byID["email"]?["type"] as? String == "text")
        #expect(sections.first?["id"] as? String == "section-0")
        let tag = try #require(hyper.headers["ETag"])
        #expect(tag != written.headers["ETag"] && tag.hasSuffix("-hyper\""))
        #expect(s.handle(Self.request("GET", "/forms/registration-pureform?shape=hyper", ["If-None-Match": tag])).status == 304)
        let pinned = s.handle(Self.request("POST", "/forms/registration-pureform/validate", ["If-Match": tag], body: "{}"))
        #expect(pinned.status != 412, "the Hyper shape's tag pins the same version")
        let plain = s.handle(Self.request("GET", "/forms/signup?shape=hyper"))
        #expect(plain.body == s.handle(Self.request("GET", "/forms/signup")).body)
    }

    /// The media type is read case-insensitively, without parameters or surrounding blanks.
    @Test func contentTypeEssence() {
        let s = Self.service()
        for type in ["application/json", "Application/JSON; charset=utf-8", " \tapplication/json ;charset=UTF-8", "application/problem+json"] {
            let r = s.handle(Self.request("POST", "/forms/signup/validate", ["Content-Type": type], body: #"{"email": "x"}"#))
            #expect(r.status == 422, "\(type)")
        }
        for type in ["text/plain", "application/jsonx", "application /json", "application/json\u{00A0}"] {
            #expect(s.handle(Self.request("POST", "/forms/signup/validate", ["Content-Type": type], body: "{}")).status == 415, "\(type)")
        }
        let form = s.handle(Self.request("POST", "/forms/signup/validate", ["Content-Type": "APPLICATION/X-WWW-FORM-URLENCODED"], body: "email=x"))
        #expect(form.status == 422 && Self.json(form)["values"] != nil)
    }

    /// Evaluate with `state`: a token per answer, changes against the previous one, 400 for bad tokens.
    @Test func stateDiffs() throws {
        let s = Self.service()
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        func evaluate(_ body: String, form: String = "workshop") -> HTTPResponse {
            s.handle(Self.request("POST", "/forms/\(form)/evaluate", json, body: body))
        }
        let plain = evaluate(#"{"values": {"name": "Kari"}}"#)
        #expect(Self.json(plain)["state"] == nil && Self.json(plain)["changes"] == nil, "no state key: the answer as before")
        let first = evaluate(#"{"values": {"name": "Kari"}, "state": null}"#)
        #expect(first.status == 200)
        let token = try #require(Self.json(first)["state"] as? String)
        let firstChanges = try #require(Self.json(first)["changes"] as? [String: Any])
        let inserted = ((firstChanges["order"] as? [String: Any])?["sections"] as? [String: Any])?["inserted"] as? [[String: Any]]
        #expect(inserted?.compactMap { $0["id"] as? String } == ["attendee", "choices"])
        let next = evaluate(#"{"values": {"name": "Kari", "sessions": ["perf"]}, "changed": ["sessions"], "state": "\#(token)"}"#)
        let changes = try #require(Self.json(next)["changes"] as? [String: Any])
        let fields = try #require(changes["fields"] as? [String: [String: Any]])
        #expect(fields["sessions"]?["value"] as? [String] == ["perf"])
        #expect(fields["recording_consent"]?["visible"] as? Bool == true)
        #expect(fields["name"] == nil, "unchanged fields are not listed")
        let order = ((changes["order"] as? [String: Any])?["fields"] as? [String: Any])?["choices"] as? [String: Any]
        #expect((order?["inserted"] as? [[String: Any]])?.first?["id"] as? String == "recording_consent")
        for (body, form) in [
            (#"{"state": "\#(token)x"}"#, "workshop"), (#"{"state": "\#(token)"}"#, "signup"), (#"{"state": 5}"#, "workshop"),
            (#"{"state": "@@@"}"#, "workshop"),
        ] {
            let bad = evaluate(body, form: form)
            #expect(bad.status == 400 && Self.json(bad)["type"] as? String == "/problems/bad-state", "\(body) \(form)")
        }
    }

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
        let plain = s.handle(Self.request("GET", "/forms/customer-no?locale=en"))
        #expect(plain.headers["ETag"] == s.handle(Self.request("GET", "/forms/customer-no")).headers["ETag"] && plain.headers["Vary"] == nil)
    }

    /// What browsers post: checkboxes (`on`, or nothing when unchecked), the hidden-`false`
    /// idiom, multipart bodies without files, and a 303 for a client that asks for HTML.
    @Test func htmlFormPosts() throws {
        let s = Self.service(success: "/thanks", error: "https://app.example/fix?step=2")
        let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        let good = "email=ola%40example.com&username=ola_n&password=hemmelig1&password_confirmation=hemmelig1"
        func values(_ r: HTTPResponse) -> [String: Any] { Self.json(r)["values"] as? [String: Any] ?? [:] }
        let checked = s.handle(Self.request("POST", "/forms/signup/validate", form, body: good + "&terms=on"))
        #expect(checked.status == 200 && values(checked)["terms"] as? Bool == true, "\(Self.json(checked))")
        #expect(values(checked)["newsletter"] as? Bool == false, "an unchecked checkbox is false")
        let unchecked = s.handle(Self.request("POST", "/forms/signup/validate", form, body: good))
        #expect(unchecked.status == 422 && values(unchecked)["terms"] as? Bool == false)
        #expect((Self.json(unchecked)["errors"] as? [[String: Any]])?.first?["code"] as? String == "min_value")
        let hiddenThenChecked = s.handle(Self.request("POST", "/forms/signup/validate", form, body: good + "&terms=false&terms=on"))
        #expect(hiddenThenChecked.status == 200)
        let hiddenOnly = s.handle(Self.request("POST", "/forms/signup/validate", form, body: good + "&terms=false"))
        #expect(values(hiddenOnly)["terms"] as? Bool == false)
        let repeated = s.handle(Self.request("POST", "/forms/signup/validate", form, body: "email=a&email=b"))
        #expect(repeated.status == 400 && (Self.json(repeated)["detail"] as? String)?.contains("email") == true)
        // Evaluate reads a post the same way.
        let live = s.handle(Self.request("POST", "/forms/signup/evaluate", form, body: "newsletter=on"))
        #expect(((Self.json(live)["fields"] as? [String: [String: Any]])?["newsletter_topic"]?["visible"] as? Bool) == true)

        // A multiple choice: checkboxes sharing a name repeat the key; none ticked chooses nothing.
        let attendee = "name=Kari&email=kari%40example.no"
        let chosen = s.handle(Self.request("POST", "/forms/workshop/validate", form, body: attendee + "&sessions=perf&sessions=swift&recording_consent=on&extras=&extras=book"))
        #expect(chosen.status == 200, "\(Self.json(chosen))")
        #expect(values(chosen)["sessions"] as? [String] == ["swift", "perf"], "definition order")
        #expect(values(chosen)["extras"] as? [String] == ["book"], "a blank value (a hidden marker input) is left out")
        #expect((Self.json(chosen)["labels"] as? [String: [String]])?["sessions"] == ["Server-side Swift", "Measuring performance"])
        let noneTicked = s.handle(Self.request("POST", "/forms/workshop/validate", form, body: attendee + "&sessions=forms&sessions=a11y"))
        #expect(values(noneTicked)["extras"] as? [String] == [], "no extras posted: nothing chosen, not the default")
        let twice = s.handle(Self.request("POST", "/forms/workshop/validate", form, body: attendee + "&sessions=forms&sessions=forms"))
        #expect((Self.json(twice)["errors"] as? [[String: Any]])?.first?["code"] as? String == "type")

        // multipart/form-data, as a <form enctype="multipart/form-data"> sends it.
        let boundary = "----formdBoundary7MA4YWxk"
        func multipart(_ parts: [(String, String)], file: Bool = false) -> String {
            var body = ""
            for (name, value) in parts {
                body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            }
            if file { body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"cv\"; filename=\"cv.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n" }
            return body + "--\(boundary)--\r\n"
        }
        let mp: HTTPHeaders = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]
        let parts = [("email", "ola@example.com"), ("username", "ola_n"), ("password", "hemmelig1"), ("password_confirmation", "hemmelig1"), ("terms", "on")]
        let posted = s.handle(Self.request("POST", "/forms/signup/validate", mp, body: multipart(parts)))
        #expect(posted.status == 200 && values(posted)["email"] as? String == "ola@example.com", "\(Self.json(posted))")
        let multiline = s.handle(Self.request("POST", "/forms/signup/validate", mp, body: multipart([("username", "a\r\nb")])))
        #expect(values(multiline)["username"] as? String == "a\r\nb", "a value keeps its own line breaks")
        #expect(s.handle(Self.request("POST", "/forms/signup/validate", mp, body: multipart(parts, file: true))).status == 415)
        #expect(s.handle(Self.request("POST", "/forms/signup/validate", mp, body: "--\(boundary)\r\nbroken")).status == 400)
        let noBoundary: HTTPHeaders = ["Content-Type": "multipart/form-data"]
        #expect(s.handle(Self.request("POST", "/forms/signup/validate", noBoundary, body: multipart(parts))).status == 400)

        // A browser with JavaScript off asks for HTML: it goes to the page for the outcome.
        var html = form
        html.set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
        let thanks = s.handle(Self.request("POST", "/forms/signup/validate", html, body: good + "&terms=on"))
        #expect(thanks.status == 303 && thanks.headers["Location"] == "/thanks?form=signup")
        let fix = s.handle(Self.request("POST", "/forms/signup/validate", html, body: "email=x"))
        #expect(fix.status == 303)
        #expect(fix.headers["Location"] == "https://app.example/fix?step=2&form=signup&fields=email,username,password,password_confirmation,terms")
        var both = html
        both.set("Accept", "application/json, text/html")
        #expect(s.handle(Self.request("POST", "/forms/signup/validate", both, body: "email=x")).status == 422, "JSON when it asks for JSON")
        var json: HTTPHeaders = ["Content-Type": "application/json"]
        json.set("Accept", "text/html")
        #expect(s.handle(Self.request("POST", "/forms/signup/validate", json, body: "{}")).status == 422, "only form posts are redirected")
        // Without the settings, form posts get the JSON answer.
        #expect(Self.service().handle(Self.request("POST", "/forms/signup/validate", html, body: "email=x")).status == 422)
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
