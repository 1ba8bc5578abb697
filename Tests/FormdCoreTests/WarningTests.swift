import Testing
@testable import FormdCore

/// SEMANTICS §6.1: `warnings` blocks inform and never make a submission invalid.
@Suite struct WarningTests {
    static let def = #"""
        {"messages": {"nb": {"max_value": "Over {max}?"}},
         "groups": [{"id": "g", "sections": [{"id": "s", "fields": [
          {"id": "amount", "type": "float", "title": "Amount",
           "validations": {"required": true, "min_value": 0},
           "warnings": {"max_value": 1000, "messages": {"max_value": "{label} is unusually high (over {max})."}}},
          {"id": "nick", "type": "text", "title": "Nickname",
           "warnings": {"required": true, "min_length": 3, "format": "^[a-z]+$"}},
          {"id": "start", "type": "date"},
          {"id": "end", "type": "date", "warnings": {"compare_to": "start", "compare_rule": ">="}},
          {"id": "tags", "type": "multi_select", "values": [{"id": "a"}, {"id": "b"}, {"id": "c"}], "warnings": {"max_selections": 2}},
          {"id": "age", "type": "count", "warnings": {"rules": [{"condition": "$age >= 18", "code": "minor", "message": "Under 18: a guardian must sign."}]}},
          {"id": "total", "type": "float", "disabled": true, "formula": "amount * 2", "warnings": {"max_value": 100}}
        ]}]}]}
        """#

    @Test func warningsAreListedAndNeverInvalidate() throws {
        let values = #"{"amount": 5000, "nick": "X1", "start": "2024-05-02", "end": "2024-05-01", "tags": ["a", "b", "c"], "age": 12}"#
        let form = try Engine.load(Self.def)
        let r = try Engine.run(form, values, mode: .validate)
        #expect(r.valid == true)
        #expect(r.errorList == [])
        #expect(
            r.warningList == [
                "amount:max_value", "nick:min_length", "nick:format", "end:compare", "tags:max_selections", "age:minor",
                "total:max_value",
            ])
        #expect(r.state.warnings(for: "amount").first?.message == "Amount is unusually high (over 1000).")
        #expect(r.state.warnings(for: "age").first?.message == "Under 18: a guardian must sign.")
        // On the wire: the same shape as errors, after them.
        let root = r.root
        #expect(root["valid"] == .bool(true))
        let first = try #require(root["warnings"]?.arrayValue?.first)
        #expect(first["field"]?.stringValue == "amount")
        #expect(first["code"]?.stringValue == "max_value")
        #expect(first["params"]?["max"]?.jsonText == "1000")
        let text = String(decoding: try r.json(), as: UTF8.self)
        let errorsAt = try #require(text.range(of: "\"errors\""))
        let warningsAt = try #require(text.range(of: "\"warnings\""))
        #expect(errorsAt.lowerBound < warningsAt.lowerBound)
        // Evaluate too.
        let e = try Engine.run(form, values)
        #expect(e.warningList.count == 7)
        #expect(e.root["warnings"]?.arrayValue?.count == 7)
    }

    @Test func warningsBesideErrors() throws {
        let r = try Engine.run(Self.def, #"{"amount": -1}"#, mode: .validate)
        #expect(r.errorList == ["amount:min_value"])
        #expect(r.warningList == ["nick:required"])
        #expect(r.valid == false)
        // A value the kind cannot hold is a type error only.
        let t = try Engine.run(Self.def, #"{"amount": "lots", "nick": "abc"}"#, mode: .validate)
        #expect(t.errorList == ["amount:type"])
        #expect(t.warningList == [])
    }

    @Test func warningRequiredFollowsEvaluatesChangedRule() throws {
        let form = try Engine.load(Self.def)
        #expect(try Engine.run(form, #"{"amount": 1}"#).warningList == [])
        #expect(try Engine.run(form, #"{"amount": 1}"#, changed: ["nick"]).warningList == ["nick:required"])
    }

    @Test func localeAndFormOverrides() throws {
        let r = try Engine.run(Self.def, #"{"amount": 60, "nick": "abc"}"#, mode: .validate, locale: .nb)
        #expect(r.warningList == ["total:max_value"])
        #expect(r.state.warnings(for: "total").first?.message == "Over 100?")
    }

    @Test func formsWithoutWarningsHaveNoWarningsKey() throws {
        let r = try Engine.run(Engine.fields(#"{"id": "a", "type": "text"}"#), #"{}"#, mode: .validate)
        #expect(r.root["warnings"] == nil)
        let w = try Engine.run(Self.def, #"{"amount": 1, "nick": "abc"}"#, mode: .validate)
        #expect(w.root["warnings"] == .array([]))
    }

    @Test func typedStatesRoundTripWarnings() throws {
        let form = try Engine.load(Self.def)
        let values = #"{"amount": 5000, "nick": "abc"}"#
        let bytes = try Engine.body(form, values, mode: .validate)
        let state = try FormState(answer: bytes)
        #expect(state.warnings.map(\.code) == ["max_value", "max_value"])
        #expect(state.answerJSON == bytes)
        let typed = try Engine.run(form, values, mode: .validate).state
        #expect(typed.answerJSON == bytes)
    }

    @Test func hiddenFieldsHaveNoWarnings() throws {
        let def = Engine.fields(#"{"id": "a", "type": "text", "hidden": true, "warnings": {"required": true}}"#)
        #expect(try Engine.run(def, #"{}"#, mode: .validate).warningList == [])
    }

    @Test func badWarningBlocksAreLoadErrors() throws {
        #expect(Engine.errors(Engine.fields(#"{"id": "a", "type": "text", "warnings": true}"#)).count == 1)
        #expect(Engine.errors(Engine.fields(#"{"id": "a", "type": "text", "warnings": {"compare_to": "zz"}}"#)).count == 1)
        #expect(Engine.errors(Engine.fields(#"{"id": "a", "type": "text", "warnings": {"format": "("}}"#)).count == 1)
        #expect(Engine.warnings(Engine.fields(#"{"id": "a", "type": "text", "warnings": {"max_lenght": 3}}"#)).count == 1)
    }
}
