import Testing
@testable import FormdCore

/// SEMANTICS §7: dynamic sections and template instances.
@Suite struct EngineTemplateTests {
    static let def = #"""
        {"groups": [{"sections": [
            {"id": "s0", "fields": [{"id": "email", "type": "email"},
                                    {"id": "second", "type": "float", "formula": "items[2].price * 10"},
                                    {"id": "trigger", "type": "switch", "targets": [{"id": "items[2].note", "type": "field", "action": "update", "target_value": "set"}, {"id": "items[1]", "type": "section", "action": "hide"}]}]},
            {"id": "items", "type": "dynamic", "min_instances": 1, "max_instances": 2, "targets": [
                {"id": "email", "type": "field", "action": "update", "target_value": "john.hyperseed@hyper.no", "condition": "equals($email, \"john.hyperseed\")"}]},
            {"id": "s2", "fields": [{"id": "after", "type": "text"}]}]}],
         "templates": {"sections": [{"id": "items", "fields": [
            {"id": "items[:index].kind", "type": "select", "values": [
                {"id": 0, "default": true}, {"id": 1, "targets": [
                    {"id": "items[:index].price", "type": "field", "action": "update", "target_value": 5},
                    {"id": "items[:index].note", "type": "field", "action": "hide"}]}]},
            {"id": "items[:index].price", "type": "float", "title": "Price :index", "validations": {"max_value": 100}},
            {"id": "items[:index].max", "type": "float", "validations": {"compare_to": "items[:index].price", "compare_rule": ">="}},
            {"id": "items[:index].note", "type": "text"},
            {"id": "items[:index].remove", "type": "button"}]}]}}
        """#

    @Test func instancesFromKeysOrderedByIndexWithGaps() throws {
        let r = try Engine.run(Self.def, #"{"after": "z", "items[10].price": 1, "items[2].note": null, "email": "a@b.no"}"#)
        #expect(r.sectionIDs == ["s0", "items", "items[2]", "items[10]", "s2"])
        #expect(r.fieldIDs == [
            "email", "second", "trigger",
            "items[2].kind", "items[2].price", "items[2].max", "items[2].note", "items[2].remove",
            "items[10].kind", "items[10].price", "items[10].max", "items[10].note", "items[10].remove", "after",
        ])
        #expect(r.valueKeys == ["email", "second", "items[2].kind", "items[10].kind", "items[10].price", "after"])
        #expect(r.text("second") == "0")
    }

    @Test func indexIsParsedAsANumber() throws {
        let r = try Engine.run(Self.def, #"{"items[02].price": 3, "items[2].note": "n"}"#)
        #expect(r.sectionIDs == ["s0", "items", "items[2]", "s2"])
        #expect(r.text("items[2].price") == "3")
        #expect(r.text("items[2].note") == "\"n\"")
        #expect(r.text("second") == "30")
    }

    @Test func instanceErrorsUseInstanceIDsAndIndexSubstitution() throws {
        let r = try Engine.run(Self.def, #"{"items[1].price": 500, "items[1].max": 2, "items[3].price": 1, "items[3].max": 1, "items[5].note": null}"#, mode: .validate)
        #expect(r.errorList == ["items:max_instances", "items[1].price:max_value", "items[1].max:compare"])
        #expect(r.error("items[1].max", "compare")?["params"]?.jsonText == #"{"other":"items[1].price","rule":">="}"#)
        #expect(r.error("items[1].price", "max_value")?["message"]?.stringValue?.contains("Price 1") == true)
        #expect(r.error("items", "max_instances")?["params"]?.jsonText == #"{"max":2}"#)
    }

    @Test func minInstances() throws {
        let r = try Engine.run(Self.def, "{}", mode: .validate)
        #expect(r.errorList == ["items:min_instances"])
        #expect(r.error("items", "min_instances")?["params"]?.jsonText == #"{"min":1}"#)
    }

    @Test func optionTargetsInsideInstancesAreLocal() throws {
        let r = try Engine.run(Self.def, #"{"items[1].kind": 1, "items[1].note": "a", "items[2].note": "b"}"#, changed: ["items[1].kind"])
        #expect(r.text("items[1].price") == "5")
        #expect(r.text("items[2].price") == nil)
        #expect(r.visible("items[1].note") == false)
        #expect(r.visible("items[2].note") == true)
        #expect(r.actions == ["items[1].price:field:update=5", "items[1].note:field:hide"])
        #expect(r.dropped == ["items[1].note:hidden"])
    }

    @Test func concreteInstanceReferencesFromOutside() throws {
        var r = try Engine.run(Self.def, #"{"trigger": true, "items[1].note": "x", "items[2].note": "y"}"#, changed: ["trigger"])
        #expect(r.text("items[2].note") == "\"set\"")
        #expect(r.sectionVisible("items[1]") == false)
        #expect(r.visible("items[1].note") == false)
        #expect(r.actions == [#"items[2].note:field:update="set""#, "items[1]:section:hide"])
        // A reference to an instance that does not exist does nothing; the structural target is
        // still in force and listed (SEMANTICS §5.3: "whether or not it changed anything").
        r = try Engine.run(Self.def, #"{"trigger": true}"#, changed: ["trigger"])
        #expect(r.actions == ["items[1]:section:hide"])
        #expect(r.valueKeys == ["second", "trigger"])
    }

    @Test func changedDynamicSectionRunsItsTargets() throws {
        // Test S26 as SEMANTICS §10 has it: "john.hyperseed" is not an address, so nothing happens.
        var r = try Engine.run(Self.def, #"{"email": "john.hyperseed"}"#, changed: ["items"])
        #expect(r.text("email") == "\"john.hyperseed\"")
        #expect(r.actions == [])
        #expect(r.codes("email") == ["type"])
        // With a custom field the condition holds and the section's target runs.
        let def = Self.def.replacingOccurrences(of: #""id": "email", "type": "email""#, with: #""id": "email", "type": "custom_mail""#)
        r = try Engine.run(def, #"{"email": "john.hyperseed"}"#, changed: ["items"])
        #expect(r.text("email") == "\"john.hyperseed@hyper.no\"")
        #expect(r.actions == [#"email:field:update="john.hyperseed@hyper.no""#])
        #expect(try Engine.load(def).plan.unknownChangedID(["items", "s0", "items[4].note"]) == "s0")
    }

    @Test func dynamicFormulasS27() throws {
        let def = #"""
            {"groups": [{"sections": [{"id": "tickets", "type": "dynamic"}]}],
             "templates": {"sections": [{"id": "tickets", "fields": [
                {"id": "tickets[:index].quantity", "type": "float", "value": 1, "validations": {"required": true, "min_value": 1, "max_value": 100}},
                {"id": "tickets[:index].price", "type": "float", "validations": {"min_value": 1, "max_value": 100}},
                {"id": "tickets[:index].total", "type": "float", "disabled": true, "formula": "$tickets[:index].quantity * $tickets[:index].price"},
                {"id": "tickets[:index].remove", "type": "button"}]}]}}
            """#
        let r = try Engine.run(def, #"{"tickets[0].price": 100, "tickets[0].quantity": 3, "tickets[1].price": 2, "tickets[0].remove": "x"}"#, mode: .validate)
        #expect(r.text("tickets[0].total") == "300")
        #expect(r.text("tickets[1].quantity") == "1")  // the template default
        #expect(r.text("tickets[1].total") == "2")
        #expect(r.disabled == ["tickets[0].total", "tickets[1].total"])
        #expect(r.dropped == ["tickets[0].remove:not_input"])
        #expect(r.valid == true)
    }
}
