import Foundation
import Testing
import FormdCore

/// The typed engine API as an app sees it: `import FormdCore` without `@testable`.
@Suite("Form (typed API)")
struct FormAPITests {
    static let definition = #"""
    {"title": "Order",
     "groups": [{"id": "g", "title": "Order", "sections": [
       {"id": "who", "fields": [
         {"id": "name", "title": "Name", "type": "name", "validations": {"required": true, "min_length": 2}},
         {"id": "kind", "title": "Kind", "type": "segment", "values": [
           {"id": "private", "title": "Private", "default": true, "targets": [{"id": "company", "type": "section", "action": "hide"}]},
           {"id": "business", "title": "Business", "targets": [
             {"id": "company", "type": "section", "action": "show"},
             {"id": "invoice", "type": "field", "action": "update", "target_value": "ehf"}]}]},
         {"id": "invoice", "title": "Invoice", "type": "select", "values": [{"id": "paper"}, {"id": "ehf"}]}]},
       {"id": "company", "fields": [{"id": "org", "title": "Org no", "type": "number", "validations": {"required": true}}]},
       {"id": "lines", "type": "dynamic", "max_instances": 2, "fields": null},
       {"id": "sum", "fields": [{"id": "total", "type": "float", "disabled": true, "formula": "sum(lines[*].amount)"}]}]}],
     "templates": {"sections": [{"id": "lines", "fields": [
       {"id": "lines[:index].amount", "title": "Amount", "type": "float", "validations": {"min_value": 0}}]}]}}
    """#

    static func form() throws -> Form { try Form(id: "order", json: Array(definition.utf8)) }

    /// Natively every `format` check is decided (ICU beyond SimplePattern's fast path); only the
    /// WebAssembly build defers one to the server (docs/WASM.md).
    @Test func formatChecksAreNeverDeferredNatively() throws {
        let json = #"""
        {"title": "P", "groups": [{"title": "G", "sections": [{"id": "s", "fields": [
          {"id": "phone", "title": "Phone", "type": "text", "validations": {"format": "^\\+?[0-9 ]{8,19}$"}}]}]}]}
        """#
        let form = try Form(id: "p", json: Array(json.utf8))
        let answer = try form.validateAnswer(["phone": "abc"])
        #expect(!answer.isValid && answer.subjectsInError == ["phone"], "a space in a bracket class leaves the fast path: ICU decides")
        #expect(answer.deferredFormats.isEmpty)
        #expect(try form.validateAnswer(["phone": "+47 912 34 567"]).isValid)
    }

    @Test func valuesFromLiteralsAndFromJSON() throws {
        let literal: FormValues = ["name": "Ola", "age": 42, "share": 2.5, "ok": true, "tags": ["a", 1], "nested": ["k": .null]]
        let decoded = try FormValues(json: Array(#"{"name":"Ola","age":42,"share":2.5,"ok":true,"tags":["a",1],"nested":{"k":null}}"#.utf8))
        #expect(literal == decoded)
        #expect(literal["age"]?.intValue == 42 && literal["share"]?.doubleValue == 2.5 && literal["ok"]?.boolValue == true)
        let exact = try FormValue(json: Array("12345678901234567890.50".utf8))
        #expect(exact.numberText == "12345678901234567890.50", "numbers keep every digit")
        #expect(throws: JSONParseError.self) { try FormValues(json: Array("[1]".utf8)) }
        var edited = literal
        edited["name"] = "Kari"
        edited["age"] = nil
        #expect(edited.keys == ["name", "share", "ok", "tags", "nested"] && edited["name"] == "Kari")
        // Codable, for apps that keep values in their own models (member order is the decoder's).
        let data = try JSONEncoder().encode(literal)
        let back = try JSONDecoder().decode(FormValues.self, from: data)
        #expect(Set(back.keys) == Set(literal.keys))
        for key in literal.keys where key != "nested" { #expect(back[key] == literal[key], "\(key)") }
        #expect(back["nested"]?["k"] == .null)
    }

    @Test func visibilityActionsAndValueTargets() throws {
        let form = try Self.form()
        #expect(form.id == "order" && form.title == "Order" && form.version.hasPrefix("\"") && form.warnings.isEmpty)
        let first = try form.evaluate([:])
        #expect(first.value("kind") == "private", "the default option")
        #expect(first.section("company")?.isVisible == false)
        #expect(first.field("org")?.isVisible == false && first.field("org")?.isRequired == false)
        #expect(first.actions.map { "\($0.action.rawValue) \($0.id)" } == ["hide company"])
        let business = try form.evaluate(["kind": "business"], changed: ["kind"])
        #expect(business.section("company")?.isVisible == true)
        #expect(business.field("org")?.isRequired == true)
        #expect(business.value("invoice") == "ehf", "the update target ran")
        let update = try #require(business.actions.first)
        #expect(update.id == "invoice" && update.type == "field" && update.action == .update && update.value == "ehf")
        #expect(business.field("total")?.isEnabled == false)
        #expect(throws: FormRequestError.unknownChangedID("nope")) { try form.evaluate([:], changed: ["nope"]) }
    }

    @Test func errorsRequiredAndLocales() throws {
        let form = try Self.form()
        let live = try form.evaluate(["name": "O"], changed: ["name"])
        #expect(live.errors.map(\.code) == ["min_length"], "evaluate leaves out required errors of untouched fields")
        #expect(live.errors[0].params.map(\.key) == ["min"] && live.errors[0].params[0].value == 2)
        #expect(live.errors[0].message == "Name must be at least 2 characters long.")
        let verdict = try form.validate(["kind": "business"], locale: "nb-NO")
        #expect(!verdict.isValid)
        #expect(verdict.errors.map { "\($0.field ?? "-"):\($0.code)" } == ["name:required", "org:required"])
        #expect(verdict.errors[0].message == "Name må fylles ut.", "Norwegian, by language")
        #expect(verdict.actions.isEmpty, "validate runs no value targets")
        let ok = try form.validate(["name": "Ola"])
        #expect(ok.isValid && ok.errors.isEmpty)
        #expect(ok.hidden == ["org"] && ok.disabled == ["total"])
    }

    @Test func templatesAndDropped() throws {
        let form = try Self.form()
        let s = try form.validate(["name": "Ola", "lines[1].amount": "2,5", "lines[2].amount": 4, "lines[3].amount": 1, "total": 99, "bogus": "x"])
        #expect(s.sections.map(\.id) == ["who", "company", "lines", "lines[1]", "lines[2]", "sum"])
        #expect(s.value("lines[1].amount") == 2.5 && s.value("total") == 6.5)
        #expect(s.errors.map(\.code) == ["max_instances"])
        #expect(s.errors[0].subject == .section("lines"))
        #expect(s.dropped.map { "\($0.key):\($0.reason.rawValue)" } == ["lines[3].amount:over_limit", "total:computed", "bogus:unknown"])
    }

    @Test func definitionErrorsCarryLineAndColumn() throws {
        let broken = #"{"groups": [{"id": "g", "sections": [{"id": "s", "fields": [{"id": "a", "type": "float", "formula": "$b + "}]}]}]}"#
        do {
            _ = try Form(id: "broken", json: Array(broken.utf8))
            Issue.record("a broken formula must reject the definition")
        } catch {
            #expect(error.diagnostics.contains { $0.severity == .error && $0.line == 1 && $0.column > 1 })
            #expect(error.description.hasPrefix("broken.json:1:"), "\(error)")
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("formd-api-\(UUID().uuidString).json")
        try Data(Self.definition.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = try Form(contentsOf: url)
        #expect(fromFile.id == url.deletingPathExtension().lastPathComponent)
        #expect(fromFile.version == (try Self.form()).version)
    }
}
