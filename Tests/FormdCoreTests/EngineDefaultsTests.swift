import Testing
@testable import FormdCore

/// SEMANTICS §3: defaults.
@Suite struct EngineDefaultsTests {
    static let def = Engine.fields(
        #"{"id": "t", "type": "text", "value": 12}"#,
        #"{"id": "sel", "type": "select", "values": [{"id": "a"}, {"id": "b", "default": true}, {"id": "c", "default": true}]}"#,
        #"{"id": "seg", "type": "segment", "value": "part_2", "values": [{"id": "part_1", "default": true}, {"id": "part_2"}]}"#,
        #"{"id": "d", "type": "date", "value": "2014-01-01T00:00:00.002Z"}"#,
        #"{"id": "none", "type": "text"}"#)

    @Test func jsonValueThenFirstDefaultOption() throws {
        let r = try Engine.run(Self.def)
        #expect(r.valueKeys == ["t", "sel", "seg", "d"])
        #expect(r.text("t") == "\"12\"")  // coerced to the kind
        #expect(r.text("sel") == "\"b\"")  // first default option
        #expect(r.text("seg") == "\"part_2\"")  // JSON value beats default option
        #expect(r.text("d") == "\"2014-01-01\"")
        #expect(r.dropped.isEmpty)
    }

    @Test func submittedValueWinsAndNullGetsTheDefault() throws {
        let r = try Engine.run(Self.def, #"{"t": "mine", "sel": "c", "seg": null, "d": ""}"#)
        #expect(r.text("t") == "\"mine\"")
        #expect(r.text("sel") == "\"c\"")
        #expect(r.text("seg") == "\"part_2\"")
        #expect(r.text("d") == "\"2014-01-01\"")
    }

    @Test func invalidSubmissionDoesNotFallBackToDefault() throws {
        let r = try Engine.run(Self.def, #"{"sel": "zzz"}"#, mode: .validate)
        #expect(r.text("sel") == "\"zzz\"")
        #expect(r.codes("sel") == ["type"])
    }

    @Test func templateInstancesGetDefaults() throws {
        let def = #"""
            {"groups": [{"sections": [{"id": "tickets", "type": "dynamic"}]}],
             "templates": {"sections": [{"id": "tickets", "fields": [
                {"id": "tickets[:index].type", "type": "select", "values": [{"id": 0, "value": 39}, {"id": 1, "value": 10, "default": true}]},
                {"id": "tickets[:index].quantity", "type": "float", "value": 1},
                {"id": "tickets[:index].note", "type": "text"}]}]}}
            """#
        let r = try Engine.run(def, #"{"tickets[3].note": null, "tickets[1].quantity": 2}"#)
        #expect(r.valueKeys == ["tickets[1].type", "tickets[1].quantity", "tickets[3].type", "tickets[3].quantity"])
        #expect(r.text("tickets[1].type") == "1")
        #expect(r.text("tickets[1].quantity") == "2")
        #expect(r.text("tickets[3].quantity") == "1")
    }
}
