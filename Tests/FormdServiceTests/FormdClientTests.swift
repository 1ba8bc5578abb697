import Foundation
import Testing
import FormdClient
import FormdCore

/// `FormdClient` against the real binary: remote answers, ETag revalidation, problem errors, and
/// the offline fallback once the server is gone.
@Suite("FormdClient", .timeLimit(.minutes(2)))
struct FormdClientTests {
    static func client(_ server: FormdServerProcess, cache: URL? = nil, locale: String? = nil) -> FormdClient {
        FormdClient(server: URL(string: "http://\(server.host):\(server.port)")!, locale: locale, cacheDirectory: cache)
    }

    @Test func remoteAnswersAreTyped() async throws {
        let served = try ServedForms()
        let formd = Self.client(served.server, locale: "nb")
        let forms = try await formd.forms()
        #expect(forms.map(\.id) == ["contact", "trailing", "wide"])
        #expect(forms.first?.fields == 2 && forms.first?.title == "Contact")
        let live = try await formd.evaluate("contact", ["first_name": "O"], changed: ["first_name"])
        #expect(live.source == .server)
        #expect(live.state.errors.map(\.code) == ["min_length"])
        #expect(live.state.errors.first?.message.contains("minst") == true, "Norwegian: \(live.state.errors)")
        #expect(live.state.field("first_name")?.isRequired == true && live.state.field("send")?.isVisible == true)
        let verdict = try await formd.validate("contact", ["first_name": "Ola", "email": "ola@example.com", "x": 1])
        #expect(verdict.state.isValid && verdict.source == .server)
        #expect(verdict.state.values["first_name"] == "Ola")
        #expect(verdict.state.dropped.map(\.key) == ["x"])
        let invalid = try await formd.validate("contact", [:])
        #expect(!invalid.state.isValid && invalid.state.errors.map(\.code) == ["required"], "a 422 is an answer, not an error")
    }

    @Test func definitionsAreRevalidatedWithTheirETag() async throws {
        let served = try ServedForms()
        let formd = Self.client(served.server)
        let first = try await formd.form("contact")
        let second = try await formd.form("contact")
        #expect(first.version == second.version && first.title == "Contact")
        let metrics = try served.server.request("GET", "/metrics").text
        #expect(metrics.contains(#"formd_http_requests_total{route="/forms/{id}",status="200"} 1"#), "one full download")
        #expect(metrics.contains(#"formd_http_requests_total{route="/forms/{id}",status="304"} 1"#), "then a 304")
        // A changed definition is fetched again.
        try served.folder.write("Forms/contact.json", Fixtures.titled("Renamed"))
        var renamed = second
        for _ in 0..<100 where renamed.title != "Renamed" {
            try await Task.sleep(for: .milliseconds(100))
            renamed = try await formd.form("contact")
        }
        #expect(renamed.title == "Renamed" && renamed.version != first.version)
    }

    /// A definition with texts per language reaches the client as written (its version is the
    /// file's), and the engine on the device quotes the label in the client's language.
    @Test func localizedDefinitionsComeAsWritten() async throws {
        let localized = #"[{"id": "g", "title": {"en": "Order", "nb": "Bestilling"}, "sections": [{"id": "s", "fields": [{"id": "name", "type": "text", "title": {"en": "Name", "nb": "Navn"}, "validations": {"required": true}}]}]}]"#
        let served = try ServedForms(extra: ["order.json": localized])
        let formd = Self.client(served.server, locale: "nb")
        let form = try await formd.form("order")
        let raw = try served.server.request("GET", "/forms/order")
        #expect(form.version == raw.header("ETag"), "the file's version, not the Norwegian variant's")
        let remote = try await formd.validate("order", [:])
        #expect(remote.state.errors.first?.message == "Navn må fylles ut.", "\(remote.state.errors)")
        let local = try form.validate([:], locale: "nb")
        #expect(local.errors.first?.message == "Navn må fylles ut.", "\(local.errors)")
    }

    @Test func problemsAreTypedErrors() async throws {
        let served = try ServedForms()
        let formd = Self.client(served.server)
        await #expect(throws: FormdClientError.self) { try await formd.form("nope") }
        do {
            _ = try await formd.evaluate("nope", [:])
            Issue.record("a missing form must throw")
        } catch {
            guard case .notFound(let p) = error else { Issue.record("\(error)"); return }
            #expect(p.status == 404 && p.slug == "not-found" && p.detail == #"no form "nope""#)
        }
        do {
            _ = try await formd.evaluate("contact", [:], changed: ["nope"])
            Issue.record("an unknown changed id must throw")
        } catch {
            guard case .badRequest(let p) = error else { Issue.record("\(error)"); return }
            #expect(p.slug == "bad-request" && p.detail.contains("nope"))
        }
        let form = try await formd.form("contact")
        let pinned = try await formd.validate("contact", ["first_name": "Ola"], version: form.version)
        #expect(pinned.state.isValid && pinned.version == form.version)
        do {
            _ = try await formd.evaluate("contact", [:], version: #""0000""#)
            Issue.record("a stale version must throw")
        } catch {
            guard case .preconditionFailed(let p) = error else { Issue.record("\(error)"); return }
            #expect(p.status == 412 && p.slug == "precondition-failed")
        }
        do {
            _ = try await formd.evaluate("contact", ["big": .string(String(repeating: "x", count: 1_100_000))])
            Issue.record("a body over the limit must throw")
        } catch {
            guard case .badRequest(let p) = error else { Issue.record("\(error)"); return }
            #expect(p.status == 413 && p.slug == "body-too-large")
        }
    }

    @Test func offlineEvaluatesOnTheDeviceAfterTheServerStops() async throws {
        let folder = try TempFolder("formd-client-cache")
        let served = try ServedForms()
        let online = Self.client(served.server, cache: folder.url)
        let remote = try await online.evaluate("contact", ["first_name": "O"], changed: ["first_name"])
        _ = try await online.form("contact")  // cached, in memory and in the folder
        let address = URL(string: "http://\(served.server.host):\(served.server.port)")!
        #expect(served.server.stop() == 0)
        let local = try await online.evaluate("contact", ["first_name": "O"], changed: ["first_name"])
        #expect(local.source == .local)
        #expect(local.state == remote.state, "the engine on the device answers as the server did")
        // A new client (a relaunched app) finds the definition in the folder.
        let relaunched = FormdClient(server: address, cacheDirectory: folder.url)
        let verdict = try await relaunched.validate("contact", [:])
        #expect(verdict.source == .local && verdict.state.errors.map(\.code) == ["required"])
        // Without a cached definition, or with offline off, the failure is reported.
        let fresh = FormdClient(server: address)
        await #expect(throws: FormdClientError.self) { try await fresh.validate("contact", [:]) }
        let strict = FormdClient(server: address, offline: false, cacheDirectory: folder.url)
        do {
            _ = try await strict.validate("contact", [:])
            Issue.record("offline off must throw")
        } catch {
            #expect(error.isUnreachable)
        }
    }

    @Test func statusesMapToErrors() {
        let problem = Data(#"{"type":"/problems/overloaded","title":"Service Unavailable","status":503,"detail":"too many connections"}"#.utf8)
        let overloaded = FormdClientError(status: 503, body: problem, retryAfter: " 7 ")
        #expect(overloaded == .overloaded(Problem(type: "/problems/overloaded", title: "Service Unavailable", status: 503, detail: "too many connections"), retryAfter: 7))
        let stale = FormdClientError(status: 412, body: Data(#"{"type":"/problems/precondition-failed","title":"Precondition Failed","status":412,"detail":"x"}"#.utf8), retryAfter: nil)
        guard case .preconditionFailed(let p) = stale else { Issue.record("\(stale)"); return }
        #expect(p.slug == "precondition-failed")
        let odd = FormdClientError(status: 502, body: Data("<html>".utf8), retryAfter: nil)
        #expect(odd == .server(status: 502, nil))
    }
}
