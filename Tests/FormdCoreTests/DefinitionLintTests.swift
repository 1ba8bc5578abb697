import Testing
@testable import FormdCore

/// Warnings for definitions that load but probably do not do what was meant (docs/FORMAT.md §10).
@Suite struct DefinitionLintTests {
    private func warnings(_ fields: String...) -> [String] {
        Engine.warnings("[{\"sections\": [{\"id\": \"s\", \"fields\": [" + fields.joined(separator: ",") + "]}]}]").map(\.message)
    }

    @Test func unknownKeysNameTheKeyTheyResemble() {
        let w = warnings(#"{"id": "a", "type": "text", "validation": {"required": true}}"#)
        #expect(w == [#"unknown key "validation" is ignored; did you mean "validations"?"#])
        #expect(warnings(#"{"id": "a", "validations": {"requried": true, "max_lenght": 3}}"#) == [
            #"unknown key "requried" is ignored; did you mean "required"?"#,
            #"unknown key "max_lenght" is ignored; did you mean "max_length"?"#,
        ])
        #expect(warnings(#"{"id": "a", "colour_scheme": "red"}"#) == [#"unknown key "colour_scheme" is ignored"#], "nothing within two edits")
    }

    @Test func kindsThatResembleBuiltInOnes() {
        let integer = warnings(#"{"id": "age", "type": "integer", "validations": {"min_value": 18}}"#)
        #expect(integer.count == 1)
        #expect(integer.first?.contains(#""integer" is not a built-in kind"#) == true)
        #expect(integer.first?.contains(#"use "count" for whole numbers or "float" for decimals"#) == true)
        #expect(warnings(#"{"id": "m", "type": "emial"}"#).first?.hasSuffix(#"did you mean "email"?"#) == true)
        #expect(warnings(#"{"id": "t", "type": "Text"}"#).first?.hasSuffix(#"did you mean "text"?"#) == true)
        #expect(warnings(#"{"id": "b", "type": "boolean"}"#).first?.hasSuffix(#"did you mean "switch"?"#) == true)
        // Deliberate custom kinds, the original's among them, are not second-guessed.
        for custom in ["counter", "image", "phone_number", "signature", "address"] {
            #expect(warnings("{\"id\": \"c\", \"type\": \"\(custom)\"}").isEmpty, "\(custom)")
        }
    }

    @Test func hideLoopsAreFoundStatically() {
        let pair = warnings(
            #"{"id": "p", "targets": [{"id": "q", "type": "field", "action": "hide"}]}"#,
            #"{"id": "q", "targets": [{"id": "p", "type": "field", "action": "hide"}]}"#)
        #expect(pair.count == 1)
        #expect(pair.first?.contains("(p -> q -> p)") == true, "\(pair)")
        let selfLoop = warnings(#"{"id": "x", "targets": [{"id": "x", "type": "field", "action": "hide"}]}"#)
        #expect(selfLoop.first?.contains("(x -> x)") == true)
        // A field that hides its own section hides itself.
        let section = warnings(#"{"id": "x", "targets": [{"id": "s", "type": "section", "action": "hide"}]}"#)
        #expect(section.first?.contains("(x -> s -> x)") == true, "\(section)")
        // Option targets count too, through show as well as hide.
        let mixed = warnings(
            #"{"id": "a", "type": "select", "values": [{"id": 1, "targets": [{"id": "b", "type": "field", "action": "hide"}]}]}"#,
            #"{"id": "b", "targets": [{"id": "a", "type": "field", "action": "show"}]}"#)
        #expect(mixed.first?.contains("(a -> b -> a)") == true, "\(mixed)")
    }

    @Test func loopsWithoutHideAndChainsAreFine() {
        #expect(warnings(
            #"{"id": "a", "targets": [{"id": "b", "type": "field", "action": "show"}]}"#,
            #"{"id": "b", "targets": [{"id": "a", "type": "field", "action": "show"}]}"#).isEmpty, "show-only loops settle")
        #expect(warnings(
            #"{"id": "a", "targets": [{"id": "b", "type": "field", "action": "hide"}]}"#,
            #"{"id": "b", "targets": [{"id": "c", "type": "field", "action": "hide"}]}"#,
            #"{"id": "c"}"#).isEmpty, "a chain is not a loop")
        // A field target and a section with the same id are different things.
        #expect(warnings(#"{"id": "s", "targets": [{"id": "s", "type": "field", "action": "show"}, {"id": "t", "type": "section", "action": "hide"}]}"#)
            .allSatisfy { !$0.contains("loop") })
    }

    @Test func editDistanceCountsTranspositions() {
        func d(_ a: String, _ b: String) -> Int { DefinitionLint.editDistance(Array(a.utf8), Array(b.utf8), limit: 5) }
        #expect(d("emial", "email") == 1)
        #expect(d("requried", "required") == 1)
        #expect(d("counter", "count") == 2)
        #expect(d("", "abc") == 3)
        #expect(DefinitionLint.editDistance(Array("abcdefgh".utf8), Array("x".utf8), limit: 2) == 3, "capped above the limit")
    }
}
