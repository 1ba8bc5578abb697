import Foundation
import Testing

/// `formd check` (API.md §10): diagnostics on standard output, a summary on standard error,
/// `--strict` failing on warnings.
@Suite("formd check", .timeLimit(.minutes(2)))
struct CheckCommandTests {
    @Test func strictFailsOnTheTypoAndNamesTheKeyMeant() throws {
        let folder = try TempFolder()
        try folder.write("typo.json", #"{"groups": [{"sections": [{"id": "s", "fields": [{"id": "a", "type": "text", "validation": {"required": true}}]}]}]}"#)
        let lenient = try FormdProcess.run(["check", "typo.json"], directory: folder.url)
        #expect(lenient.status == 0, "warnings alone do not fail")
        #expect(lenient.stdout.contains(#"typo.json:1:78: warning: groups[0].sections[0].fields[0].validation: unknown key "validation" is ignored; did you mean "validations"?"#), "\(lenient.stdout)")
        let strict = try FormdProcess.run(["check", "--strict", "typo.json"], directory: folder.url)
        #expect(strict.status == 1)
        #expect(strict.stdout == lenient.stdout)
        #expect(strict.stderr.contains("1 file, 1 form loadable, 0 errors, 1 warning (strict): failed"), "\(strict.stderr)")
    }

    @Test func successSaysWhatWasChecked() throws {
        let folder = try TempFolder()
        try folder.write("Forms/a.json", #"[{"sections": [{"fields": [{"id": "x"}]}]}]"#)
        try folder.write("Forms/b.json", #"[{"sections": [{"fields": [{"id": "y"}]}]}]"#)
        let r = try FormdProcess.run(["check", "--strict"], directory: folder.url)
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("formd check: 2 files, 2 forms loadable, 0 errors, 0 warnings (strict): ok"), "\(r.stderr)")
    }
}
