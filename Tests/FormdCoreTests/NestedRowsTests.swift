import Testing
import FormdCore

/// Repeating sections sent as rows (`{"lines": [{"amount": 3}]}`, API.md §4.3): read as the flat
/// instance keys, answered as rows; bad shapes are `FormRequestError.badRows`.
@Suite("Nested rows")
struct NestedRowsTests {
    static let definition = #"""
    {"title": "Order",
     "groups": [{"id": "g", "title": "Order", "sections": [
       {"id": "who", "fields": [{"id": "name", "title": "Name", "type": "name", "validations": {"required": true}}]},
       {"id": "lines", "type": "dynamic", "min_instances": 1, "max_instances": 2, "fields": null},
       {"id": "sum", "fields": [{"id": "total", "type": "float", "disabled": true, "formula": "sum(lines[*].amount)"}]}]}],
     "templates": {"sections": [{"id": "lines", "fields": [
       {"id": "lines[:index].item", "title": "Item", "type": "text", "validations": {"required": true}},
       {"id": "lines[:index].amount", "title": "Amount", "type": "float", "validations": {"min_value": 0}},
       {"id": "lines[:index].secret", "title": "Code", "type": "password"}]}]}}
    """#

    static func form() throws -> Form { try Form(id: "order", json: Array(definition.utf8)) }

    static func values(_ json: String) throws -> FormValues { try FormValues(json: Array(json.utf8)) }

    static func j(_ json: String) throws -> JSONValue { try JSONValue(json: Array(json.utf8)) }

    static func answer(_ json: String, evaluate: Bool = false) throws -> JSONValue {
        let form = try form()
        let values = try values(json)
        let bytes = evaluate ? try form.evaluateAnswer(values).json : try form.validateAnswer(values).json
        return try JSONValue(json: bytes)
    }

    @Test func rowsAreReadAsInstancesAndAnsweredAsRows() throws {
        let form = try Self.form()
        let nested = try form.validate(Self.values(#"{"name": "Ola", "lines": [{"item": "Tea", "amount": "2,5"}, {"item": "Cake", "amount": 4}]}"#))
        let flat = try form.validate(Self.values(#"{"name": "Ola", "lines[0].item": "Tea", "lines[0].amount": "2,5", "lines[1].item": "Cake", "lines[1].amount": 4}"#))
        #expect(nested.isValid && flat.isValid)
        // The same state: instances 0 and 1, the same formula result.
        #expect(nested.sections.map(\.id) == ["who", "lines", "lines[0]", "lines[1]", "sum"])
        #expect(nested.fields.map(\.id) == flat.fields.map(\.id))
        #expect(nested.value("total") == 6.5 && flat.value("total") == 6.5)
        // Values: rows for the client that sent rows, flat keys for the one that sent flat keys.
        #expect(JSONWriter.encode(.object(nested.values)) == Array(#"{"name":"Ola","lines":[{"item":"Tea","amount":2.5},{"item":"Cake","amount":4}],"total":6.5}"#.utf8))
        #expect(flat.values.members.map(\.key) == ["name", "lines[0].item", "lines[0].amount", "lines[1].item", "lines[1].amount", "total"])
        // The bytes the server sends say the same, and the typed state writes them back alike.
        let bytes = try form.validateAnswer(Self.values(#"{"name": "Ola", "lines": [{"item": "Tea", "amount": "2,5"}, {"item": "Cake", "amount": 4}]}"#)).json
        #expect(bytes == nested.answerJSON)
    }

    @Test func errorsDroppedAndHiddenKeepFlatFieldPaths() throws {
        let a = try Self.answer(#"{"name": "Ola", "lines": [{"item": "Tea", "amount": -1, "bogus": "x"}, {"amount": 2}]}"#)
        #expect(a["valid"] == .bool(false))
        let errors = a["errors"]?.arrayValue?.map { "\($0["field"]?.stringValue ?? "-"):\($0["code"]?.stringValue ?? "-")" }
        #expect(errors == ["lines[0].amount:min_value", "lines[1].item:required"])
        #expect(a["dropped"] == (try Self.j(#"[{"field": "lines[0].bogus", "reason": "unknown"}]"#)))
        #expect(a["disabled"] == (try Self.j(#"["total"]"#)))
        // The value a kind cannot hold is echoed as sent, in its row.
        let b = try Self.answer(#"{"name": "Ola", "lines": [{"item": "Tea", "amount": "lots"}]}"#)
        #expect(b["values"]?["lines"] == (try Self.j(#"[{"item": "Tea", "amount": "lots"}]"#)))
    }

    @Test func evaluateAnswersRowsToo() throws {
        let a = try Self.answer(#"{"name": "Ola", "lines": [{"item": "Tea", "amount": 1}, {}]}"#, evaluate: true)
        // An empty row is an instance (as a flat key with null makes one), answered as `{}`.
        #expect(a["values"]?["lines"] == (try Self.j(#"[{"item": "Tea", "amount": 1}, {}]"#)))
        #expect(a["sections"]?["lines[1]"] != nil)
        #expect(a["fields"]?["lines[1].amount"] != nil, "fields stay keyed by field path")
        // An empty array: no instances, answered as an empty array (the min_instances error is the section's).
        let b = try Self.answer(#"{"name": "Ola", "lines": []}"#)
        #expect(b["values"]?["lines"] == .array([]))
        #expect(b["errors"]?.arrayValue?.first?["section"] == .string("lines"))
        #expect(b["errors"]?.arrayValue?.first?["code"] == .string("min_instances"))
        // null: no rows, answered as rows.
        let c = try Self.answer(#"{"name": "Ola", "lines": null}"#)
        #expect(c["values"]?["lines"] == .array([]))
    }

    @Test func secretFieldsStayOutOfRows() throws {
        let a = try Self.answer(#"{"name": "Ola", "lines": [{"item": "Tea", "secret": "hunter2"}]}"#)
        #expect(a["values"]?["lines"] == (try Self.j(#"[{"item": "Tea"}]"#)))
    }

    @Test func rowsPastTheLimitAreDroppedAsFlatInstancesAre() throws {
        let a = try Self.answer(#"{"name": "Ola", "lines": [{"item": "A"}, {"item": "B"}, {"item": "C", "amount": 3}]}"#)
        #expect(a["errors"]?.arrayValue?.map { $0["code"] } == [.string("max_instances")])
        #expect(a["errors"]?.arrayValue?.first?["params"] == (try Self.j(#"{"max": 2}"#)))
        #expect(a["values"]?["lines"]?.arrayValue?.count == 2)
        #expect(a["dropped"] == (try Self.j(#"[{"field": "lines[2].item", "reason": "over_limit"}, {"field": "lines[2].amount", "reason": "over_limit"}]"#)))
    }

    @Test(arguments: [
        (#"{"lines": 3}"#, #""lines" is a repeating section: its value must be an array of row objects ("lines": [{...}, ...]), not a number"#),
        (#"{"lines": {"item": "x"}}"#, #""lines" is a repeating section: its value must be an array of row objects ("lines": [{...}, ...]), not an object"#),
        (#"{"lines": [{"item": "x"}, "y"]}"#, #"row 1 of "lines" must be an object of the row's fields, not a string"#),
        (#"{"lines": [null]}"#, #"row 0 of "lines" must be an object of the row's fields, not null"#),
        (#"{"lines[0].item": "x", "lines": [{"item": "y"}]}"#, #""lines[0].item" is a flat key of the repeating section "lines", which the submission also sends as rows: send one form or the other"#),
        (#"{"lines": [], "lines[3].amount": 1}"#, #""lines[3].amount" is a flat key of the repeating section "lines", which the submission also sends as rows: send one form or the other"#),
    ])
    func badShapesAreRequestErrors(body: String, message: String) throws {
        let form = try Self.form()
        let values = try Self.values(body)
        #expect(throws: FormRequestError.badRows(message)) { try form.validate(values) }
        #expect(throws: FormRequestError.badRows(message)) { try form.validateAnswer(values) }
        #expect(throws: FormRequestError.badRows(message)) { try form.evaluateAnswer(values) }
        #expect(throws: FormRequestError.badRows(message)) { try form.evaluate(values) }
    }

    @Test func aSectionNamedTwiceIsARequestError() throws {
        // The parser refuses duplicate keys; a typed caller can still build such an object.
        let form = try Self.form()
        var values = FormValues()
        values.append("lines", .array([]))
        values.append("lines", .array([]))
        #expect(throws: FormRequestError.badRows(#"the submission names the repeating section "lines" twice"#)) { try form.validate(values) }
    }

    @Test func batchLinesWithBadRowsAreProblemLines() throws {
        let form = try Self.form()
        var out: [UInt8] = []
        #expect(form.batchAnswerLine(ArraySlice(#"{"lines": 3}"#.utf8), number: 4, into: &out) == .problem)
        let line = try JSONValue(json: out)
        #expect(line["line"] == .number(JSONNumber(literal: "4")) && line["type"] == .string("/problems/bad-rows"))
        out = []
        #expect(form.batchAnswerLine(ArraySlice(#"{"name": "Ola", "lines": [{"item": "Tea"}]}"#.utf8), number: 1, into: &out) == .valid)
        #expect(String(decoding: out, as: UTF8.self).contains(#""lines":[{"item":"Tea"}]"#))
    }

    @Test func formsWithoutRepeatingSectionsTreatTheKeyAsUnknown() throws {
        let form = try Form(id: "p", json: Array(#"{"groups": [{"sections": [{"id": "s", "fields": [{"id": "a", "type": "text"}]}]}]}"#.utf8))
        let s = try form.validate(Self.values(#"{"a": "x", "lines": [{"item": "y"}]}"#))
        #expect(s.isValid && s.dropped.map(\.key) == ["lines"])
    }
}
