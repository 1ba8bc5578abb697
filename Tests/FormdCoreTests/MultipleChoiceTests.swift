import Testing
@testable import FormdCore

/// `multi_select`: values, checks, targets, formulas, conditions and labels (SEMANTICS §2–§6).
@Suite struct MultipleChoiceTests {
    static let toppings = #"""
        {"id": "toppings", "type": "multi_select", "title": {"en": "Toppings", "nb": "Fyll"},
         "values": [{"id": "cheese", "title": {"en": "Cheese", "nb": "Ost"}, "value": 10},
                    {"id": "ham", "title": "Ham", "value": 15.5},
                    {"id": 3, "title": "Olives"},
                    {"id": "chili", "title": "Chili", "targets": [{"id": "strength", "type": "field", "action": "show"}]}],
         "validations": {"min_selections": 2, "max_selections": 3}}
        """#
    static let strength = #"{"id": "strength", "type": "count", "hidden": true, "validations": {"required": true}}"#

    static var form: String { Engine.fields(toppings, strength) }

    @Test func theValueIsTheChosenIdsInDefinitionOrder() throws {
        let r = try Engine.run(Self.form, #"{"toppings": ["ham", "3", "cheese"]}"#, mode: .validate)
        #expect(r.text("toppings") == #"["cheese","ham",3]"#, "ids as the definition types them, in its order")
        #expect(r.valid == true)
    }

    @Test func oneValueAloneIsAListOfOne() throws {
        let r = try Engine.run(Engine.fields(Self.toppings.replacingOccurrences(of: #""min_selections": 2, "#, with: "")), #"{"toppings": "ham"}"#, mode: .validate)
        #expect(r.text("toppings") == #"["ham"]"#)
        #expect(r.valid == true)
    }

    @Test(arguments: [
        #"["cheese", "cheese"]"#, #"["cheese", "Cheese"]"#, #"["cheese", "pepperoni"]"#, #"["cheese", null]"#,
        #"["cheese", ""]"#, #"["cheese", ["ham"]]"#, #"["cheese", {"id": "ham"}]"#, #"{"cheese": true}"#, #""pepperoni""#,
        #"[3, "3"]"#,
    ])
    func duplicatesUnknownIdsAndOtherShapesAreTypeErrors(value: String) throws {
        let r = try Engine.run(Self.form, #"{"toppings": "# + value + "}", mode: .validate)
        #expect(r.errorList == ["toppings:type"], "\(value)")
        #expect(r.error("toppings", "type")?["params"] == Engine.json(#"{"expected": "multi_select"}"#))
        #expect(r.value("toppings") == Engine.json(value), "echoed as sent")
    }

    @Test func selectionCountsAreChecked() throws {
        let few = try Engine.run(Self.form, #"{"toppings": ["ham"]}"#, mode: .validate)
        #expect(few.errorList == ["toppings:min_selections"])
        #expect(few.error("toppings", "min_selections")?["params"] == Engine.json(#"{"min": 2}"#))
        #expect(few.state.errors[0].message == "Choose at least 2 for Toppings.")
        let many = try Engine.run(Self.form, #"{"toppings": ["ham", "cheese", 3, "chili"], "strength": 2}"#, mode: .validate)
        #expect(many.errorList == ["toppings:max_selections"])
        #expect(many.error("toppings", "max_selections")?["params"] == Engine.json(#"{"max": 3}"#))
        let nb = try Engine.run(Self.form, #"{"toppings": ["ham"]}"#, mode: .validate, locale: .nb)
        #expect(nb.state.errors[0].message == "Velg minst 2 for Fyll.")
    }

    @Test func requiredMeansNonEmptyAndAnEmptyListChoosesNothing() throws {
        let def = Engine.fields(#"""
            {"id": "days", "type": "multi_select", "validations": {"required": true, "min_selections": 2},
             "values": [{"id": "mon", "default": true}, {"id": "tue"}, {"id": "wed", "default": true}]}
            """#)
        let defaults = try Engine.run(def, "{}", mode: .validate)
        #expect(defaults.text("days") == #"["mon","wed"]"#, "every default option")
        let empty = try Engine.run(def, #"{"days": []}"#, mode: .validate)
        #expect(empty.text("days") == "[]", "an empty list replaces the defaults and is returned")
        #expect(empty.errorList == ["days:required"], "and has no value for required; min_selections does not apply")
        let null = try Engine.run(def, #"{"days": null}"#, mode: .validate)
        #expect(null.text("days") == #"["mon","wed"]"#, "null is no value: the default applies")
        let optional = try Engine.run(def.replacingOccurrences(of: #""required": true, "#, with: ""), #"{"days": []}"#, mode: .validate)
        #expect(optional.valid == true)
    }

    @Test func everyChosenOptionsTargetsAreInForce() throws {
        let without = try Engine.run(Self.form, #"{"toppings": ["ham", "cheese"]}"#, mode: .validate)
        #expect(without.visible("strength") == false && without.valid == true)
        let with = try Engine.run(Self.form, #"{"toppings": ["ham", "chili"]}"#, mode: .validate)
        #expect(with.visible("strength") == true)
        #expect(with.errorList == ["strength:required"])
        let evaluated = try Engine.run(Self.form, #"{"toppings": ["chili", "cheese"]}"#)
        #expect(evaluated.actions == ["strength:field:show"])
    }

    @Test func valueTargetsOfEveryChosenOptionRunWhenChanged() throws {
        let def = Engine.fields(#"""
            {"id": "plan", "type": "multi_select", "values": [
              {"id": "a", "targets": [{"id": "note", "type": "field", "action": "update", "target_value": "from a"}]},
              {"id": "b", "targets": [{"id": "other", "type": "field", "action": "clear"}]},
              {"id": "c", "targets": [{"id": "note", "type": "field", "action": "update", "target_value": "from c"}]}]}
            """#, #"{"id": "note", "type": "text"}"#, #"{"id": "other", "type": "text"}"#)
        let r = try Engine.run(def, #"{"plan": ["c", "b"], "other": "x"}"#, changed: ["plan"])
        #expect(r.actions == ["other:field:clear", "note:field:update=\"from c\""], "definition order")
        #expect(r.text("note") == "\"from c\"" && r.value("other") == nil)
        let unchanged = try Engine.run(def, #"{"plan": ["c", "b"], "other": "x"}"#)
        #expect(unchanged.actions.isEmpty)
    }

    @Test func formulasSumTheChosenValuesCountThemAndListThem() throws {
        let def = Engine.fields(
            Self.toppings, Self.strength, #"{"id": "price", "type": "float", "formula": "toppings + 1"}"#,
            #"{"id": "n", "type": "count", "formula": "count($toppings)"}"#,
            #"{"id": "args", "type": "count", "formula": "count($price)"}"#,
            #"{"id": "list", "type": "text", "formula": "You chose toppings."}"#)
        let r = try Engine.run(def, #"{"toppings": ["ham", 3, "cheese"]}"#)
        #expect(r.text("price") == "26.5", "10 + 15.5 (the olives have no value) + 1")
        #expect(r.text("n") == "3")
        #expect(r.text("args") == "1", "count of another field keeps the list form's meaning")
        #expect(r.value("list") == .string("You chose cheese, ham, 3."))
        let none = try Engine.run(def, #"{"toppings": []}"#)
        #expect(none.text("price") == "1" && none.text("n") == "0" && none.value("list") == .string("You chose ."))
    }

    @Test func conditionsReadCountsAndMembership() throws {
        func shown(_ condition: String, _ values: String) throws -> Bool? {
            let def = Engine.fields(
                Self.toppings, #"{"id": "trigger", "type": "text", "targets": [{"id": "extra", "type": "field", "action": "show", "condition": "# + "\"" + condition + "\"" + "}]}",
                #"{"id": "extra", "type": "text", "hidden": true}"#,
                #"{"id": "size", "type": "select", "values": [{"id": "s"}, {"id": 2}]}"#)
            return try Engine.run(def, values).visible("extra")
        }
        let two = #"{"trigger": "x", "toppings": ["ham", "cheese"], "size": 2}"#
        #expect(try shown("contains($toppings, 'ham')", two) == true)
        #expect(try shown("contains($toppings, 'chili')", two) == false)
        #expect(try shown("contains($toppings, 3)", #"{"trigger": "x", "toppings": [3, "ham"]}"#) == true)
        #expect(try shown("contains($toppings, '3')", #"{"trigger": "x", "toppings": [3, "ham"]}"#) == true, "numeric strings compare as numbers")
        #expect(try shown("count($toppings) == 2", two) == true)
        #expect(try shown("count($toppings) >= 3", two) == false)
        #expect(try shown("count($toppings) == 0", #"{"trigger": "x", "toppings": []}"#) == true)
        #expect(try shown("present($toppings)", #"{"trigger": "x", "toppings": []}"#) == false, "an empty list is missing")
        #expect(try shown("missing($toppings)", #"{"trigger": "x"}"#) == true)
        #expect(try shown("contains($size, 2)", two) == true, "a single choice contains its one value")
        #expect(try shown("contains($size, 's')", two) == false)
        #expect(try shown("contains($toppings, 'ham') && !contains($toppings, 'chili')", two) == true)
    }

    @Test func containsTakesAFieldFirst() throws {
        let def = Engine.fields(Self.toppings, #"{"id": "t", "type": "text", "targets": [{"id": "t", "type": "field", "action": "hide", "condition": "contains(1, 2)"}]}"#)
        #expect(Engine.errors(def).contains { $0.message.contains("'contains' takes a field") })
    }

    @Test func labelsComeNextToTheValuesInTheRequestsLocale() throws {
        let form = try Engine.load(Self.form)
        let en = try Engine.run(form, #"{"toppings": [3, "cheese"]}"#, mode: .validate)
        #expect(en.state.labels == ["toppings": ["Cheese", "Olives"]])
        #expect(en.root["labels"] == Engine.json(#"{"toppings": ["Cheese", "Olives"]}"#))
        let nb = try Engine.run(form, #"{"toppings": [3, "cheese"]}"#, mode: .evaluate, locale: .nb)
        #expect(nb.root["labels"] == Engine.json(#"{"toppings": ["Ost", "Olives"]}"#))
        let none = try Engine.run(form, "{}", mode: .validate)
        #expect(none.root["labels"] == nil && none.state.labels.isEmpty)
        let plain = try Engine.run(Engine.fields(#"{"id": "a", "type": "text"}"#), #"{"a": "x"}"#, mode: .validate)
        #expect(plain.root["labels"] == nil, "forms without a multiple choice answer as before")
    }

    @Test func theWireFormatRoundTripsLabels() throws {
        let form = try Engine.load(Self.form)
        let body = try Engine.body(form, #"{"toppings": ["ham", "cheese"]}"#, mode: .validate)
        let state = try FormState(answer: body)
        #expect(state.labels == ["toppings": ["Cheese", "Ham"]])
        #expect(state.answerJSON == body)
    }

    @Test func boundsBelongToMultipleChoicesAndMustBeOrdered() throws {
        let wrongKind = Engine.errors(Engine.fields(#"{"id": "a", "type": "select", "values": [{"id": 1}], "validations": {"max_selections": 1}}"#))
        #expect(wrongKind.map(\.message) == ["max_selections applies to multi_select fields only"])
        let reversed = Engine.errors(Engine.fields(#"{"id": "a", "type": "multi_select", "values": [{"id": 1}], "validations": {"min_selections": 3, "max_selections": 1}}"#))
        #expect(reversed.map(\.message) == ["min_selections (3) is above max_selections (1)"])
        let badDefault = Engine.errors(Engine.fields(#"{"id": "a", "type": "multi_select", "values": [{"id": 1}], "value": [1, 2]}"#))
        #expect(badDefault.count == 1 && badDefault[0].message.contains("cannot be held by a multi_select field"))
        #expect(Engine.warnings(Engine.fields(#"{"id": "a", "type": "multiselect", "values": [{"id": 1}]}"#)).contains { $0.message.contains("multi_select") })
    }

    @Test func aJSONValueDefaultIsAListToo() throws {
        let def = Engine.fields(#"{"id": "a", "type": "multi_select", "values": [{"id": "x"}, {"id": "y"}], "value": ["y", "x"]}"#)
        #expect(try Engine.run(def, "{}").text("a") == #"["x","y"]"#)
    }

    /// The indexed match a long list takes agrees with the scan on every value, relaxations included.
    @Test func theOptionIndexMatchesAsTheScanDoes() {
        let ids: [JSONValue?] = [
            .string("a"), .number(JSONNumber(literal: "1")), .bool(true), .string("1"), .number(JSONNumber(literal: "2.50")),
            .bool(false), nil, .string("true"), .number(JSONNumber(literal: "-0")), .string(" 3"),
        ]
        let index = OptionIndex(ids[...])
        let values: [JSONValue] = [
            .string("a"), .string("1"), .string("1.0"), .string("2.5"), .string("true"), .string("false"), .string("0"),
            .string(" 3"), .string("3"), .number(JSONNumber(literal: "1")), .number(JSONNumber(literal: "1.00")),
            .number(JSONNumber(literal: "0")), .number(JSONNumber(literal: "2.5")), .number(JSONNumber(literal: "-0.0")),
            .bool(true), .bool(false), .string("b"), .number(JSONNumber(literal: "7")),
        ]
        for v in values {
            #expect(index.match(v) == ValueCoercer.matchedOptionIndex(v, ids[...]), "\(v)")
        }
        for order in [Array(ids.reversed()), Array(ids.dropFirst(3)) + Array(ids.prefix(3))] {
            let other = OptionIndex(order[...])
            for v in values { #expect(other.match(v) == ValueCoercer.matchedOptionIndex(v, order[...]), "\(v) in \(order)") }
        }
    }

    /// A submitter cannot make a long list cost more than linear work.
    @Test func longListsAreMatchedThroughTheIndex() throws {
        let options = (0..<5000).map { #"{"id": "o\#($0)"}"# }.joined(separator: ",")
        let def = Engine.fields(#"{"id": "tags", "type": "multi_select", "values": [\#(options)]}"#)
        let form = try Engine.load(def)
        let all = (0..<5000).reversed().map { #""o\#($0)""# }.joined(separator: ",")
        let r = try Engine.run(form, #"{"tags": [\#(all)]}"#, mode: .validate)
        #expect(r.valid == true && r.value("tags")?.arrayValue?.count == 5000)
        #expect(r.value("tags")?.arrayValue?.first == .string("o0"), "definition order")
        let twice = try Engine.run(form, #"{"tags": [\#(all), "o17"]}"#, mode: .validate)
        #expect(twice.errorList == ["tags:type"], "5,001 items for 5,000 options")
        let repeated = (0..<4999).map { #""o\#($0)""# }.joined(separator: ",") + #","o3""#
        #expect(try Engine.run(form, #"{"tags": [\#(repeated)]}"#, mode: .validate).errorList == ["tags:type"])
    }
}
