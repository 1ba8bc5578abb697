import Testing
@testable import FormdCore

extension Response {
    /// `field:code` per warning, in order.
    var warningList: [String] {
        state.warnings.map { e in
            switch e.subject {
            case .field(let id), .section(let id): id + ":" + e.code
            case .form: ":" + e.code
            }
        }
    }
}

/// SEMANTICS §6: `"required": "<condition>"` requires the field while the condition holds.
@Suite struct ConditionalRequiredTests {
    static let def = Engine.fields(
        #"{"id": "contact_me", "type": "switch", "title": "Contact me"}"#,
        #"{"id": "channel", "type": "select", "values": [{"id": "phone"}, {"id": "email"}]}"#,
        #"{"id": "phone", "type": "text", "title": "Phone", "validations": {"required": "$contact_me == 1 && equals($channel, \"phone\")"}}"#,
        #"{"id": "always", "type": "text", "validations": {"required": true}}"#,
        #"{"id": "never", "type": "text", "validations": {"required": false}}"#)

    @Test func requiredFollowsTheCondition() throws {
        let off = try Engine.run(Self.def, #"{"always": "x"}"#, mode: .validate)
        #expect(off.errorList == [])
        let on = try Engine.run(Self.def, #"{"always": "x", "contact_me": true, "channel": "phone"}"#, mode: .validate)
        #expect(on.errorList == ["phone:required"])
        #expect(on.error("phone", "required")?["message"]?.stringValue == "Phone is required.")
        let filled = try Engine.run(Self.def, #"{"always": "x", "contact_me": 1, "channel": "phone", "phone": "123"}"#, mode: .validate)
        #expect(filled.errorList == [])
        let email = try Engine.run(Self.def, #"{"always": "x", "contact_me": "true", "channel": "email"}"#, mode: .validate)
        #expect(email.errorList == [])
    }

    @Test func evaluateFieldsRequiredFollowsIt() throws {
        let form = try Engine.load(Self.def)
        let off = try Engine.run(form, #"{}"#)
        #expect(off.required("phone") == false)
        #expect(off.required("always") == true)
        #expect(off.required("never") == false)
        let on = try Engine.run(form, #"{"contact_me": true, "channel": "phone"}"#)
        #expect(on.required("phone") == true)
        // As on the wire.
        #expect(on.root["fields"]?["phone"]?["required"] == .bool(true))
        // Evaluate reports `required` only for changed fields, as for `required: true`.
        #expect(on.errorList == [])
        let changed = try Engine.run(form, #"{"contact_me": true, "channel": "phone"}"#, changed: ["phone"])
        #expect(changed.errorList == ["phone:required"])
    }

    @Test func aHiddenFieldIsNeverRequired() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "switch", "targets": [{"id": "b", "type": "field", "action": "hide", "condition": "$a == 1"}]}"#,
            #"{"id": "b", "type": "text", "validations": {"required": "$a == 1"}}"#)
        let r = try Engine.run(def, #"{"a": true}"#, mode: .validate)
        #expect(r.errorList == [])
        let e = try Engine.run(def, #"{"a": true}"#)
        #expect(e.required("b") == false)
    }

    @Test func stateTokensFollowIt() throws {
        let form = try Engine.load(Self.def)
        let (before, _, _) = try Engine.evaluation(form, #"{}"#).snapshot()
        let after = try Engine.evaluation(form, #"{"contact_me": true, "channel": "phone"}"#, changed: ["contact_me"])
        var w = JSONWriter()
        after.evaluateResponse(head: form.answerHead, form: form.id, version: form.version, previous: before, into: &w)
        let root = try JSONParser.parse(w.bytes).root
        #expect(root["changes"]?["fields"]?["phone"]?["required"] == .bool(true))
    }

    @Test func templateInstancesUseTheirOwnIndex() throws {
        let def = #"""
            {"groups": [{"id": "g", "sections": [{"id": "items", "type": "dynamic", "action_title": "Add"}]}],
             "templates": {"sections": [{"id": "items", "fields": [
               {"id": "items[:index].gift", "type": "switch"},
               {"id": "items[:index].note", "type": "text", "validations": {"required": "$items[:index].gift == 1"}}]}]}}
            """#
        let r = try Engine.run(def, #"{"items[0].gift": true, "items[1].gift": false}"#, mode: .validate)
        #expect(r.errorList == ["items[0].note:required"])
    }

    @Test func badConditionsAreLoadErrors() throws {
        let unknown = Engine.errors(Engine.fields(#"{"id": "a", "type": "text", "validations": {"required": "$nope == 1"}}"#))
        #expect(unknown.count == 1)
        #expect(unknown.first?.message.contains("unknown field \"nope\"") == true)
        #expect(unknown.first?.path == "[0].sections[0].fields[0].validations.required")
        let syntax = Engine.errors(Engine.fields(#"{"id": "a", "type": "text", "validations": {"required": "$a == "}}"#))
        #expect(syntax.count == 1)
        let type = Engine.errors(
            Engine.fields(
                #"{"id": "n", "type": "count"}"#, #"{"id": "a", "type": "text", "validations": {"required": "$n == \"yes\""}}"#))
        #expect(type.first?.message.contains("never equal to the text \"yes\"") == true)
        let wrongType = Engine.errors(Engine.fields(#"{"id": "a", "type": "text", "validations": {"required": 3}}"#))
        #expect(wrongType.count == 1)
    }
}

/// SEMANTICS §6: expression rules.
@Suite struct ExpressionRuleTests {
    static let def = #"""
        {"messages": {"nb": {"end_before_start": "Slutt før start ({label})."}},
         "groups": [{"id": "g", "sections": [{"id": "s", "fields": [
          {"id": "start", "type": "count", "title": "Start"},
          {"id": "end", "type": "count", "title": "End",
           "validations": {"min_value": 0, "rules": [
             {"condition": "$end >= $start", "code": "end_before_start", "message": {"en": "{label} must not be before the start.", "es": "El final no puede ser anterior."}},
             {"condition": "$end - $start <= 10", "code": "too_long"},
             {"condition": "$end != 7"}]}},
          {"id": "pin", "type": "text", "validations": {"messages": {"pin_digits": "Four digits, please."},
             "rules": [{"condition": "$pin >= 1000 && $pin <= 9999", "code": "pin_digits", "message": "ignored: the field's override wins"}]}}
        ]}]}]}
        """#

    @Test func aFailedRuleHasItsCodeAndMessage() throws {
        let r = try Engine.run(Self.def, #"{"start": 5, "end": 3}"#, mode: .validate)
        #expect(r.errorList == ["end:end_before_start"])
        #expect(r.error("end", "end_before_start")?["message"]?.stringValue == "End must not be before the start.")
        #expect(r.valid == false)
        let many = try Engine.run(Self.def, #"{"start": 1, "end": 20}"#, mode: .validate)
        #expect(many.errorList == ["end:too_long"])
        #expect(many.error("end", "too_long")?["message"]?.stringValue == "End is not valid.")
        let seven = try Engine.run(Self.def, #"{"start": 1, "end": 7}"#, mode: .validate)
        #expect(seven.errorList == ["end:rule"])
    }

    @Test func localesAndOverrides() throws {
        let form = try Engine.load(Self.def)
        let nb = try Engine.run(form, #"{"start": 5, "end": 3}"#, mode: .validate, locale: .nb)
        #expect(nb.error("end", "end_before_start")?["message"]?.stringValue == "Slutt før start (End).")
        let es = try Engine.run(form, #"{"start": 5, "end": 3}"#, mode: .validate, locale: .es)
        #expect(es.error("end", "end_before_start")?["message"]?.stringValue == "El final no puede ser anterior.")
        let pin = try Engine.run(form, #"{"pin": "12"}"#, mode: .validate)
        #expect(pin.error("pin", "pin_digits")?["message"]?.stringValue == "Four digits, please.")
        // Overrides naming a rule's code are not "unknown codes".
        #expect(Engine.warnings(Self.def) == [])
    }

    @Test func aRuleWithAnEmptyFieldDoesNotFail() throws {
        let r = try Engine.run(Self.def, #"{"end": 3}"#, mode: .validate)
        #expect(r.errorList == [])
        let own = try Engine.run(Self.def, #"{"start": 3}"#, mode: .validate)
        #expect(own.errorList == [])
    }

    @Test func rulesRunAfterTheFieldsOwnChecksAndRequiredStopsThem() throws {
        let r = try Engine.run(Self.def, #"{"start": 5, "end": -1}"#, mode: .validate)
        #expect(r.errorList == ["end:min_value", "end:end_before_start"])
        let def = Engine.fields(
            #"{"id": "a", "type": "count", "validations": {"required": true, "rules": [{"condition": "$a > 0"}]}}"#)
        #expect(try Engine.run(def, #"{"a": "x"}"#, mode: .validate).errorList == ["a:type"])
        #expect(try Engine.run(def, #"{}"#, mode: .validate).errorList == ["a:required"])
        #expect(try Engine.run(def, #"{"a": 0}"#, mode: .validate).errorList == ["a:rule"])
    }

    @Test func aRuleThatReadsAHiddenFieldDoesNotFail() throws {
        let def = Engine.fields(
            #"{"id": "x", "type": "count", "hidden": true}"#,
            #"{"id": "y", "type": "count", "validations": {"rules": [{"condition": "$y > $x"}]}}"#)
        #expect(try Engine.run(def, #"{"x": 10, "y": 1}"#, mode: .validate).errorList == [])
    }

    @Test func templateRulesUseTheirOwnInstance() throws {
        let def = #"""
            {"groups": [{"id": "g", "sections": [{"id": "items", "type": "dynamic", "action_title": "Add"}]}],
             "templates": {"sections": [{"id": "items", "fields": [
               {"id": "items[:index].min", "type": "count"},
               {"id": "items[:index].max", "type": "count", "validations": {"rules": [{"condition": "$items[:index].max >= $items[:index].min", "code": "range"}]}}]}]}}
            """#
        let r = try Engine.run(def, #"{"items[0].min": 1, "items[0].max": 5, "items[3].min": 9, "items[3].max": 2}"#, mode: .validate)
        #expect(r.errorList == ["items[3].max:range"])
    }

    @Test func checkNamesUnknownFieldsTypeMismatchesAndCycles() throws {
        let unknown = Engine.errors(Engine.fields(#"{"id": "a", "type": "count", "validations": {"rules": [{"condition": "$a > $b"}]}}"#))
        #expect(unknown.map(\.message) == ["rule condition: condition names an unknown field \"b\""])
        #expect(unknown.first?.path == "[0].sections[0].fields[0].validations.rules[0].condition")
        // line:col point into the condition text, at the unknown name.
        let text = "[{\"id\": \"g\", \"sections\": [{\"id\": \"s\", \"fields\": [\n{\"id\": \"a\", \"type\": \"count\", \"validations\": {\"rules\": [{\"condition\": \"$a > $b\"}]}}]}]}]"
        let located = try #require(Engine.errors(text).first)
        #expect(located.line == 2)
        #expect(located.column == 77)  // the "b" of "$b"

        let date = Engine.errors(
            Engine.fields(
                #"{"id": "d", "type": "date"}"#, #"{"id": "a", "type": "count", "validations": {"rules": [{"condition": "$d > 3"}]}}"#))
        #expect(date.first?.message.contains("\"d\" is ordered with '>', but it is a date field") == true)
        let select = Engine.errors(
            Engine.fields(
                #"{"id": "c", "type": "select", "values": [{"id": "yes"}, {"id": "no"}]}"#,
                #"{"id": "a", "type": "text", "validations": {"rules": [{"condition": "$c == \"maybe\""}]}}"#))
        #expect(select.first?.message.contains("has no option \"maybe\"") == true)
        let text2 = Engine.errors(Engine.fields(#"{"id": "a", "type": "count", "validations": {"rules": [{"condition": "$a + \"x\" > 1"}]}}"#))
        #expect(text2.first?.message.contains("the text \"x\" is used in arithmetic") == true)

        let cycle = Engine.errors(
            Engine.fields(
                #"{"id": "p", "type": "float", "formula": "q + 1"}"#, #"{"id": "q", "type": "float", "formula": "p + 1"}"#,
                #"{"id": "a", "type": "count", "validations": {"rules": [{"condition": "$a > $q"}]}}"#))
        #expect(cycle.map(\.message).contains("formula cycle: p -> q -> p"))
        #expect(cycle.map(\.message).contains("condition reads \"q\", a member of the formula cycle p -> q -> p"))
        let cyclePath = cycle.first { $0.message.hasPrefix("condition reads") }?.path
        #expect(cyclePath == "[0].sections[0].fields[2].validations.rules[0].condition")
    }

    @Test func badRuleShapesAreLoadErrors() throws {
        func messages(_ rules: String) -> [String] {
            Engine.errors(Engine.fields(#"{"id": "a", "type": "count", "validations": {"rules": "# + rules + "}}")).map(\.message)
        }
        #expect(messages(#""$a > 1""#).count == 1)
        #expect(messages(#"[{"code": "x"}]"#) == ["a rule needs a \"condition\" that must hold"])
        #expect(messages(#"[{"condition": "$a > 1", "code": "required"}]"#).first?.contains("built-in error code") == true)
        #expect(messages(#"[{"condition": "$a > 1", "code": "1 bad"}]"#).count == 1)
        #expect(messages(#"[{"condition": "$a > 1", "message": 3}]"#).count == 1)
        #expect(messages(#"[3]"#).count == 1)
        // A self-reference is an ordinary rule.
        #expect(messages(#"[{"condition": "$a % 2 == 0"}]"#) == [])
    }

    @Test func giantRuleListsAreBounded() throws {
        let rule = #"{"condition": "$a > 1"}"#
        let list = "[" + Array(repeating: rule, count: DefinitionLimits.maxRulesPerField + 1).joined(separator: ",") + "]"
        let errors = Engine.errors(Engine.fields(#"{"id": "a", "type": "count", "validations": {"rules": "# + list + "}}"))
        #expect(errors.map(\.message) == ["1001 rules, over the limit of 1000 per field"])
    }

    @Test func secretsMayBeReadByRules() throws {
        let def = Engine.fields(
            #"{"id": "pw", "type": "password"}"#,
            #"{"id": "hint", "type": "text", "validations": {"rules": [{"condition": "$hint != $pw", "code": "hint_is_password"}]}}"#)
        let r = try Engine.run(def, #"{"pw": "s3cret", "hint": "s3cret"}"#, mode: .validate)
        #expect(r.errorList == ["hint:hint_is_password"])
        #expect(r.valueKeys == ["hint"])
    }
}

/// API.md §4.1: a conditional `required` in the submission schema, exactly where an if/then can
/// say it, else described.
@Suite struct ConditionalRequiredSchemaTests {
    @Test func exactConditionsBecomeIfThen() throws {
        let def = Engine.fields(
            #"{"id": "contact_me", "type": "switch"}"#,
            #"{"id": "channel", "type": "select", "values": [{"id": "phone"}, {"id": "email"}]}"#,
            #"{"id": "phone", "type": "text", "validations": {"required": "$contact_me == 1 && $channel == \"phone\""}}"#,
            #"{"id": "why", "type": "text", "validations": {"required": "$contact_me == 0 || missing($channel)"}}"#)
        let form = Form(loaded: try Engine.load(def), options: EvaluationOptions())
        // The lenient schema: every spelling of the operands' values.
        let lenient = form.lenientSubmissionSchema
        let allOf = try #require(lenient["allOf"]?.arrayValue)
        #expect(allOf.count == 1)
        let test = try #require(allOf.first?["if"])
        #expect(test["required"] == Engine.json(#"["contact_me", "channel"]"#))
        #expect(test["properties"]?["contact_me"]?["enum"] == Engine.json(#"[true, 1, "true", "1"]"#))
        #expect(test["properties"]?["channel"]?["enum"] == Engine.json(#"["phone"]"#))
        #expect(allOf.first?["then"]?["required"] == Engine.json(#"["phone"]"#))
        // The then-branch refuses no value.
        let branches = try #require(allOf.first?["then"]?["properties"]?["phone"]?["anyOf"]?.arrayValue)
        #expect(!branches.contains { $0["type"]?.stringValue == "null" })
        // The canonical schema: the same if/then, with the canonical spelling only (one type).
        let schema = form.submissionSchema
        let canonical = try #require(schema["allOf"]?.arrayValue?.first)
        #expect(canonical["if"]?["properties"]?["contact_me"]?["enum"] == Engine.json("[true]"))
        #expect(canonical["then"]?["required"] == Engine.json(#"["phone"]"#))
        #expect(canonical["then"]?["properties"]?["phone"]?["type"] == .string("string"))
        #expect(canonical["then"]?["properties"]?["phone"]?["pattern"] == .string("\\S"), "a value, not a blank string")
        // Not expressible: described only, and optional.
        #expect(schema["properties"]?["why"]?["description"]?.stringValue?.contains("required when $contact_me == 0 || missing($channel)") == true)
        #expect(schema["required"] == nil)
    }

    @Test func hideableOrDefaultedOperandsAreNotExpressed() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "switch", "value": true}"#,
            #"{"id": "b", "type": "text", "validations": {"required": "$a == 1"}}"#)
        let schema = Form(loaded: try Engine.load(def), options: EvaluationOptions()).submissionSchema
        #expect(schema["allOf"] == nil)
    }
}
