import Testing
@testable import FormdCore

/// SEMANTICS §8 (output normalisation) and the §-0 principle: same input, same bytes.
@Suite struct EngineOutputTests {
    static let def = Engine.fields(
        #"{"id": "b", "type": "text"}"#, #"{"id": "a", "type": "float"}"#,
        #"{"id": "go", "type": "button"}"#, #"{"id": "gap", "type": "spacer"}"#,
        #"{"id": "h", "type": "text", "hidden": true}"#,
        #"{"id": "f", "type": "float", "formula": "a * 2"}"#,
        #"{"id": "c", "type": "text", "targets": [{"id": "b", "type": "field", "action": "clear"}]}"#)

    @Test func valuesInDefinitionOrderWithoutNonInputs() throws {
        let r = try Engine.run(Self.def, #"{"f": 1, "a": "2,5", "b": "x", "zz": 1, "go": "press", "gap": 1}"#)
        #expect(r.valueKeys == ["b", "a", "f"])
        #expect(r.text("a") == "2.5")
        #expect(r.text("f") == "5")
        #expect(r.fieldIDs == ["b", "a", "go", "gap", "h", "f", "c"])
        #expect(r.visible("go") == true)
    }

    @Test func droppedReasonsInSubmissionOrderFirstReasonWins() throws {
        let r = try Engine.run(
            Self.def, #"{"zz": 1, "go": "press", "gap": true, "h": "x", "f": 99, "b": "x", "c": "y", "a": 2, "empty": "", "nul": null}"#,
            changed: ["c"])
        #expect(r.dropped == ["zz:unknown", "go:not_input", "gap:not_input", "h:hidden", "f:computed", "b:cleared"])
        #expect(r.valueKeys == ["a", "f", "c"])
    }

    /// Dropped keys come from two places (slots in slot order, unplaced keys in member order)
    /// and are put back into submission order: long lists, members past 64, slots sent backwards.
    @Test(arguments: [3, 20, 40])
    func droppedKeysOfManyKindsStayInSubmissionOrder(fields: Int) throws {
        let def = Engine.fields(
            (0..<fields).map { #"{"id": "h\#($0)", "type": "text", "hidden": true}, {"id": "t\#($0)", "type": "text"}"# }
                .joined(separator: ","))
        var keys: [String] = []
        var expected: [String] = []
        for i in (0..<fields).reversed() {
            keys += [#""u\#(i)": 1"#, #""h\#(i)": "x""#, #""t\#(i)": "kept""#]
            expected += ["u\(i):unknown", "h\(i):hidden"]
        }
        let r = try Engine.run(def, "{" + keys.joined(separator: ",") + "}", mode: .validate)
        #expect(r.dropped == expected)
        #expect(r.valueKeys.count == fields)
    }

    @Test func nullAndEmptySubmissionsAreNotDropped() throws {
        let r = try Engine.run(Self.def, #"{"h": null, "zz": "", "go": "  "}"#)
        #expect(r.dropped == [])
    }

    @Test func invalidValuesAreReturnedAsSentAndNotDropped() throws {
        let r = try Engine.run(Self.def, #"{"a": "abc"}"#)
        #expect(r.text("a") == "\"abc\"")
        #expect(r.dropped == [])
        #expect(r.text("f") == "0")
    }

    @Test func responseShapes() throws {
        let form = try Engine.load(Self.def)
        let v = try Engine.run(form, #"{"a": 1}"#, mode: .validate)
        #expect(v.root.objectValue?.members.map(\.key) == ["form", "version", "valid", "values", "errors", "dropped", "hidden", "disabled"])
        #expect(v.root["form"]?.stringValue == "f")
        #expect(v.root["version"]?.stringValue == form.version)
        #expect(v.hidden == ["h"])
        let e = try Engine.run(form, #"{"a": 1}"#)
        #expect(e.root.objectValue?.members.map(\.key) == ["form", "version", "values", "fields", "sections", "actions", "errors", "dropped"])
        #expect(e.root["fields"]?["h"]?.jsonText == #"{"visible":false,"enabled":true,"required":false}"#)
        #expect(e.sectionIDs == ["s"])
    }

    @Test func deterministicBytes() throws {
        let form = try Engine.load(EngineTemplateTests.def)
        let values = #"{"items[3].price": 7, "email": "a@b.no", "zz": 1, "items[1].kind": "1", "trigger": true, "items[2].max": 1}"#
        for mode in [Evaluation.Mode.validate, .evaluate] {
            let first = try Engine.body(form, values, changed: ["trigger", "items[1].kind"], mode: mode, locale: .nb)
            let second = try Engine.body(form, values, changed: ["trigger", "items[1].kind"], mode: mode, locale: .nb)
            #expect(first == second)
            #expect(!first.isEmpty)
        }
        // Loading twice gives the same version.
        #expect(try Engine.load(EngineTemplateTests.def).version == form.version)
    }

    @Test func manyFieldsStayLinear() throws {
        // 10,000 sources with a structural target each (10,000 actions) and 10,000 formulas. A
        // quadratic step (a linear `contains` per action, or an array copied per append) took
        // about 9 s here in a debug build; the evaluation now takes under 1 s.
        let n = 10_000
        var fields: [String] = []
        var values: [String] = []
        for i in 0..<n {
            fields.append("{\"id\": \"f\(i)\", \"type\": \"text\", \"targets\": [{\"id\": \"g\(i)\", \"type\": \"field\", \"action\": \"disable\"}]}")
            fields.append("{\"id\": \"g\(i)\", \"type\": \"float\", \"formula\": \"f\(i) * 1\"}")
            values.append("\"f\(i)\": \"\(i)\"")
        }
        let form = try Engine.load("[{\"sections\": [{\"id\": \"s\", \"fields\": [" + fields.joined(separator: ",") + "]}]}]")
        let submission = try #require(try JSONParser.parse("{" + values.joined(separator: ",") + "}").root.objectValue)
        // The thread's CPU time, not the wall clock: a busy host must not fail this test; a
        // sanitizer build runs several times slower, a quadratic step still far slower than that.
        let start = ThreadCPUClock.now()
        let e = Evaluation(plan: form.plan, values: submission, changed: [], mode: .evaluate, options: EvaluationOptions())
        let elapsed = Duration.nanoseconds(Int64(ThreadCPUClock.now() - start))
        let limit: Duration = FormatPatternBoundTests.underSanitizer ? .seconds(20) : .seconds(4)
        var w = JSONWriter()
        e.evaluateResponse(head: AnswerWriter.head(form: "f", version: "v"), form: "f", version: "v", into: &w)
        let root = try JSONParser.parse(w.bytes).root
        #expect(root["actions"]?.arrayValue?.count == n)
        #expect(root["values"]?["g9999"]?.jsonText == "9999")
        #expect(root["fields"]?["g9999"]?["enabled"]?.boolValue == false)
        #expect(elapsed < limit, "evaluation of \(2 * n) fields took \(elapsed) of CPU")
    }
}
