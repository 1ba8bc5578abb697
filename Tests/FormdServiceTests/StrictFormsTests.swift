import Foundation
import FormdTestSupport
import Testing

/// Definition warnings are logged at `warning` on every load and reload, and `forms.strict`
/// refuses forms that have any (docs/FORMAT.md §10).
@Suite("forms.strict and definition warnings", .timeLimit(.minutes(2)))
struct StrictFormsTests {
    static let typo = #"[{"sections": [{"id": "s", "fields": [{"id": "a", "type": "text", "validation": {"required": true}}]}]}]"#
    static let clean = #"[{"sections": [{"id": "s", "fields": [{"id": "a", "type": "text", "validations": {"required": true}}]}]}]"#

    @Test func warningsAreLoggedOnLoadAndReload() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/typo.json", Self.typo)
        let server = try FormdServerProcess(forms: forms, directory: folder.url)
        #expect(try server.request("GET", "/forms/typo").status == 200, "warnings alone do not refuse a form")
        let first = eventually(within: 5) { server.child.stderr.text.contains("did you mean") ? server.child.stderr.text : nil }
        let log = try #require(first, "the warning is logged at the default level (info)")
        #expect(log.contains("warning") && log.contains("definition warning") && log.contains("typo.json"), "\(log)")
        // A reload of new content logs its warnings again.
        try folder.write("Forms/typo.json", Self.typo.replacingOccurrences(of: #""id": "a""#, with: #""id": "b""#))
        let count = eventually(within: 5) {
            server.child.stderr.text.components(separatedBy: "did you mean").count - 1 >= 2 ? true : nil
        }
        #expect(count == true, "\(server.child.stderr.text)")
        #expect(server.stop() == 0)
    }

    @Test func strictRefusesFormsWithWarnings() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/typo.json", Self.typo)
        try folder.write("Forms/clean.json", Self.clean)
        let server = try FormdServerProcess(forms: forms, environment: ["FORMD_FORMS_STRICT": "true"], directory: folder.url)
        #expect(try server.request("GET", "/forms/typo").status == 404)
        #expect(try server.request("GET", "/forms/clean").status == 200)
        #expect(server.child.stderr.text.contains("form rejected"), "\(server.child.stderr.text)")
        // Fixing the typo serves the form.
        try folder.write("Forms/typo.json", Self.clean)
        #expect(try eventually(within: 5) { try server.request("GET", "/forms/typo").status == 200 ? true : nil } == true)
        #expect(server.stop() == 0)
    }
}
