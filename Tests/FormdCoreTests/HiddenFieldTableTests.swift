import Testing
@testable import FormdCore

/// SEMANTICS §5.4, the hidden-fields table: one test per row, named after it.
@Suite struct HiddenFieldTableTests {
    /// `a` hides `b` (by itself) and section `more` (with `c`); `d` is disabled, never hidden.
    static let def = #"""
        {"groups": [{"id": "g", "sections": [
          {"id": "main", "fields": [
            {"id": "a", "type": "switch", "targets": [
              {"id": "b", "type": "field", "action": "hide", "condition": "$a == 1"},
              {"id": "more", "type": "section", "action": "hide", "condition": "$a == 1"}]},
            {"id": "b", "type": "count", "title": "B", "value": 4, "validations": {"required": true, "min_value": 10}, "warnings": {"max_value": 1}},
            {"id": "d", "type": "count", "disabled": true, "validations": {"max_value": 5}},
            {"id": "sum", "type": "float", "formula": "b + c + d"},
            {"id": "label", "type": "text", "formula": "b/c"},
            {"id": "flag", "type": "text", "targets": [{"id": "seen", "type": "field", "action": "show", "condition": "missing($b)"}]},
            {"id": "seen", "type": "text", "hidden": true},
            {"id": "other", "type": "count", "validations": {"compare_to": "b", "compare_rule": ">", "rules": [{"condition": "$other > $b", "code": "r"}]}}]},
          {"id": "more", "fields": [
            {"id": "c", "type": "count", "validations": {"required": true}},
            {"id": "e", "type": "text", "hidden": true, "targets": []},
            {"id": "f", "type": "text", "validations": {"required": true}, "validate_when_hidden": true},
            {"id": "g2", "type": "text", "clear_when_hidden": true}]}
        ]}]}
        """#

    static let hiding = #"{"a": true, "b": 3, "c": 2, "d": 6, "flag": "x", "other": 1, "f": "ok", "g2": "typed"}"#
    static let showing = #"{"a": false, "b": 3, "c": 2, "d": 6, "flag": "x", "other": 1, "f": "ok", "g2": "typed"}"#

    @Test func requiredWhileHiddenIsNotChecked() throws {
        let r = try Engine.run(Self.def, #"{"a": true, "b": null, "c": null, "f": "x"}"#, mode: .validate)
        #expect(!r.errorList.contains("b:required"))
        #expect(!r.errorList.contains("c:required"))
        let e = try Engine.run(Self.def, #"{"a": true}"#)
        #expect(e.required("b") == false)
        // Visible, the same fields are required (b has a default, c has none).
        let v = try Engine.run(Self.def, #"{"a": false, "b": "", "f": "x"}"#, mode: .validate)
        #expect(v.errorList == ["b:min_value", "c:required"])
        #expect(try Engine.run(Self.def, #"{"a": false}"#).required("c") == true)
    }

    @Test func otherChecksOfAHiddenFieldDoNotRunEither() throws {
        let r = try Engine.run(Self.def, Self.hiding, mode: .validate)
        #expect(!r.codes("b").contains("min_value"))
        #expect(r.warningList.filter { $0.hasPrefix("b:") } == [])
        let v = try Engine.run(Self.def, Self.showing, mode: .validate)
        #expect(v.codes("b") == ["min_value"])
        #expect(v.warningList.contains("b:max_value"))
    }

    @Test func validateWhenHiddenChecksIt() throws {
        let r = try Engine.run(Self.def, #"{"a": true}"#, mode: .validate)
        #expect(r.errorList == ["f:required"])
        let ok = try Engine.run(Self.def, #"{"a": true, "f": "x"}"#, mode: .validate)
        #expect(ok.errorList == [])
        // Still hidden: not in `values`, not required in `fields`.
        #expect(!ok.valueKeys.contains("f"))
        #expect(ok.dropped.contains("f:hidden"))
    }

    @Test func hiddenValuesAreNotInTheAnswer() throws {
        let r = try Engine.run(Self.def, Self.hiding, mode: .validate)
        #expect(!r.valueKeys.contains("b"))
        #expect(!r.valueKeys.contains("c"))
        #expect(r.dropped.contains("b:hidden"))
        #expect(r.dropped.contains("c:hidden"))
        #expect(r.hidden.contains("b"))
        #expect(r.hidden.contains("c"))
    }

    @Test func hiddenDefaultsAreNotInTheAnswer() throws {
        let hidden = try Engine.run(Self.def, #"{"a": true}"#)
        #expect(hidden.value("b") == nil)
        let shown = try Engine.run(Self.def, #"{"a": false}"#)
        #expect(shown.text("b") == "4")
    }

    @Test func hiddenFieldsCountAsMissingInFormulas() throws {
        let r = try Engine.run(Self.def, Self.hiding)
        // b and c hidden: 0 + 0 + d (disabled, counted).
        #expect(r.text("sum") == "6")
        #expect(r.text("label") == "\"/\"")
        let v = try Engine.run(Self.def, Self.showing)
        #expect(v.text("sum") == "11")
        #expect(v.text("label") == "\"3/2\"")
    }

    @Test func hiddenFieldsAreMissingInConditions() throws {
        #expect(try Engine.run(Self.def, Self.hiding).visible("seen") == true)
        #expect(try Engine.run(Self.def, Self.showing).visible("seen") == false)
    }

    @Test func compareToAndRulesAgainstAHiddenFieldDoNotFail() throws {
        let r = try Engine.run(Self.def, Self.hiding, mode: .validate)
        #expect(r.codes("other") == [])
        let v = try Engine.run(Self.def, Self.showing, mode: .validate)
        #expect(v.codes("other") == ["compare", "r"])
    }

    @Test func keptByDefaultClearedWithClearWhenHidden() throws {
        let r = try Engine.run(Self.def, Self.hiding)
        #expect(r.dropped.contains("b:hidden"))
        #expect(r.dropped.contains("g2:cleared"))
        #expect(r.actions.contains("g2:field:clear"))
        #expect(!r.actions.contains { $0.hasPrefix("b:field:clear") })
        // Validate reports the drop, and has no actions.
        let v = try Engine.run(Self.def, Self.hiding, mode: .validate)
        #expect(v.dropped.contains("g2:cleared"))
        // Nothing sent, nothing to clear.
        #expect(try Engine.run(Self.def, #"{"a": true}"#).actions.contains("g2:field:clear") == false)
        // Visible: kept.
        let shown = try Engine.run(Self.def, Self.showing)
        #expect(shown.text("g2") == "\"typed\"")
    }

    @Test func hiddenBySectionIsHiddenLikeByItself() throws {
        let r = try Engine.run(Self.def, Self.hiding)
        #expect(r.sectionVisible("more") == false)
        #expect(r.visible("c") == false)
        #expect(r.visible("b") == false)
        // Both count the same everywhere: not validated, not returned, missing in formulas.
        #expect(r.dropped.contains("c:hidden") && r.dropped.contains("b:hidden"))
    }

    @Test func showInAHiddenSectionStaysInvisible() throws {
        let def = #"""
            [{"id": "g", "sections": [
              {"id": "s1", "fields": [{"id": "k", "type": "switch", "targets": [
                {"id": "s2", "type": "section", "action": "hide"}, {"id": "x", "type": "field", "action": "show"}]}]},
              {"id": "s2", "fields": [{"id": "x", "type": "text", "hidden": true}]}]}]
            """#
        let r = try Engine.run(def, #"{"k": true, "x": "v"}"#)
        #expect(r.visible("x") == false)
        #expect(r.dropped == ["x:hidden"])
    }

    @Test func disabledIsNotHidden() throws {
        let r = try Engine.run(Self.def, Self.hiding, mode: .validate)
        #expect(r.text("d") == "6")
        #expect(r.codes("d") == ["max_value"])
        #expect(r.disabled.contains("d"))
        #expect(!r.hidden.contains("d"))
    }

    @Test func optionsAreLoadErrorsWhenNotBooleans() throws {
        #expect(Engine.errors(Engine.fields(#"{"id": "a", "type": "text", "validate_when_hidden": "yes"}"#)).count == 1)
        #expect(Engine.errors(Engine.fields(#"{"id": "a", "type": "text", "clear_when_hidden": 2}"#)).count == 1)
    }
}

/// docs/FORMAT.md §10: the lint of rules and of the hidden-field options.
@Suite struct RuleLintTests {
    @Test func constantConditionsAndOptionsThatDoNothingWarn() throws {
        let w = Engine.warnings(
            Engine.fields(
                #"{"id": "a", "type": "count", "validations": {"required": "1 == 1", "rules": [{"condition": "2 > 1"}]}}"#,
                #"{"id": "b", "type": "text", "validate_when_hidden": true}"#,
                #"{"id": "c", "type": "text", "hidden": true, "clear_when_hidden": true}"#))
        #expect(
            w.map(\.message) == [
                "the condition names no field, so it never changes: write true or false",
                "the rule names no field, so it always passes or always fails",
                "nothing hides \"b\" (no \"hidden\": true, no hide target for it or its section), so validate_when_hidden does nothing",
            ])
        #expect(w.map(\.path) == [
            "[0].sections[0].fields[0].validations.required", "[0].sections[0].fields[0].validations.rules[0].condition",
            "[0].sections[0].fields[1].validate_when_hidden",
        ])
    }

    @Test func warningsOnAButtonWarn() throws {
        let w = Engine.warnings(Engine.fields(#"{"id": "go", "type": "button", "warnings": {"required": true}}"#))
        #expect(w.map(\.message) == ["a button holds no value: its warnings never apply"])
    }
}
