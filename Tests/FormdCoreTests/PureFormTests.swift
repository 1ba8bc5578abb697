import Foundation
import Testing
@testable import FormdCore

/// PureForm definitions (SEMANTICS §12): reading, every validator passing and failing, immediate
/// validators in evaluate, message keys, quirks, and located load errors.
@Suite struct PureFormTests {
    /// One text field cell with `validators`, plus any further elements.
    static func form(_ validators: String, key: String = "f", control: String = "textField?", before: String = "", after: String = "") -> String {
        #"[\#(before){"<TextFieldCell + Id>": {"titleLabel": {"text": "Field"}, "\#(control)": {"<key>": "\#(key)", "<validators>": {\#(validators)}}}}\#(after)]"#
    }

    static func errors(_ definition: String, _ values: String, mode: Evaluation.Mode = .validate, changed: [String] = []) throws -> [String] {
        try Engine.run(definition, values, changed: changed, mode: mode).errorList
    }

    @Test func theShapeIsRecognisedAndReadIntoFields() throws {
        let def = #"""
            [{"<TextFieldCell + A>": {"titleLabel": {"text": "Login"}, "textField?": {"<key>": "login", "placeholder": "you@x"}}},
             {"<= + =>": {"textField?": {"placeholder": "Nickname"}}},
             {"<section>": 1},
             {"<SwitchCell + B>": {"aSwitch?": {"<value>": true}, "label": {"text": "News"}}},
             {"<SegmentedCell + C>": {"segmentedControl?": {"<key>": "plan", "<value>": 2}}},
             {"<SliderCell + D>": {"slider?": {"<key>": "volume", "<value>": "0.5"}, "stepper?": {"<key>": "count"}}}]
            """#
        let form = try Engine.load(def)
        #expect(form.plan.fields.map(\.id) == ["login", "unknown_key_0", "unknown_key_1", "plan", "volume", "count"])
        #expect(form.plan.fields.map(\.kind) == [.text, .text, .switch, .count, .float, .float])
        #expect(form.plan.fields.map(\.label) == ["Login", "Nickname", "News", "plan", "volume", "count"])
        #expect(form.plan.sections.map(\.id) == ["section-0", "section-1"])
        let r = try Engine.run(form, "{}", mode: .validate)
        #expect(r.text("unknown_key_1") == "true" && r.text("plan") == "2" && r.text("volume") == "0.5", "<value> as defaults")
        #expect(String(decoding: form.servedBytes, as: UTF8.self) == def, "served as written")
        #expect(!PureFormReader.recognizes(Engine.json(#"[{"id": "g", "sections": []}]"#)), "an array of groups stays Hyper")
    }

    @Test(arguments: [
        // (validators, value that passes, value that fails, code, message key, params)
        (#""required": true"#, #""x""#, #""""#, "required", "PFValidationRequiredFailure", "{}"),
        (#""min_length": 3"#, #""abc""#, #""ab""#, "min_length", "PFValidationMinLengthFailure", #"{"min": 3}"#),
        (#""max_length": 3"#, #""abc""#, #""abcd""#, "max_length", "PFValidationMaxLengthFailure", #"{"max": 3}"#),
        (#""equal_length": 4"#, #""1234""#, #""123""#, "min_length", "PFValidationEqualLengthFailure", #"{"min": 4}"#),
        (#""equal_length": 4"#, #""1234""#, #""12345""#, "max_length", "PFValidationEqualLengthFailure", #"{"max": 4}"#),
        (#""min_value": 2.5"#, #""2.5""#, #""2.4""#, "min_value", "PFValidationMinValueFailure", #"{"min": 2.5}"#),
        (#""max_value": 10"#, #""10""#, #""11""#, "max_value", "PFValidationMaxValueFailure", #"{"max": 10}"#),
        (#""equal": "yes""#, #""yes""#, #""Yes""#, "compare", "PFValidationEqualFailure", #"{"value": "yes", "rule": "=="}"#),
        (#""equal": 5"#, #""5""#, #""6""#, "compare", "PFValidationEqualFailure", #"{"value": "5", "rule": "=="}"#),
        (#""type": "email""#, #""a@b.museum""#, #""a@localhost""#, "format", "PFValidationTypeFailure", #"{"pattern": "[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}"}"#),
        (#""type": "full_name""#, #""Mary-Jane O'Neil""#, #""John""#, "format", "PFValidationTypeFailure", #"{"pattern": "\\p{L}+(?:[-'’]\\p{L}+)*(?: \\p{L}+(?:[-'’]\\p{L}+)*)+"}"#),
        (#""custom": "[A-Z]{2}[0-9]+""#, #""NO123""#, #""no123""#, "format", "PFValidationCustomFailure", #"{"pattern": "[A-Z]{2}[0-9]+"}"#),
        (#""custom": "[0-9]+""#, #""123""#, #""123a""#, "format", "PFValidationCustomFailure", #"{"pattern": "[0-9]+"}"#),
    ])
    func everyValidatorPassesAndFails(
        validators: String, passing: String, failing: String, code: String, key: String, params: String
    ) throws {
        let def = Self.form(validators)
        #expect(try Self.errors(def, #"{"f": \#(passing)}"#) == [], "\(validators) passes \(passing)")
        let r = try Engine.run(def, #"{"f": \#(failing)}"#, mode: .validate)
        #expect(r.errorList == ["f:\(code)"], "\(validators) fails \(failing)")
        #expect(r.state.errors.first?.messageKey == key)
        #expect(r.error("f", code)?["params"] == Engine.json(params))
        #expect(r.root["errors"]?[0]?["message_key"] == .string(key), "on the wire")
    }

    @Test func equalNextAndPreviousCompareWithTheNeighbouringInput() throws {
        let def = #"""
            [{"<C + A>": {"textField?": {"<key>": "pw"}}},
             {"<= + =>": {"textField?": {"<key>": "again", "<validators>": {"equal_previous": true}}}},
             {"<= + =>": {"textField?": {"<key>": "code", "<validators>": {"equal_next": true}}}},
             {"<= + =>": {"stepper?": {"<key>": "n"}}}]
            """#
        #expect(try Self.errors(def, #"{"pw": "a1", "again": "a1", "code": "7", "n": 7}"#) == [], "typed: the text 7 equals the number 7")
        let r = try Engine.run(def, #"{"pw": "a1", "again": "a2", "code": "8", "n": 7}"#, mode: .validate)
        #expect(r.errorList == ["again:compare", "code:compare"])
        #expect(r.state.errors.map(\.messageKey) == ["PFValidationEqualPreviousFailure", "PFValidationEqualNextFailure"])
        #expect(r.error("again", "compare")?["params"] == Engine.json(#"{"other": "pw", "rule": "=="}"#))
        #expect(try Self.errors(def, #"{"pw": "a1"}"#) == [], "an empty side is no error (formd's compare)")
        let lastRow = Engine.warnings(#"[{"<C + A>": {"textField?": {"<key>": "a", "<validators>": {"equal_next": true}}}}]"#)
        #expect(lastRow.contains { $0.message.contains("no next row") })
    }

    @Test func immediateValidatorsAreWhatEvaluateReportsForChangedInputs() throws {
        let def = Self.form(#""required": true, "min_length!": 3, "custom": "[a-z]+""#)
        #expect(try Self.errors(def, #"{"f": "A1"}"#) == ["f:min_length", "f:format"], "validate runs every rule")
        #expect(try Self.errors(def, #"{"f": "A1"}"#, mode: .evaluate, changed: ["f"]) == ["f:min_length"], "only ! rules")
        #expect(try Self.errors(def, #"{"f": "A1"}"#, mode: .evaluate) == [], "not changed: nothing")
        #expect(try Self.errors(def, #"{}"#, mode: .evaluate, changed: ["f"]) == [], "required is not immediate here")
        let typed = #"[{"<C + A>": {"stepper?": {"<key>": "n", "<validators>": {"max_value!": 3}}}}]"#
        #expect(try Self.errors(typed, #"{"n": "lots"}"#, mode: .evaluate, changed: ["n"]) == ["n:type"], "a value the input cannot hold")
    }

    @Test func quirksAreOptInAndEachDoesWhatItSays() throws {
        func quirk(_ name: String) -> String { #"{"<formd>": {"quirks": ["\#(name)"]}},"# }
        // first_failure_only: the rule written first.
        let many = #""custom": "[a-z]+", "min_length": 5"#
        #expect(try Self.errors(Self.form(many), #"{"f": "A1"}"#) == ["f:min_length", "f:format"])
        #expect(try Self.errors(Self.form(many, before: quirk("first_failure_only")), #"{"f": "A1"}"#) == ["f:format"])
        // lowercase_full_name.
        #expect(try Self.errors(Self.form(#""type": "full_name""#), #"{"f": "John Smith"}"#) == [])
        #expect(try Self.errors(Self.form(#""type": "full_name""#, before: quirk("lowercase_full_name")), #"{"f": "John Smith"}"#) == ["f:format"])
        #expect(try Self.errors(Self.form(#""type": "full_name""#, before: quirk("lowercase_full_name")), #"{"f": "john smith"}"#) == [])
        // false_passes_required: a required switch must be on, unless asked.
        let terms = Self.form(#""required": true"#, key: "t", control: "aSwitch?")
        #expect(try Self.errors(terms, #"{"t": false}"#) == ["t:required"])
        #expect(try Self.errors(terms, #"{"t": true}"#) == [])
        #expect(try Self.errors(Self.form(#""required": true"#, key: "t", control: "aSwitch?", before: quirk("false_passes_required")), #"{"t": false}"#) == [])
        // required_ignores_operand.
        #expect(try Self.errors(Self.form(#""required": false"#), "{}") == [])
        #expect(try Self.errors(Self.form(#""required": false"#, before: quirk("required_ignores_operand")), "{}") == ["f:required"])
        // strings_skip_value_bounds.
        #expect(try Self.errors(Self.form(#""max_value": 3"#), #"{"f": "9"}"#) == ["f:max_value"])
        #expect(try Self.errors(Self.form(#""max_value": 3"#, before: quirk("strings_skip_value_bounds")), #"{"f": "9"}"#) == [])
        // empty_values_differ.
        let pair = #"{"<= + =>": {"textField?": {"<key>": "g", "<validators>": {"equal_previous": true}}}}"#
        #expect(try Self.errors(Self.form("", after: "," + pair), #"{"f": "x"}"#) == [])
        #expect(try Self.errors(Self.form("", before: quirk("empty_values_differ"), after: "," + pair), #"{"f": "x"}"#) == ["g:compare"])
    }

    @Test(arguments: [
        (#"[{"<C + A>": {"textField?": {"<validators>": {"eqaul": 1}}}}]"#, "unknown validator \"eqaul\""),
        (#"[{"<C + A>": {"textField?": {"<validators>": {"type": "phone"}}}}]"#, "type is \"email\" or \"full_name\""),
        (#"[{"<C + A>": {"textField?": {"<validators>": {"custom": "(["}}}}]"#, "regex does not compile"),
        (#"[{"<C + A>": {"textField?": {"<validators>": {"min_length": -1}}}}]"#, "min_length takes a whole number"),
        (#"[{"<C + A>": {"textField?": {"<validators>": {"required": "yes"}}}}]"#, "required takes true or false"),
        (#"[{"<C + A>": {"picker?": {}}}]"#, "cannot tell what \"picker?\" holds"),
        (#"[{"<C + A>": {"textField?": {"<key>": "a"}}}, {"<= + =>": {"textField?": {"<key>": "a"}}}]"#, "the key \"a\" is also used"),
        (#"[{"<section>": 0}, {"<C + A>": {"textField?": {}}}, {"<section>": 2}, {"<C + A>": {"textField?": {}}}]"#, "section 1 is missing"),
        (#"[{"<formd>": {"quirks": ["everything"]}}, {"<C + A>": {"textField?": {}}}]"#, "unknown quirk \"everything\""),
        (#"[{"<C + A>": {"textField?": {}}}, {"<section>": 999999999999}, {"<C + A>": {"textField?": {}}}]"#, "without gaps, and this document has 3 elements"),
        (#"[{"<C + A>": {"textField?": {"<validators>": {"equal": "x"}}}, "<D + B>": {}}, {"nonsense": 1}]"#, "a cell is keyed"),
        (#"[{"<C + A>": {"stepper?": {"<validators>": {"equal": "many"}}}}]"#, "never a value of this float input"),
    ])
    func badDefinitionsAreLocatedErrors(definition: String, message: String) throws {
        let errors = Engine.errors(definition)
        #expect(errors.contains { $0.message.contains(message) }, "\(errors.map(\.message))")
        #expect(errors.allSatisfy { $0.line >= 1 && $0.column > 1 || $0.path.isEmpty }, "located: \(errors.map { ($0.line, $0.column, $0.path) })")
    }

    @Test func theBundledFormBehavesAsDocumented() throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Forms/registration-pureform.json")))
        let result = FormLoader.load(id: "registration-pureform", bytes: bytes)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let form = try #require(result.form)
        let valid = #"{"email": "kari@example.no", "full_name": "Kari Nordmann", "password": "hemmelig1", "password_confirmation": "hemmelig1", "pin": "1234", "terms": true}"#
        #expect(try Engine.run(form, valid, mode: .validate).valid == true)
        let r = try Engine.run(form, #"{"email": "kari", "password": "short", "password_confirmation": "other", "terms": false, "seats": 0}"#, mode: .validate)
        #expect(r.errorList == ["email:format", "password:min_length", "password:format", "password_confirmation:compare", "seats:min_value", "terms:required"])
    }
}
