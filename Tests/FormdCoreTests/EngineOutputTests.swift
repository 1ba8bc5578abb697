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

    /// An answer copies what the form's compiler wrote once (field ids, built-in codes, the
    /// params of a field's own rules); what it writes must be what the typed state holds: every
    /// error kind, a pattern that needs escaping, template rows (ids made per request), warnings.
    @Test(arguments: [SupportedLocale.en, .nb])
    func errorsWrittenFromCompiledTextMatchTheTypedState(locale: SupportedLocale) throws {
        let def = #"""
            {"groups": [{"sections": [
                {"id": "s0", "fields": [
                    {"id": "name", "type": "text", "title": "Name \"quoted\"", "validations": {"required": true, "min_length": 3, "max_length": 4}},
                    {"id": "code", "type": "text", "validations": {"format": "^[a-z\\\"]+\\d$"}},
                    {"id": "n", "type": "float", "validations": {"min_value": 0.5}},
                    {"id": "m", "type": "float", "validations": {"max_value": -1e2}},
                    {"id": "tags", "type": "multi_select", "values": [{"id": "a"}, {"id": "b"}], "validations": {"min_selections": 2}},
                    {"id": "tags2", "type": "multi_select", "values": [{"id": "a"}, {"id": "b"}], "validations": {"max_selections": 1}},
                    {"id": "d", "type": "date"}, {"id": "e", "type": "date", "validations": {"compare_to": "d", "compare_rule": ">"}},
                    {"id": "w", "type": "text", "warnings": {"min_length": 3, "format": "^a"}}]},
                {"id": "items", "type": "dynamic"}]}],
             "templates": {"sections": [{"id": "items", "fields": [
                {"id": "items[:index].price", "type": "float", "validations": {"max_value": 100, "format": "^1"}},
                {"id": "items[:index].max", "type": "float", "validations": {"compare_to": "items[:index].price", "compare_rule": ">="}}]}]}}
            """#
        let r = try Engine.run(
            def, #"{"name": "ab", "code": "x", "n": 0.25, "m": 3, "tags": ["a"], "tags2": ["a", "b"], "d": "2025-01-02", "e": "2025-01-01", "w": "b", "items[1].price": 200, "items[1].max": 1, "items[3].price": "x"}"#,
            mode: .validate, locale: locale)
        let wire = try #require(r.root.objectValue)
        let errors = try #require(wire["errors"]?.arrayValue)
        #expect(errors.count >= 9)
        #expect(errors == r.errors)
        #expect(r.error("items[1].max", "compare")?.objectValue?["params"] == Engine.json(#"{"other": "items[1].price", "rule": ">="}"#))
        #expect(r.error("e", "compare")?.objectValue?["params"] == Engine.json(#"{"other": "d", "rule": ">"}"#))
        #expect(Set(r.errorList).isSuperset(of: [
            "name:min_length", "code:format", "n:min_value", "m:max_value", "tags:min_selections", "tags2:max_selections", "e:compare",
            "items[1].price:max_value", "items[1].price:format", "items[1].max:compare", "items[3].price:type",
        ]))
        let warnings = try #require(wire["warnings"]?.arrayValue)
        #expect(warnings.count == r.state.warnings.count && warnings.count == 2)
        #expect(warnings.map { $0.objectValue?["code"] } == r.state.warnings.map { .string($0.code) })
        #expect(warnings.map { $0.objectValue?["params"] } == r.state.warnings.map { w in
            .object(JSONObject(w.params.map { JSONObject.Member(key: $0.key, value: $0.value) })) })
    }

    @Test func builtInCodeNamesAreTheirRawValues() {
        for code in ErrorCode.allCases { #expect("\(code.name)" == code.rawValue) }
    }

    @Test func compiledParamsAreWrittenAsTheWriterWritesThem() {
        let lists: [[(key: String, value: JSONValue)]] = [
            [], [("min", .int(2))], [("pattern", .string(#"^\+?"[0-9 ]{8,19}$"#))],
            [("max", .number(JSONNumber(literal: "-1e2"))), ("rule", .string("<=")), ("fields", .array([.string("a"), .null]))],
        ]
        for list in lists {
            var w = JSONWriter()
            w.params(list)
            #expect(ParamList(encoding: list).json == w.bytes)
            #expect(ParamList(list).json.isEmpty)
        }
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
