import Testing
@testable import FormdCore

/// The original library's data tests that still hold (its test suite of JSON fixtures), with the
/// expectations SEMANTICS §10 changes written as formd has them. Fixtures are trimmed inline.
@Suite struct EngineOriginalTests {
    static let defaultValues = Engine.fields(
        #"{"id": "contract_type", "type": "select", "values": [{"id": 0, "default": true}, {"id": 1}]}"#,
        #"{"id": "start_date", "type": "date"}"#,
        #"{"id": "base_salary", "type": "select", "values": [{"id": 0, "value": 100.0}, {"id": 1, "value": 200.0}, {"id": 2, "value": 10.0}]}"#)

    @Test func d02DefaultValues() throws {
        let r = try Engine.run(Self.defaultValues, #"{"contract_type": null, "start_date": "2024-05-17", "base_salary": 2}"#)
        #expect(r.text("contract_type") == "0")
        #expect(r.text("start_date") == "\"2024-05-17\"")
        #expect(r.text("base_salary") == "2")
    }

    @Test func d03CalculatedValues() throws {
        let def = Engine.fields(
            #"{"id": "base_salary", "type": "select", "values": [{"id": 0, "value": 100.0, "targets": [{"id": "total", "type": "field", "action": "update"}]}, {"id": 1, "value": 200.0, "targets": [{"id": "total", "type": "field", "action": "update"}]}]}"#,
            #"{"id": "bonus", "type": "float", "targets": [{"id": "total", "type": "field", "action": "update"}]}"#,
            #"{"id": "total", "type": "float", "disabled": true, "formula": "base_salary + bonus"}"#)
        let r = try Engine.run(def, #"{"base_salary": 1, "bonus": 100}"#)
        #expect(r.text("total") == "300")
        #expect(r.text("base_salary") == "1")
        #expect(r.text("bonus") == "100")
        #expect(r.enabled("total") == false)  // S03: JSON `disabled`
    }

    static let positions = #"""
        [{"sections": [
          {"id": "section-0", "fields": [
            {"id": "f0", "type": "select", "values": [{"id": 0, "targets": [{"id": "f2", "type": "field", "action": "hide"}, {"id": "section-1", "type": "section", "action": "hide"}]}]},
            {"id": "f1", "type": "select", "values": [{"id": 0, "targets": [{"id": "f2", "type": "field", "action": "show"}, {"id": "section-1", "type": "section", "action": "show"}]}]},
            {"id": "f2", "type": "date"}, {"id": "f3", "type": "date"}]},
          {"id": "section-1", "fields": [{"id": "t1", "type": "text"}]},
          {"id": "section-2", "fields": [{"id": "t2", "type": "text"}]}]}]
        """#

    @Test func d04d05SectionAndFieldPositions() throws {
        var r = try Engine.run(Self.positions, mode: .validate)
        #expect(r.hidden == [])
        r = try Engine.run(Self.positions, #"{"f0": 0}"#, mode: .validate)
        #expect(r.hidden == ["f2", "t1"])
        // Both selected: show and hide of the same target end hidden (SEMANTICS §5.3).
        r = try Engine.run(Self.positions, #"{"f0": 0, "f1": 0}"#, mode: .validate)
        #expect(r.hidden == ["f2", "t1"])
    }

    static let multiple = Engine.fields(
        #"{"id": "contract_type", "type": "select", "values": [{"id": 0, "targets": [{"id": "start_date", "type": "field", "action": "show"}, {"id": "start_date", "type": "field", "action": "show"}, {"id": "start_date", "type": "field", "action": "show"}]}, {"id": 1, "targets": [{"id": "start_date", "type": "field", "action": "hide"}, {"id": "start_date", "type": "field", "action": "hide"}, {"id": "start_date", "type": "field", "action": "hide"}]}]}"#,
        #"{"id": "salary_type", "type": "select", "values": [{"id": 0, "targets": [{"id": "start_date", "type": "field", "action": "show"}]}, {"id": 1, "targets": [{"id": "start_date", "type": "field", "action": "hide"}]}]}"#,
        #"{"id": "start_date", "type": "date"}"#)

    @Test func d13d14ShowingAndHidingMultipleTimes() throws {
        #expect(try Engine.run(Self.multiple, #"{"contract_type": 1, "salary_type": 1}"#).visible("start_date") == false)
        #expect(try Engine.run(Self.multiple, #"{"contract_type": 0, "salary_type": 0}"#).visible("start_date") == true)
        #expect(try Engine.run(Self.multiple).visible("start_date") == true)
        let r = try Engine.run(Self.multiple, #"{"contract_type": 1, "salary_type": 1}"#)
        #expect(r.actions == ["start_date:field:hide"])
    }

    @Test func d10d11RequiredAndInvalidFields() throws {
        let def = Engine.fields(
            #"{"id": "first_name", "type": "name", "validations": {"required": true, "min_length": 2}}"#,
            #"{"id": "last_name", "type": "name"}"#,
            #"{"id": "birthday", "type": "date", "validations": {"required": true, "min_length": 2}}"#)
        let r = try Engine.run(def, mode: .validate)
        #expect(r.errorList == ["first_name:required", "birthday:required"])
        let e = try Engine.run(def)
        #expect(e.required("first_name") == true)
        #expect(e.required("last_name") == false)
    }

    @Test func d19DynamicWithInitialValues() throws {
        let def = #"""
            {"groups": [{"sections": [{"id": "companies", "type": "dynamic"}, {"id": "p", "fields": [{"id": "email", "type": "email"}]}]}],
             "templates": {"sections": [{"id": "companies", "fields": [
                {"id": "companies[:index].name", "type": "name"}, {"id": "companies[:index].phone_number", "type": "number"},
                {"id": "companies[:index].remove", "type": "remove"}]}]}}
            """#
        let r = try Engine.run(def, #"{"email": "hi@there.com", "companies[0].name": "Facebook", "companies[0].phone_number": "1222333", "companies[1].name": "Google"}"#)
        #expect(r.text("companies[0].name") == "\"Facebook\"")
        #expect(r.text("companies[0].phone_number") == "\"1222333\"")
        #expect(r.text("companies[1].name") == "\"Google\"")
        #expect(r.value("companies[1].phone_number") == nil)
        #expect(r.text("email") == "\"hi@there.com\"")
        #expect(r.sectionIDs == ["companies", "companies[0]", "companies[1]", "p"])
    }

    @Test func d28d29d30HiddenValuesComeBackWhenShown() throws {
        let def = #"""
            [{"sections": [
              {"id": "ctl", "fields": [{"id": "mode", "type": "select", "values": [
                {"id": "hide_text", "targets": [{"id": "textie", "type": "field", "action": "hide"}]},
                {"id": "hide_section", "targets": [{"id": "section", "type": "section", "action": "hide"}]},
                {"id": "hide_select", "targets": [{"id": "contract_type", "type": "field", "action": "hide"}]}, {"id": "none"}]}]},
              {"id": "section", "fields": [{"id": "textie", "type": "text", "value": "1"}, {"id": "last_name", "type": "text"},
                {"id": "contract_type", "type": "select", "values": [{"id": 0, "default": true}, {"id": 1}]}]}]}]
            """#
        let values = #"{"textie": "some text", "last_name": "Minion"}"#
        #expect(try Engine.run(def, #"{"mode": "hide_text", "textie": "some text"}"#).valueKeys == ["mode", "contract_type"])
        #expect(try Engine.run(def, #"{"mode": "none", "textie": "some text"}"#).text("textie") == "\"some text\"")
        #expect(try Engine.run(def, #"{"mode": "hide_section", "textie": "x", "last_name": "Minion"}"#).valueKeys == ["mode"])
        #expect(try Engine.run(def, values).valueKeys == ["textie", "last_name", "contract_type"])
        #expect(try Engine.run(def, #"{"mode": "hide_select"}"#).valueKeys == ["mode", "textie"])
        #expect(try Engine.run(def, #"{"mode": "none"}"#).text("contract_type") == "0")
    }

    @Test func d31toD34ValuesFromTheJSON() throws {
        let def = Engine.fields(
            #"{"id": "textie", "type": "text", "value": "1"}"#, #"{"id": "count", "type": "counter", "value": "1"}"#,
            #"{"id": "segment", "type": "segment", "value": "part_1", "values": [{"id": "part_1", "default": true}, {"id": "part_2"}]}"#,
            #"{"id": "switch", "type": "switch", "value": true}"#)
        let r = try Engine.run(def)
        #expect(r.text("textie") == "\"1\"")
        #expect(r.text("count") == "\"1\"")
        #expect(r.text("segment") == "\"part_1\"")
        #expect(r.text("switch") == "true")
    }

    @Test func s04s08UpdatesAndReload() throws {
        let def = Engine.fields(
            #"{"id": "first_name", "type": "name", "targets": [{"id": "display_name", "type": "field", "action": "update", "condition": "$username == 0"}]}"#,
            #"{"id": "last_name", "type": "name"}"#,
            #"{"id": "display_name", "type": "text", "formula": "first_name last_name"}"#,
            #"{"id": "username", "type": "select", "values": [{"id": 0, "default": true}, {"id": 1, "targets": [{"id": "display_name", "type": "field", "action": "update"}]}]}"#,
            #"{"id": "note", "type": "text"}"#,
            #"{"id": "go", "type": "switch", "targets": [{"id": "note", "type": "field", "action": "update", "target_value": "John Hyperseed"}, {"id": "display_name", "type": "field", "action": "update", "target_value": "ignored"}]}"#)
        var r = try Engine.run(def, #"{"first_name": "Elvis", "last_name": "Nunez", "username": 1}"#)
        #expect(r.text("display_name") == "\"Elvis Nunez\"")
        #expect(r.text("username") == "1")
        r = try Engine.run(def, #"{"username": null}"#)  // S08: a null select gets its default (§10)
        #expect(r.text("username") == "0")
        r = try Engine.run(def, #"{"username": 4}"#, mode: .validate)
        #expect(r.codes("username") == ["type"])
        r = try Engine.run(def, #"{"first_name": "A"}"#, changed: ["go"])
        #expect(r.text("note") == "\"John Hyperseed\"")
        #expect(r.text("display_name") == "\"A \"")  // a formula field ignores update values (S04, §10)
    }

    @Test func s06DefaultValueInTemplate() throws {
        let def = #"""
            {"groups": [{"sections": [{"id": "tickets", "type": "dynamic"}]}],
             "templates": {"sections": [{"id": "tickets", "fields": [
                {"id": "tickets[:index].type", "type": "select", "values": [{"id": 0, "value": 39}, {"id": 1, "value": 10, "default": true}]},
                {"id": "tickets[:index].remove", "type": "button"}]}]}}
            """#
        let r = try Engine.run(def, #"{"tickets[0].remove": null}"#, changed: ["tickets"])
        #expect(r.text("tickets[0].type") == "1")
        #expect(r.fieldIDs == ["tickets[0].type", "tickets[0].remove"])
    }

    @Test func t02FilteredTargets() throws {
        func t(_ id: String, _ action: String, _ extra: String = "") -> String {
            "{\"id\": \"\(id)\", \"type\": \"field\", \"action\": \"\(action)\"\(extra)}"
        }
        let targets = Array(repeating: t("first_name", "show"), count: 3) + Array(repeating: t("last_name", "hide"), count: 3)
            + Array(repeating: t("start_date", "enable"), count: 3) + Array(repeating: t("end_date", "disable"), count: 6)
            + Array(repeating: t("bonus_enabled", "update", ", \"target_value\": true"), count: 3)
            + Array(repeating: t("salary", "clear"), count: 3)
        let def = Engine.fields(
            "{\"id\": \"src\", \"type\": \"text\", \"targets\": [" + targets.joined(separator: ",") + "]}",
            #"{"id": "first_name"}"#, #"{"id": "last_name"}"#, #"{"id": "start_date", "type": "date"}"#,
            #"{"id": "end_date", "type": "date"}"#, #"{"id": "bonus_enabled", "type": "switch"}"#, #"{"id": "salary", "type": "float"}"#)
        let r = try Engine.run(def, #"{"src": "x", "salary": 5}"#, changed: ["src"])
        #expect(r.actions == [
            "bonus_enabled:field:update=true", "salary:field:clear",
            "first_name:field:show", "last_name:field:hide", "start_date:field:enable", "end_date:field:disable",
        ])
    }

    @Test func f03EmptyValue() throws {
        let def = Engine.fields(#"{"id": "t", "type": "text", "validations": {"required": true}}"#)
        #expect(try Engine.run(def, #"{"t": "Test"}"#).text("t") == "\"Test\"")
        let r = try Engine.run(def, #"{"t": ""}"#, mode: .validate)
        #expect(r.value("t") == nil)
        #expect(r.codes("t") == ["required"])
    }
}
