import Foundation
import FormdClient
import FormdCore
import FormdService
import FormdTestSupport
import Logging
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Form versions (issue 32): `formd publish` keeps the replaced definition as a flat file, a
/// request names the version it was rendered with, and a version not held is a 412, never an
/// answer against another version.
enum VersionFixtures {
    /// `min` is the shortest name accepted: "Ola" is valid with 2, invalid with 5.
    static func contact(min: Int, extra: String = "", topics: String = #"{"id": "a", "title": "Sales"}, {"id": "b", "title": "Support"}"#) -> String {
        """
        {"title": "Contact", "groups": [{"id": "g", "sections": [{"id": "s", "fields": [
          {"id": "name", "type": "text", "title": "Name", "validations": {"required": true, "min_length": \(min)}},
          {"id": "topic", "type": "select", "title": "Topic", "values": [\(topics)]}\(extra)
        ]}]}]}
        """
    }

    static func version(_ text: String) throws -> String { try Form(id: "contact", json: Array(text.utf8)).version }

    static func hash(_ version: String) -> String { String(version.dropFirst().dropLast()) }

    static func names(_ folder: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }
}

@Suite("form versions: names, changes, lint, publish")
struct VersionUnitTests {
    @Test func keptFileNamesRoundTripAndRefuseLookalikes() {
        let n = KeptVersionName(id: "contact", published: "20261126T203252Z", hash: String(repeating: "ab", count: 16))
        #expect(KeptVersionName(fileName: n.fileName) == n)
        #expect(n.version == "\"" + String(repeating: "ab", count: 16) + "\"")
        #expect(n.publishedISO == "2026-11-26T20:32:52Z")
        // Only ConfigMap key characters.
        #expect(n.fileName.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        for bad in [
            "contact.json", "contact.20261126T203252Z.json", "contact.20261126T203252Z.ABABABABABABABABABABABABABABABAB.json",
            "con tact.20261126T203252Z.\(String(repeating: "ab", count: 16)).json", "contact.2026112xT203252Z.\(String(repeating: "ab", count: 16)).json",
            "a.b.20261126T203252Z.\(String(repeating: "ab", count: 16)).json", String(repeating: "a", count: 5000) + ".json",
        ] {
            #expect(KeptVersionName(fileName: bad) == nil, "\(bad)")
        }
    }

    @Test func versionTagsAreParsedBoundedly() {
        let hex = String(repeating: "0f", count: 16)
        #expect(KeptVersionName.hash(ofVersion: "\"\(hex)\"") == hex)
        #expect(KeptVersionName.hash(ofVersion: "\"\(hex)-nb\"") == hex, "a per-language variant pins the same version")
        for bad in ["", "*", hex, "\"\(hex)", "\"stale\"", "W/\"\(hex)\"", "\"\(hex.uppercased())\"", "\"" + String(repeating: "a", count: 100_000) + "\""] {
            #expect(KeptVersionName.hash(ofVersion: Substring(bad)) == nil, "\(bad.prefix(40))")
        }
    }

    @Test func fieldChangesAndBreakingChanges() throws {
        let old = try Form(id: "contact", json: Array(VersionFixtures.contact(min: 2).utf8))
        let new = try Form(
            id: "contact",
            json: Array(VersionFixtures.contact(min: 5, extra: #", {"id": "phone", "type": "text"}"#, topics: #"{"id": "a", "title": "Sales"}"#).utf8))
        let changes = FieldChanges(from: old, to: new)
        #expect(changes.added == ["phone"])
        #expect(changes.removed == [])
        #expect(changes.changed == ["name", "topic"])
        let lint = BreakingChanges.lint(old: old, new: new)
        #expect(lint.contains { $0.severity == .error && $0.message.contains("option \"b\"") && $0.message.contains("removed") })
        #expect(!lint.contains { $0.message.contains("phone") }, "an optional new field breaks nothing")
        // A required field added without a default; a type change; an option given another meaning.
        let worse = try Form(
            id: "contact",
            json: Array(
                VersionFixtures.contact(
                    min: 2, extra: #", {"id": "email", "type": "email", "validations": {"required": true}}"#,
                    topics: #"{"id": "a", "title": "Complaints"}, {"id": "b", "title": "Support"}"#
                ).replacingOccurrences(of: #""id": "name", "type": "text""#, with: #""id": "name", "type": "number""#).utf8))
        let errors = BreakingChanges.lint(old: old, new: worse).filter { $0.severity == .error }.map(\.message)
        #expect(errors.contains { $0.contains("\"email\"") && $0.contains("no default") }, "\(errors)")
        #expect(errors.contains { $0.contains("\"name\"") && $0.contains("type text") }, "\(errors)")
        #expect(errors.contains { $0.contains("option \"a\"") && $0.contains("another title") }, "\(errors)")
        #expect(BreakingChanges.lint(old: old, new: worse, allow: true).allSatisfy { $0.severity == .warning })
    }

    @Test func publishKeepsTheReplacedVersionByteForByteAndPrunes() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        let v1Text = VersionFixtures.contact(min: 2)
        try folder.write("Forms/contact.json", v1Text)
        var versions = [try VersionFixtures.version(v1Text)]
        for min in 3...6 {
            let text = VersionFixtures.contact(min: min)
            let file = try folder.write("new/contact.json", text)
            let outcome = try Publisher.publish(definition: file.path, forms: forms.path, keep: 2)
            #expect(outcome.replaced == versions.last)
            versions.append(try VersionFixtures.version(text))
            #expect(outcome.version == versions.last)
        }
        let kept = VersionFixtures.names(forms).compactMap(KeptVersionName.init(fileName:))
        #expect(kept.count == 2, "--keep 2: \(VersionFixtures.names(forms))")
        #expect(Set(kept.map(\.version)) == Set(versions[2...3]), "the two most recent replaced versions")
        // Each kept file is the old definition's bytes: it loads as exactly its old version.
        for k in kept {
            let form = try KeptVersionName.load(
                path: forms.appendingPathComponent(k.fileName).path, name: k, maxFileBytes: 1 << 20, options: EvaluationOptions()
            ).get()
            #expect(form.version == k.version)
        }
        #expect(!VersionFixtures.names(forms).contains { $0.hasSuffix(".tmp") }, "no temporary file left")

        // Publishing the current definition again changes nothing.
        let same = try folder.write("new/contact.json", VersionFixtures.contact(min: 6))
        #expect(try Publisher.publish(definition: same.path, forms: forms.path).unchanged)

        // Rolling back to a kept version: it becomes current and is no longer listed as kept.
        let back = try folder.write("new/contact.json", VersionFixtures.contact(min: 5))
        _ = try Publisher.publish(definition: back.path, forms: forms.path)
        let after = VersionFixtures.names(forms).compactMap(KeptVersionName.init(fileName:))
        #expect(!after.contains { $0.version == versions[3] }, "\(after)")
        #expect(after.contains { $0.version == versions[4] }, "the replaced one is kept")
    }

    /// A definition may say how many versions it keeps (`keep_versions`); `--keep` still wins.
    @Test func theDefinitionSaysHowManyVersionsItKeeps() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        func text(_ min: Int, keep: Int) -> String {
            VersionFixtures.contact(min: min).replacingOccurrences(of: #"{"title": "Contact","#, with: #"{"title": "Contact", "keep_versions": \#(keep),"#)
        }
        try folder.write("Forms/contact.json", text(1, keep: 1))
        for min in 2...5 {
            let file = try folder.write("new/contact.json", text(min, keep: 1))
            _ = try Publisher.publish(definition: file.path, forms: forms.path)
        }
        #expect(VersionFixtures.names(forms).compactMap(KeptVersionName.init(fileName:)).count == 1, "\(VersionFixtures.names(forms))")
        for min in 6...8 {
            let file = try folder.write("new/contact.json", text(min, keep: 3))
            _ = try Publisher.publish(definition: file.path, forms: forms.path)
        }
        #expect(VersionFixtures.names(forms).compactMap(KeptVersionName.init(fileName:)).count == 3, "the new definition's keep_versions")
        let file = try folder.write("new/contact.json", text(9, keep: 3))
        _ = try Publisher.publish(definition: file.path, forms: forms.path, keep: 0)
        #expect(VersionFixtures.names(forms).compactMap(KeptVersionName.init(fileName:)).isEmpty, "--keep 0 wins over keep_versions")
        // Out of range or not a count: a load error at its place.
        for bad in ["-1", "1001", "\"3\"", "2.5"] {
            let source = VersionFixtures.contact(min: 1).replacingOccurrences(of: #"{"title": "Contact","#, with: #"{"title": "Contact", "keep_versions": \#(bad),"#)
            #expect(throws: FormDefinitionError.self, "keep_versions \(bad)") { try Form(id: "contact", json: Array(source.utf8)) }
        }
        #expect(try Form(id: "contact", json: Array(text(1, keep: 4).utf8)).keepVersions == 4)
    }

    @Test func aFailingPublishChangesNothingOnDisk() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/contact.json", VersionFixtures.contact(min: 2))
        let before = try VersionFixtures.names(forms).map { ($0, try Data(contentsOf: forms.appendingPathComponent($0))) }
        // A definition with an error, and one with a breaking change (an option removed).
        let broken = try folder.write("new/contact.json", #"{"title": "x", "groups": [{"id": "g", "sections": [{"id": "s", "fields": [{"id": "a", "type": "te"#)
        #expect(throws: Publisher.Failure.self) { try Publisher.publish(definition: broken.path, forms: forms.path) }
        let breaking = try folder.write("new/contact.json", VersionFixtures.contact(min: 2, topics: #"{"id": "a", "title": "Sales"}"#))
        do {
            _ = try Publisher.publish(definition: breaking.path, forms: forms.path)
            Issue.record("a breaking change was published without --allow")
        } catch {
            #expect(error.description.contains("contact.json:"), "located: \(error.description)")
            #expect(error.description.contains("nothing published"))
        }
        let after = try VersionFixtures.names(forms).map { ($0, try Data(contentsOf: forms.appendingPathComponent($0))) }
        #expect(after.map(\.0) == before.map(\.0))
        #expect(after.map(\.1) == before.map(\.1))
        // --allow publishes it.
        #expect(try Publisher.publish(definition: breaking.path, forms: forms.path, allow: true).keptFile != nil)
    }
}

@Suite("form versions over HTTP", .timeLimit(.minutes(3)))
struct VersionServerTests {
    static let deadline: TimeInterval = 15

    /// A folder with `contact` published twice (v1 min 2 → v2 min 5) and `other`, and a server on it.
    final class Published: @unchecked Sendable {
        let folder: TempFolder
        let forms: URL
        let v1: String
        let v2: String
        let server: FormdServerProcess

        init(environment: [String: String] = [:]) throws {
            folder = try TempFolder()
            forms = try folder.subfolder("Forms")
            try folder.write("Forms/contact.json", VersionFixtures.contact(min: 2))
            try folder.write("Forms/other.json", Fixtures.titled("Other"))
            v1 = try VersionFixtures.version(VersionFixtures.contact(min: 2))
            let next = try folder.write("new/contact.json", VersionFixtures.contact(min: 5, extra: #", {"id": "phone", "type": "text"}"#))
            v2 = try Publisher.publish(definition: next.path, forms: forms.path).version
            server = try FormdServerProcess(forms: forms, environment: environment, directory: folder.url)
        }
    }

    func validate(_ s: FormdServerProcess, _ headers: [(String, String)] = [], query: String = "", name: String = "Ola") throws -> TestResponse {
        try s.request("POST", "/forms/contact/validate" + query, headers: headers, json: #"{"name": "\#(name)"}"#)
    }

    @Test func aKeptVersionAnswersWithItsOwnVerdictAndSaysWhatChanged() throws {
        let p = try Published()
        let now = try validate(p.server)
        #expect(now.status == 422, "current (min 5): \(now.text)")
        #expect(now.object["version"] as? String == p.v2)
        #expect(now.object["current_version"] == nil, "no current_version when answering with the current one")

        let old = try validate(p.server, [("If-Match", p.v1)])
        #expect(old.status == 200, "kept (min 2): \(old.text)")
        #expect(old.object["version"] as? String == p.v1)
        #expect(old.object["current_version"] as? String == p.v2)
        let since = old.object["changed_since"] as? [String: [String]]
        #expect(since?["added"] == ["phone"])
        #expect(since?["changed"] == ["name"])
        #expect(since?["removed"] == [])

        // The query equivalent, with or without the quotes.
        for q in ["?version=\(VersionFixtures.hash(p.v1))", "?version=%22\(VersionFixtures.hash(p.v1))%22"] {
            let r = try validate(p.server, query: q)
            #expect(r.status == 200 && r.object["version"] as? String == p.v1, "\(q): \(r.text)")
        }
        // A list naming the current version picks it; `*` is the current one.
        #expect(try validate(p.server, [("If-Match", "\(p.v1), \(p.v2)")]).object["version"] as? String == p.v2)
        #expect(try validate(p.server, [("If-Match", "*")]).object["version"] as? String == p.v2)
        // Evaluate too.
        let e = try p.server.request("POST", "/forms/contact/evaluate", headers: [("If-Match", p.v1)], json: #"{"values": {"name": "Ola"}}"#)
        #expect(e.status == 200 && e.object["version"] as? String == p.v1 && e.object["current_version"] as? String == p.v2, "\(e.text)")
    }

    @Test func aVersionNotHeldIsA412ListingTheVersionsHeld() throws {
        let p = try Published()
        let unknown = "\"" + String(repeating: "0", count: 32) + "\""
        for headers in [[("If-Match", unknown)], [("If-Match", "\"stale\"")], [("If-Match", "W/\(p.v1)")]] {
            let r = try validate(p.server, headers)
            #expect(r.status == 412, "\(headers): \(r.text)")
            #expect(r.header("Content-Type") == "application/problem+json")
            #expect(r.object["type"] as? String == "/problems/precondition-failed")
            #expect(r.object["code"] as? String == "version-not-held")
            #expect(r.object["versions"] as? [String] == [p.v2, p.v1])
            #expect(r.object["current_version"] as? String == p.v2)
        }
        let q = try validate(p.server, query: "?version=nope")
        #expect(q.status == 412 && q.object["code"] as? String == "version-not-held")
        // Another form's version is not this form's.
        let otherVersion = try #require(try p.server.request("GET", "/forms/other").header("ETag"))
        #expect(try validate(p.server, [("If-Match", otherVersion)]).status == 412)
    }

    @Test func hostileVersionStringsAre4xxAndCheap() throws {
        let p = try Published()
        let many = (0..<2000).map { "\"\(String(format: "%032x", $0))\"" }.joined(separator: ",")
        let r1 = try validate(p.server, [("If-Match", String(many.prefix(15_000)))])
        #expect(r1.status == 400, "\(r1.text.prefix(200))")
        let huge = "\"" + String(repeating: "a", count: 12_000) + "\""
        let r2 = try validate(p.server, [("If-Match", huge)])
        #expect(r2.status == 412)
        #expect(r2.body.count < 2048, "the problem does not echo a huge tag")
        let r3 = try validate(p.server, query: "?version=" + String(repeating: "%22", count: 1000))
        #expect((400..<500).contains(r3.status))
        let many2 = (0..<500).map { _ in "x" }.joined(separator: ",")
        #expect(try validate(p.server, query: "?version=" + many2).status == 400)
        for path in ["/forms/contact/versions/" + String(repeating: "f", count: 5000), "/forms/contact/versions/%22zz%22", "/forms/contact/versions/x/y"] {
            let r = try p.server.request("GET", path)
            #expect((400..<500).contains(r.status), "\(path.prefix(60)): \(r.status)")
        }
        #expect(try p.server.request("GET", "/healthz").status == 200)
    }

    @Test func versionsAreListedAndServedImmutable() throws {
        let p = try Published()
        let list = try p.server.request("GET", "/forms/contact/versions")
        #expect(list.status == 200)
        let versions = list.object["versions"] as? [[String: Any]] ?? []
        #expect(versions.map { $0["version"] as? String } == [p.v2, p.v1])
        #expect(versions.first?["current"] as? Bool == true)
        #expect((versions.last?["published"] as? String)?.hasSuffix("Z") == true)
        #expect((versions.last?["changed_since"] as? [String: [String]])?["added"] == ["phone"])

        for v in [p.v1, p.v2] {
            let r = try p.server.request("GET", "/forms/contact/versions/" + VersionFixtures.hash(v))
            #expect(r.status == 200)
            #expect(r.header("ETag") == v)
            #expect(r.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(try Form(id: "contact", json: r.body).version == v, "served byte for byte")
            let schema = try p.server.request("GET", "/forms/contact/versions/%22\(VersionFixtures.hash(v))%22/schema")
            #expect(schema.status == 200 && (schema.object["description"] as? String)?.contains(v) == true)
            let openapi = try p.server.request("GET", "/forms/contact/versions/\(VersionFixtures.hash(v))/openapi.json")
            #expect(openapi.status == 200 && (openapi.object["paths"] as? [String: Any])?["/forms/contact/validate"] != nil)
        }
        let unknown = try p.server.request("GET", "/forms/contact/versions/" + String(repeating: "0", count: 32))
        #expect(unknown.status == 404 && unknown.object["code"] as? String == "version-not-held", "\(unknown.text)")
        #expect(try p.server.request("POST", "/forms/contact/versions").status == 405)
    }

    /// Evaluate state tokens of a kept version keep working after the form changes again.
    @Test func stateTokensOfAKeptVersionSurviveAReload() throws {
        let p = try Published()
        let first = try p.server.request(
            "POST", "/forms/contact/evaluate", headers: [("If-Match", p.v1)], json: #"{"values": {"name": "O"}, "state": null}"#)
        let token = try #require(first.object["state"] as? String, "\(first.text)")
        // Publish v3: v2 is kept now too, v1 still is.
        let next = try p.folder.write("new/contact.json", VersionFixtures.contact(min: 7, extra: #", {"id": "phone", "type": "text"}"#))
        let v3 = try Publisher.publish(definition: next.path, forms: p.forms.path).version
        let seen = try eventually(within: Self.deadline) {
            try p.server.request("GET", "/forms/contact").header("ETag") == v3 ? true : nil
        }
        #expect(seen == true)
        let again = try p.server.request(
            "POST", "/forms/contact/evaluate", headers: [("If-Match", p.v1)],
            json: #"{"values": {"name": "Ola"}, "changed": ["name"], "state": "\#(token)"}"#)
        #expect(again.status == 200, "\(again.text)")
        #expect(again.object["version"] as? String == p.v1)
        #expect(again.object["current_version"] as? String == v3)
        #expect(again.object["changes"] != nil)
        #expect(try validate(p.server, [("If-Match", p.v2)]).object["version"] as? String == p.v2, "the replaced v2 is held at once")
    }

    @Test func aDamagedKeptFileIsRefusedWithItsLocationAndTheRestServes() throws {
        let p = try Published()
        // Hand-edited: bytes that no longer hash to the name; and one that does not parse.
        let kept = try #require(VersionFixtures.names(p.forms).first { KeptVersionName(fileName: $0) != nil })
        try Data(VersionFixtures.contact(min: 3).utf8).write(to: p.forms.appendingPathComponent(kept))
        let broken = KeptVersionName(id: "contact", published: "20200101T000000Z", hash: String(repeating: "1", count: 32))
        try Data("{\n  \"title\": \n".utf8).write(to: p.forms.appendingPathComponent(broken.fileName))
        for (version, name) in [(p.v1, kept), (broken.version, broken.fileName)] {
            // Noticed and checked when it appears or changes, not only when asked for.
            let logged = p.server.child.stderr.wait(until: Date() + Self.deadline) {
                $0.split(separator: "\n").contains { $0.contains(name + ":") && $0.contains("kept version refused") } ? true : nil
            }
            #expect(logged == true, "refusal logged with file:line:col: \(p.server.child.stderr.text)")
            let r = try validate(p.server, [("If-Match", version)])
            #expect(r.status == 412 && r.object["code"] as? String == "version-not-held", "\(name): \(r.text)")
        }
        #expect(p.server.child.stderr.text.contains(broken.fileName + ":3:1:"), "\(p.server.child.stderr.text)")
        #expect(try validate(p.server).status == 422, "the current version serves")
        #expect(try p.server.request("GET", "/forms/other").status == 200)
        let list = try p.server.request("GET", "/forms/contact/versions")
        #expect((list.object["versions"] as? [[String: Any]])?.count == 1, "refused versions are not listed: \(list.text)")

        // formd check reports both, located.
        let check = try FormdProcess.run(["check", p.forms.path], directory: p.folder.url)
        #expect(check.status == 1)
        #expect(check.stdout.contains(kept + ":1:1: error:"), "\(check.stdout)")
        #expect(check.stdout.contains(broken.fileName + ":3:1: error:"), "\(check.stdout)")
    }

    /// A damaged kept file already there at start-up: start-up does not read it (ready at once),
    /// the background pass after indexing refuses it with its location; the rest serves.
    @Test func aDamagedKeptFileAtStartUpIsRefusedInTheBackground() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/contact.json", VersionFixtures.contact(min: 5))
        let damaged = KeptVersionName(id: "contact", published: "20200101T000000Z", hash: String(repeating: "2", count: 32))
        try folder.write("Forms/\(damaged.fileName)", "{\n  \"title\": [\n")
        let server = try FormdServerProcess(forms: forms, directory: folder.url)
        let logged = server.child.stderr.wait(until: Date() + Self.deadline) {
            $0.split(separator: "\n").contains { $0.contains(damaged.fileName + ":3:1:") && $0.contains("kept version refused") } ? true : nil
        }
        #expect(logged == true, "\(server.child.stderr.text)")
        #expect(try server.request("POST", "/forms/contact/validate", headers: [("If-Match", damaged.version)], json: "{}").status == 412)
        #expect(try server.request("POST", "/forms/contact/validate", json: #"{"name": "Kari Nordmann"}"#).status == 200)
    }

    /// A kept version whose remote rule names a validator the settings do not declare is refused
    /// like a current definition would be (logged with its place), never served to answer 503s.
    @Test func aKeptVersionNamingAnUndeclaredValidatorIsRefused() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/contact.json", VersionFixtures.contact(min: 5))
        let text = VersionFixtures.contact(min: 2).replacingOccurrences(
            of: #""validations": {"required": true, "min_length": 2}"#, with: #""validations": {"required": true, "min_length": 2, "remote": "users"}"#)
        #expect(text.contains("\"remote\""))
        let version = try VersionFixtures.version(text)
        let kept = KeptVersionName(id: "contact", published: "20200101T000000Z", hash: VersionFixtures.hash(version))
        try folder.write("Forms/\(kept.fileName)", text)
        let server = try FormdServerProcess(forms: forms, directory: folder.url)
        let logged = server.child.stderr.wait(until: Date() + Self.deadline) {
            $0.split(separator: "\n").contains { $0.contains(kept.fileName + ":") && $0.contains("kept version refused") && $0.contains("users") } ? true : nil
        }
        #expect(logged == true, "\(server.child.stderr.text)")
        #expect(try server.request("POST", "/forms/contact/validate", headers: [("If-Match", version)], json: #"{"name": "Kari"}"#).status == 412)
        #expect(try server.request("POST", "/forms/contact/validate", json: #"{"name": "Kari Nordmann"}"#).status == 200)
    }

    /// Every replica reports the digest of its form set: the same folder, the same digest, in
    /// `/readyz`, on every form answer and in `/metrics`; a publish changes it.
    @Test func replicasReportTheDigestOfTheirFormSet() throws {
        let p = try Published()
        let twin = try FormdServerProcess(forms: p.forms, directory: p.folder.url)
        func digest(_ s: FormdServerProcess) throws -> String? {
            try eventually(within: Self.deadline) { () -> String? in
                let r = try s.request("GET", "/readyz")
                return r.object["indexing"] == nil ? r.object["forms_digest"] as? String : nil
            }
        }
        let d = try #require(try digest(p.server))
        #expect(try digest(twin) == d)
        let ready = try p.server.request("GET", "/readyz").object
        #expect(ready["forms"] as? Int == 2 && ready["versions"] as? Int == 3, "\(ready)")
        #expect(try validate(p.server).header("Formd-Forms-Digest") == d)
        #expect(try validate(p.server, [("If-Match", "\"nope\"")]).header("Formd-Forms-Digest") == d)
        #expect(try p.server.request("GET", "/metrics").text.contains(#"formd_forms_digest_info{digest="\#(d)"} 1"#))

        let next = try p.folder.write("new/contact.json", VersionFixtures.contact(min: 9, extra: #", {"id": "phone", "type": "text"}"#))
        _ = try Publisher.publish(definition: next.path, forms: p.forms.path)
        let changed = try eventually(within: Self.deadline) { () -> String? in
            let now = try p.server.request("GET", "/readyz").object["forms_digest"] as? String
            return now != d ? now : nil
        }
        #expect(changed != nil, "a publish changes the digest")
        let twinChanged = try eventually(within: Self.deadline) { try digest(twin) == changed ? true : nil }
        #expect(twinChanged == true, "and both replicas agree again")
    }

    @Test func publishAndCheckFromTheCommandLine() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/contact.json", VersionFixtures.contact(min: 2))
        let next = try folder.write("contact.json", VersionFixtures.contact(min: 5))
        let publish = try FormdProcess.run(["publish", next.path, "--forms", forms.path, "--keep", "3"], directory: folder.url)
        #expect(publish.status == 0, "\(publish.stderr)")
        #expect(publish.stderr.contains("kept contact."))
        let check = try FormdProcess.run(["check", forms.path], directory: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("2 files"), "the kept version is checked too: \(check.stderr)")
        // --against: a removed option is an error, a warning with --allow.
        let bad = try folder.write("bad/contact.json", VersionFixtures.contact(min: 5, topics: #"{"id": "a", "title": "Sales"}"#))
        let against = try FormdProcess.run(["check", bad.path, "--against", forms.path], directory: folder.url)
        #expect(against.status == 1)
        #expect(against.stdout.contains("bad/contact.json:") && against.stdout.contains("option \"b\""), "\(against.stdout)")
        let allowed = try FormdProcess.run(["check", bad.path, "--against", forms.path, "--allow"], directory: folder.url)
        #expect(allowed.status == 0)
        let refused = try FormdProcess.run(["publish", bad.path, "--forms", forms.path], directory: folder.url)
        #expect(refused.status == 1)
        #expect(try String(contentsOf: forms.appendingPathComponent("contact.json"), encoding: .utf8) == VersionFixtures.contact(min: 5))
    }

}

@Suite("form versions in a ConfigMap volume")
struct VersionConfigMapTests {
    /// The kubelet swaps `..data` to a folder holding the new `contact.json` and the kept file of
    /// the version it replaced, and links the kept file's top-level name only afterwards. The
    /// replaced version must be held from the instant the new one serves.
    @Test func theReplacedVersionIsHeldTheInstantTheNewOneServes() throws {
        let f = try TempFolder()
        let fm = FileManager.default
        let scratch = try f.subfolder("scratch")
        try f.write("scratch/contact.json", VersionFixtures.contact(min: 2))
        let v1 = try VersionFixtures.version(VersionFixtures.contact(min: 2))
        try f.write("..v1/contact.json", VersionFixtures.contact(min: 2))
        let next = try f.write("new/contact.json", VersionFixtures.contact(min: 5))
        let v2 = try Publisher.publish(definition: next.path, forms: scratch.path).version
        let volume = try f.subfolder("volume")
        try fm.copyItem(at: f.url.appendingPathComponent("..v1"), to: volume.appendingPathComponent("..v1"))
        try fm.copyItem(at: scratch, to: volume.appendingPathComponent("..v2"))
        try fm.createSymbolicLink(atPath: volume.appendingPathComponent("..data").path, withDestinationPath: "..v1")
        try fm.createSymbolicLink(atPath: volume.appendingPathComponent("contact.json").path, withDestinationPath: "..data/contact.json")
        let r = FormRegistry(directory: volume.path, logger: Logger(label: "test"))
        r.loadAll(indexInBackground: false)
        #expect(try r.startWatching(mode: .inotify) == .inotify)
        defer { r.stopWatching() }
        #expect(r.form("contact")?.version == v1)
        try fm.createSymbolicLink(atPath: volume.appendingPathComponent("..data_tmp").path, withDestinationPath: "..v2")
        #expect(rename(volume.appendingPathComponent("..data_tmp").path, volume.appendingPathComponent("..data").path) == 0)
        #expect(eventually(within: 5, every: 0.002) { r.form("contact")?.version == v2 ? true : nil } == true)
        // The kept file's top-level link does not exist yet; the version is held anyway.
        guard case .kept(let old, let current) = r.form("contact", versions: [Substring(v1)]) else {
            Issue.record("v1 not held right after the swap")
            return
        }
        #expect(old.version == v1 && current.version == v2)
        #expect(r.heldVersions("contact", current: current) == [v2, v1])
    }
}

/// `FormdClient` sends the version it rendered and handles a 412 by refetching, keeping the values,
/// evaluating again and saying what changed.
@Suite("FormdClient and form versions", .timeLimit(.minutes(2)))
struct VersionClientTests {
    @Test func aKeptVersionAnswersAndAVersionNoLongerKeptIsRefetched() async throws {
        let p = try VersionServerTests.Published()
        let formd = FormdClient(server: URL(string: "http://\(p.server.host):\(p.server.port)")!)
        // The app drew v1 earlier: v1 is kept, so it gets v1's verdict ("Ola" is long enough there).
        let v1Form = try Form(id: "contact", json: Array(VersionFixtures.contact(min: 2).utf8))
        guard case .answered(let old) = try await formd.validate(v1Form, ["name": "Ola"]) else {
            Issue.record("a kept version must answer")
            return
        }
        #expect(old.state.isValid && old.version == p.v1)

        // A version no replica holds (published and pruned long ago): refetch, same values, what changed.
        let ancient = try Form(id: "contact", json: Array(VersionFixtures.contact(min: 2, extra: #", {"id": "fax", "type": "text"}"#).utf8))
        switch try await formd.validate(ancient, ["name": "Ola", "fax": "123"]) {
        case .answered(let r):
            Issue.record("answered for a version not held: \(r.version)")
        case .formChanged(let form, let result, let change):
            #expect(form.version == p.v2)
            #expect(result.version == p.v2 && !result.state.isValid, "the current verdict: Ola is too short now")
            #expect(change.from == ancient.version && change.to == p.v2)
            #expect(change.added == ["phone"] && change.removed == ["fax"] && change.changed == ["name"])
        }
        // The problem carries the versions held.
        do {
            _ = try await formd.validate("contact", ["name": "Ola"], version: ancient.version)
            Issue.record("no 412")
        } catch {
            guard case .preconditionFailed(let problem) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(problem.code == "version-not-held" && problem.currentVersion == p.v2 && problem.versions == [p.v2, p.v1])
        }
        // Evaluate too.
        guard case .formChanged(_, let live, _) = try await formd.evaluate(ancient, ["name": "Ola", "fax": "1"], changed: ["fax"]) else {
            Issue.record("evaluate of a version not held must refetch")
            return
        }
        #expect(live.version == p.v2)
    }
}
