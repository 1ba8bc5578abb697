import Testing
@testable import FormdCore

/// A definition may name its JSON Schema with `"$schema"` (docs/FORMAT.md §1) without a warning.
@Suite struct DefinitionSchemaKeyTests {
    @Test func schemaKeyIsKnown() {
        let def = #"{"$schema": "http://localhost:8080/schemas/form-definition.json", "groups": [{"sections": []}]}"#
        #expect(Engine.diagnostics(def).isEmpty)
        #expect(Engine.warnings(#"{"$schemas": "x", "groups": []}"#).count == 1, "other unknown keys still warn")
    }
}
