import Testing
@testable import FormdCore

/// SEMANTICS §5.2 and §5.3: targets in force and the computed state.
@Suite struct EngineTargetTests {
    static let contract = Engine.fields(
        #"{"id": "contract_type", "type": "select", "values": [{"id": 0, "default": true, "targets": [{"id": "end_date", "type": "field", "action": "show"}, {"id": "more", "type": "section", "action": "show"}]}, {"id": 1, "targets": [{"id": "end_date", "type": "field", "action": "hide"}, {"id": "more", "type": "section", "action": "hide"}, {"id": "end_date", "type": "field", "action": "hide"}]}]}"#,
        #"{"id": "end_date", "type": "date"}"#)
        .replacingOccurrences(of: "]}]}]", with: #"]}, {"id": "more", "fields": [{"id": "bonus", "type": "float"}]}]}]"#)

    @Test func optionTargetsFollowTheCurrentValue() throws {
        var r = try Engine.run(Self.contract, #"{"end_date": "2024-01-01", "bonus": 5}"#)
        #expect(r.visible("end_date") == true)
        #expect(r.sectionVisible("more") == true)
        #expect(r.actions == ["end_date:field:show", "more:section:show"])
        r = try Engine.run(Self.contract, #"{"contract_type": "1", "end_date": "2024-01-01", "bonus": 5}"#)
        #expect(r.visible("end_date") == false)
        #expect(r.visible("bonus") == false)
        #expect(r.sectionVisible("more") == false)
        #expect(r.valueKeys == ["contract_type"])
        #expect(r.dropped == ["end_date:hidden", "bonus:hidden"])
        // The duplicate hide counts once.
        #expect(r.actions == ["end_date:field:hide", "more:section:hide"])
    }

    /// Settle keeps the first eight targets that fire in the value and the rest in an array: a
    /// round that fires from 1 to 20, shows and hides mixed across the two, applies all of them in
    /// kind order (hides after shows, so a field both shown and hidden is hidden).
    @Test(arguments: [1, 7, 8, 9, 20])
    func manyTargetsFiringAtOnceApplyInKindOrder(count: Int) throws {
        // The switch's targets: show f0, hide f1, disable f2, show f3, ... and finally a show of
        // f0's twin hidden by a later hide of the same field.
        let actions = ["show", "hide", "disable"]
        var targets = (0..<count).map { #"{"id": "f\#($0)", "type": "field", "action": "\#(actions[$0 % 3])"}"# }
        targets += [#"{"id": "both", "type": "field", "action": "show"}"#, #"{"id": "both", "type": "field", "action": "hide"}"#]
        let fields = (0..<count).map { #"{"id": "f\#($0)", "type": "text", "hidden": \#($0 % 3 == 0)}"# }
        let def = Engine.fields(
            ([#"{"id": "on", "type": "switch", "targets": ["# + targets.joined(separator: ", ") + "]}"]
                + fields + [#"{"id": "both", "type": "text", "hidden": true}"#]).joined(separator: ","))
        let r = try Engine.run(def, #"{"on": true}"#)
        for i in 0..<count {
            #expect(r.visible("f\(i)") == (i % 3 != 1), "f\(i)")
            #expect(r.enabled("f\(i)") == (i % 3 != 2), "f\(i)")
        }
        #expect(r.visible("both") == false)
        let expected = (0..<count).filter { $0 % 3 == 0 }.map { "f\($0):field:show" } + ["both:field:show"]
            + (0..<count).filter { $0 % 3 == 1 }.map { "f\($0):field:hide" } + ["both:field:hide"]
            + (0..<count).filter { $0 % 3 == 2 }.map { "f\($0):field:disable" }
        #expect(r.actions == expected)
    }

    @Test func validateListsHiddenAndDisabled() throws {
        let r = try Engine.run(Self.contract, #"{"contract_type": 1}"#, mode: .validate)
        #expect(r.hidden == ["end_date", "bonus"])
        #expect(r.disabled == [])
        #expect(r.valid == true)
    }

    @Test func fieldTargetsNeedAValueAndATrueCondition() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "targets": [{"id": "x", "type": "field", "action": "hide"}, {"id": "y", "type": "field", "action": "disable", "condition": "$a == \"yes\""}]}"#,
            #"{"id": "x", "type": "text"}"#, #"{"id": "y", "type": "text"}"#)
        var r = try Engine.run(def, "{}")
        #expect(r.visible("x") == true)
        #expect(r.enabled("y") == true)
        r = try Engine.run(def, #"{"a": "no"}"#)
        #expect(r.visible("x") == false)
        #expect(r.enabled("y") == true)
        r = try Engine.run(def, #"{"a": "yes", "y": "kept"}"#, mode: .validate)
        #expect(r.disabled == ["y"])
        #expect(r.text("y") == "\"kept\"")  // disabled fields are returned like any other
    }

    @Test func showHideAndEnableDisableConflicts() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "value": "v", "targets": [{"id": "x", "type": "field", "action": "hide"}, {"id": "x", "type": "field", "action": "enable"}]}"#,
            #"{"id": "b", "type": "text", "value": "v", "targets": [{"id": "x", "type": "field", "action": "show"}, {"id": "x", "type": "field", "action": "disable"}]}"#,
            #"{"id": "x", "type": "text", "hidden": true}"#)
        let r = try Engine.run(def)
        #expect(r.visible("x") == false)
        #expect(r.enabled("x") == false)
        #expect(r.actions == ["x:field:show", "x:field:hide", "x:field:enable", "x:field:disable"])
    }

    @Test func hiddenSourcesAreNotInForce() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "hidden": true, "targets": [{"id": "x", "type": "field", "action": "hide"}]}"#,
            #"{"id": "x", "type": "text"}"#)
        let r = try Engine.run(def, #"{"a": "v"}"#)
        #expect(r.visible("x") == true)
        #expect(r.actions == [])
    }

    @Test func showInsideHiddenSectionStaysInvisible() throws {
        let def = #"""
            [{"sections": [
              {"id": "s0", "fields": [{"id": "a", "type": "text", "value": "v", "targets": [
                {"id": "s1", "type": "section", "action": "hide"}, {"id": "x", "type": "field", "action": "show"},
                {"id": "s0", "type": "field", "action": "hide"}, {"id": "y", "type": "section", "action": "hide"}]}]},
              {"id": "s1", "fields": [{"id": "x", "type": "text", "hidden": true}, {"id": "y", "type": "text"}]}]}]
            """#
        let r = try Engine.run(def, #"{"x": "1", "y": "2"}"#)
        #expect(r.sectionVisible("s1") == false)
        #expect(r.sectionVisible("s0") == true)  // a field target naming a section does nothing
        #expect(r.visible("x") == false)
        #expect(r.visible("y") == false)
        #expect(r.valueKeys == ["a"])
    }

    @Test func valueTargetsRunOnlyForChangedInOrder() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "targets": [{"id": "t", "type": "field", "action": "update", "target_value": "from a"}]}"#,
            #"{"id": "b", "type": "text", "targets": [{"id": "t", "type": "field", "action": "update", "target_value": "from b"}, {"id": "c", "type": "field", "action": "clear"}]}"#,
            #"{"id": "c", "type": "text", "targets": [{"id": "t", "type": "field", "action": "update", "target_value": "from c"}]}"#,
            #"{"id": "t", "type": "text"}"#)
        let values = #"{"a": "1", "c": "keep", "t": "sent"}"#
        var r = try Engine.run(def, values)
        #expect(r.text("t") == "\"sent\"")
        #expect(r.actions == [])
        r = try Engine.run(def, values, changed: ["b", "a"])
        #expect(r.text("t") == "\"from a\"")
        #expect(r.text("c") == nil)  // b ran without a value of its own; c's target does not cascade
        #expect(r.actions == [#"t:field:update="from b""#, "c:field:clear", #"t:field:update="from a""#])
        #expect(r.dropped == ["c:cleared"])
        r = try Engine.run(def, values, changed: ["a", "b"])
        #expect(r.text("t") == "\"from b\"")
        // Validation never runs value targets.
        r = try Engine.run(def, values, changed: ["a", "b"], mode: .validate)
        #expect(r.text("t") == "\"sent\"")
    }

    @Test func updateBringsOptionTargetsIntoForce() throws {
        let def = Engine.fields(
            #"{"id": "trigger", "type": "switch", "targets": [{"id": "kind", "type": "field", "action": "update", "target_value": 1}, {"id": "total", "type": "field", "action": "update"}]}"#,
            #"{"id": "kind", "type": "select", "values": [{"id": 0, "default": true}, {"id": 1, "targets": [{"id": "x", "type": "field", "action": "hide"}, {"id": "y", "type": "field", "action": "update", "target_value": "no cascade"}]}]}"#,
            #"{"id": "x", "type": "text"}"#, #"{"id": "y", "type": "text"}"#, #"{"id": "total", "type": "float"}"#)
        let r = try Engine.run(def, #"{"trigger": true}"#, changed: ["trigger"])
        #expect(r.text("kind") == "1")
        #expect(r.visible("x") == false)
        #expect(r.text("y") == nil)
        // `update` without target_value does nothing and is not reported.
        #expect(r.actions == ["kind:field:update=1", "x:field:hide"])
    }

    @Test func changedSelectRunsItsSelectedOptionTargets() throws {
        let def = Engine.fields(
            #"{"id": "username", "type": "select", "values": [{"id": 0, "targets": [{"id": "first_name", "type": "field", "action": "update", "target_value": "Mr."}]}, {"id": 1, "targets": [{"id": "first_name", "type": "field", "action": "clear"}]}]}"#,
            #"{"id": "first_name", "type": "name"}"#)
        var r = try Engine.run(def, #"{"username": 0, "first_name": "Ola"}"#, changed: ["username"])
        #expect(r.text("first_name") == "\"Mr.\"")
        r = try Engine.run(def, #"{"username": 1, "first_name": "Ola"}"#, changed: ["username"])
        #expect(r.text("first_name") == nil)
        #expect(r.dropped == ["first_name:cleared"])
        r = try Engine.run(def, #"{"first_name": "Ola"}"#, changed: ["username"])
        #expect(r.text("first_name") == "\"Ola\"")
    }

    @Test func conditionalValueTargets() throws {
        // Test S07: the condition reads the current values.
        let def = Engine.fields(
            #"{"id": "username", "type": "select", "values": [{"id": 0, "default": true}, {"id": 2}]}"#,
            #"{"id": "go", "type": "switch", "targets": [{"id": "display_name", "type": "field", "action": "update", "target_value": "Mr.Melk", "condition": "$username == 2"}]}"#,
            #"{"id": "display_name", "type": "text"}"#)
        var r = try Engine.run(def, "{}", changed: ["go"])
        #expect(r.text("display_name") == nil)
        r = try Engine.run(def, #"{"username": 2}"#, changed: ["go"])
        #expect(r.text("display_name") == "\"Mr.Melk\"")
    }

    @Test func requiredOnlyForChangedInEvaluate() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "validations": {"required": true}}"#,
            #"{"id": "b", "type": "text", "validations": {"required": true, "min_length": 3}}"#)
        var r = try Engine.run(def, #"{"b": "x"}"#)
        #expect(r.errorList == ["b:min_length"])
        #expect(r.required("a") == true)
        r = try Engine.run(def, #"{"b": "x"}"#, changed: ["a"])
        #expect(r.errorList == ["a:required", "b:min_length"])
        r = try Engine.run(def, "{}", mode: .validate)
        #expect(r.errorList == ["a:required", "b:required"])
    }

    @Test func unstableStateIsAFormError() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "value": "1", "targets": [{"id": "b", "type": "field", "action": "hide"}]}"#,
            #"{"id": "b", "type": "text", "value": "1", "targets": [{"id": "a", "type": "field", "action": "hide"}]}"#,
            #"{"id": "c", "type": "text", "value": "1"}"#)
        let r = try Engine.run(def, "{}", mode: .validate)
        #expect(r.errorList == [":unstable"])
        #expect(r.errors.first?["params"]?.jsonText == #"{"fields":["a","b"]}"#)
        #expect(r.valid == false)
    }

    @Test func unstableNamesFormulaFieldsThatKeepChanging() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "float", "value": 1, "targets": [{"id": "b", "type": "field", "action": "hide"}]}"#,
            #"{"id": "b", "type": "float", "value": 1, "targets": [{"id": "a", "type": "field", "action": "hide"}]}"#,
            #"{"id": "f", "type": "float", "formula": "a + b"}"#, #"{"id": "g", "type": "float", "formula": "2"}"#)
        let r = try Engine.run(def, "{}", mode: .validate)
        #expect(r.errors.first?["params"]?.jsonText == #"{"fields":["a","b","f"]}"#)
    }

    /// The settle loop skips a pass whose inputs did not change; here each round changes the
    /// next one's inputs: a target hides a formula's operand (the formula must run again), and
    /// the formula's new value turns off the condition of another target.
    @Test func passesRunAgainWhenTheirInputsMove() throws {
        let def = Engine.fields(
            #"{"id": "mode", "type": "select", "values": [{"id": "keep"}, {"id": "drop", "targets": [{"id": "x", "type": "field", "action": "hide"}]}]}"#,
            #"{"id": "x", "type": "float"}"#,
            #"{"id": "f", "type": "float", "formula": "x + 1", "targets": [{"id": "g", "type": "field", "action": "show", "condition": "$f > 5"}]}"#,
            #"{"id": "g", "type": "text", "hidden": true}"#)
        var r = try Engine.run(def, #"{"mode": "keep", "x": 5}"#)
        #expect(r.text("f") == "6")
        #expect(r.visible("x") == true && r.visible("g") == true)
        r = try Engine.run(def, #"{"mode": "drop", "x": 5}"#)
        #expect(r.text("f") == "1")
        #expect(r.visible("x") == false && r.visible("g") == false)
        #expect(r.actions == ["x:field:hide"])
    }

    @Test func stableChainSettles() throws {
        // a hides b, b would hide c: b is hidden, so c stays visible.
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "value": "1", "targets": [{"id": "b", "type": "field", "action": "hide"}]}"#,
            #"{"id": "b", "type": "text", "value": "1", "targets": [{"id": "c", "type": "field", "action": "hide"}]}"#,
            #"{"id": "c", "type": "text", "value": "1"}"#)
        let r = try Engine.run(def, "{}", mode: .validate)
        #expect(r.errors.isEmpty)
        #expect(r.hidden == ["b"])
    }

    @Test func hiddenSectionHidesFormulaOperands() throws {
        let def = #"""
            [{"sections": [
              {"id": "s0", "fields": [{"id": "kind", "type": "select", "values": [{"id": 0}, {"id": 1, "targets": [{"id": "s1", "type": "section", "action": "hide"}]}]},
                                      {"id": "total", "type": "float", "formula": "bonus + 1"}]},
              {"id": "s1", "fields": [{"id": "bonus", "type": "float"}, {"id": "t2", "type": "float", "formula": "bonus * 2"}]}]}]
            """#
        var r = try Engine.run(def, #"{"kind": 0, "bonus": 4}"#)
        #expect(r.text("total") == "5")
        #expect(r.text("t2") == "8")
        r = try Engine.run(def, #"{"kind": 1, "bonus": 4, "t2": 8}"#)
        #expect(r.text("total") == "1")
        #expect(r.valueKeys == ["kind", "total"])
        #expect(r.dropped == ["bonus:hidden", "t2:hidden"])
    }
}
