import Testing
@testable import FormdCore

/// SEMANTICS §11: every cost a definition or a submission can cause is bounded; what passes a
/// bound gets a clear error, never a crash or a silent pass.
@Suite struct EngineLimitsTests {
    /// `t0 = "x"`, `t{i} = "t{i-1} t{i-1}"`: t{i} holds 2^i copies of t0 (the attacker's form had 34).
    static func doublingChain(_ n: Int, defaultValue: String? = "x") -> String {
        var fields = [#"{"id": "t0", "type": "text"\#(defaultValue.map { ", \"value\": \"\($0)\"" } ?? "")}"#]
        for i in 1...n { fields.append(#"{"id": "t\#(i)", "type": "text", "formula": "t\#(i - 1) t\#(i - 1)"}"#) }
        return "[{\"sections\": [{\"id\": \"s\", \"fields\": [" + fields.joined(separator: ",") + "]}]}]"
    }

    @Test func exponentialTextStopsAtTheBoundWithAnError() throws {
        let r = try Engine.run(Self.doublingChain(34), "{}", mode: .validate)
        #expect(r.valid == false)
        // 2^15 copies of "x" plus 2^15 - 1 spaces is 65,535 bytes; t16 would be 131,071.
        #expect(r.value("t15")?.stringValue?.utf8.count == 65_535)
        #expect(r.value("t16") == nil)
        #expect(r.errorList == ["t16:text_too_long"], "later links see t16 missing: blank, no value")
        let e = try #require(r.error("t16", "text_too_long"))
        #expect(e["params"] == Engine.json(#"{"max": 65536}"#))
        #expect(e["message"]?.stringValue == "t16 would be longer than 65536 bytes, so it was not computed.")
    }

    @Test func aSubmittedStringIsMultipliedUnderTheSameBound() throws {
        let form = try Engine.load(Self.doublingChain(8, defaultValue: nil))
        let long = String(repeating: "a", count: 200)
        let ok = try Engine.run(form, #"{"t0": "\#(long)"}"#, mode: .validate)
        #expect(ok.valid == true)
        #expect(ok.value("t8")?.stringValue?.utf8.count == 256 * 200 + 255)
        let big = String(repeating: "b", count: 1_000)
        let r = try Engine.run(form, #"{"t0": "\#(big)"}"#, mode: .validate)
        #expect(r.errorList == ["t7:text_too_long"], "t7 = 128,127 bytes")
    }

    @Test func theBoundIsAnOption() throws {
        let form = try Engine.load(Self.doublingChain(6))
        let values = try #require(try JSONParser.parse("{}").root.objectValue)
        var options = EvaluationOptions()
        options.maxTextBytes = 16
        let e = Evaluation(plan: form.plan, values: values, mode: .validate, options: options)
        #expect(e.errors.map(\.code) == [.textTooLong], "t4 is 31 bytes")
        let state = try Form(loaded: form, options: options).validate(values)
        #expect(state.errors.map { "\($0.field ?? ""):\($0.code)" } == ["t4:text_too_long"])
        #expect(state.value("t3")?.stringValue == "x x x x x x x x")
    }

    @Test func checkWarnsAboutExponentialTemplates() {
        let warnings = Engine.warnings(Self.doublingChain(34)).map(\.message)
        #expect(warnings.count == 1, "one warning per chain, at its first field past 64 copies: \(warnings)")
        #expect(warnings.first?.contains("holds 64 copies") == true)
        #expect(Engine.warnings(Self.doublingChain(5)).isEmpty, "32 copies: fine")
        // Ordinary templates that name several fields once are fine.
        #expect(Engine.warnings(Engine.fields(
            #"{"id": "a", "type": "text"}"#, #"{"id": "b", "type": "text"}"#,
            #"{"id": "full", "type": "text", "formula": "a b a b"}"#)).isEmpty)
    }

    // MARK: numbers past what formd holds (SEMANTICS §2, §6)

    static let bounded = Engine.fields(
        #"{"id": "f", "type": "float", "validations": {"min_value": 0, "max_value": 200000}}"#,
        #"{"id": "n", "type": "number", "validations": {"max_value": 99}}"#,
        #"{"id": "t", "type": "text", "validations": {"min_value": -1}}"#)

    @Test(arguments: ["1e200", "-1e200", "1e400", "-1e-200", "1e-129", "1e165", "\"1e400\"", "\"-1e-200\""])
    func floatsFormdCannotHoldAreTypeErrors(_ literal: String) throws {
        let r = try Engine.run(Self.bounded, #"{"f": \#(literal)}"#, mode: .validate)
        #expect(r.codes("f") == ["type"], "\(literal)")
    }

    @Test func boundsCompareExactlyAtAnyMagnitude() throws {
        func codes(_ field: String, _ literal: String) throws -> [String] {
            try Engine.run(Self.bounded, "{\"\(field)\": \(literal)}", mode: .validate).codes(field)
        }
        #expect(try codes("f", "9.99e164") == ["max_value"])
        #expect(try codes("f", "1e-128") == [], "the finest step is held")
        #expect(try codes("f", "200000.0000000000000000000000000000000000000001") == ["max_value"], "past 38 digits")
        #expect(try codes("f", "199999.9999999999999999999999999999999999999999") == [])
        #expect(try codes("f", "-0.0") == [])
        // A `number` field holds digit strings of any length: a 200-digit one is above 99.
        #expect(try codes("n", "\"" + String(repeating: "9", count: 200) + "\"") == ["max_value"])
        #expect(try codes("n", "\"0099\"") == [])
        // Text that reads as a number is bounded too, however small.
        #expect(try codes("t", "\"-1e-200\"") == [])
        #expect(try codes("t", "\"-1.0000000000000000000000000000000000000001\"") == ["min_value"])
        #expect(try codes("t", "\"-1e200\"") == ["min_value"])
    }

    @Test func decimalComparison() {
        func c(_ a: String, _ b: String) -> Int { DecimalText.compare(DecimalText.parse(a)!, DecimalText.parse(b)!) }
        #expect(c("1e200", "1e199") == 1)
        #expect(c("-1e-200", "0") == -1)
        #expect(c("0", "-0") == 0)
        #expect(c("12.5", "12.50") == 0)
        #expect(c("-3", "-2.9999") == -1)
        #expect(c("100", "99.999999999999999999999999999999999999999") == 1)
    }

    // MARK: instances (SEMANTICS §7, §11)

    static func rows(maxInstances: Int?) -> String {
        let max = maxInstances.map { ", \"max_instances\": \($0)" } ?? ""
        return #"""
        {"groups": [{"sections": [
          {"id": "top", "fields": [{"id": "total", "type": "float", "formula": "sum(rows[*].amount)"}]},
          {"id": "rows", "type": "dynamic", "action_title": "Add", "fields": null\#(max)}]}],
         "templates": {"sections": [{"id": "rows", "fields": [
           {"id": "rows[:index].qty", "type": "count"},
           {"id": "rows[:index].price", "type": "float"},
           {"id": "rows[:index].skip", "type": "switch", "targets": [{"id": "rows[:index].amount", "type": "field", "action": "hide", "condition": "$rows[:index].skip == 1"}]},
           {"id": "rows[:index].amount", "type": "float", "formula": "$rows[:index].qty * $rows[:index].price"},
           {"id": "rows[:index].share", "type": "float", "formula": "round($rows[:index].amount / sum(rows[*].amount), 4)"}]}]}}
        """#
    }

    static func submission(_ n: Int, skip: Set<Int> = []) -> String {
        var members: [String] = []
        for i in 0..<n {
            members.append("\"rows[\(i)].qty\": \(i + 1)")
            members.append("\"rows[\(i)].price\": 2")
            if skip.contains(i) { members.append("\"rows[\(i)].skip\": true") }
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    @Test func instancesPastMaxInstancesAreRefusedBeforeEvaluation() throws {
        let r = try Engine.run(Self.rows(maxInstances: 3), Self.submission(5), mode: .validate)
        #expect(r.errorList == ["rows:max_instances"])
        #expect(r.error("rows", "max_instances")?["params"] == Engine.json(#"{"max": 3}"#))
        #expect(r.valueKeys.filter { $0.hasPrefix("rows[") }.count == 3 * 4, "instances 0-2: qty, price, amount, share")
        #expect(r.value("rows[3].qty") == nil && r.value("rows[4].amount") == nil)
        #expect(r.dropped == ["rows[3].qty:over_limit", "rows[3].price:over_limit", "rows[4].qty:over_limit", "rows[4].price:over_limit"])
        #expect(r.text("total") == "12", "2 + 4 + 6: the refused instances are not summed")
    }

    @Test func withoutMaxInstancesTheEngineCapApplies() throws {
        let form = try Engine.load(Self.rows(maxInstances: nil))
        let values = try #require(try JSONParser.parse(Self.submission(6)).root.objectValue)
        var options = EvaluationOptions()
        options.maxInstances = 4
        let e = Evaluation(plan: form.plan, values: values, mode: .validate, options: options)
        #expect(e.errors.map(\.code) == [.maxInstances])
        #expect(e.dropped.map(\.reason) == Array(repeating: .overLimit, count: 4))
        #expect(EvaluationOptions().maxInstances == 1_000)
    }

    /// Each instance's share reads the same sum: computed once, it must still follow every change
    /// of the instances' values (formulas computed in this round, visibility from targets).
    @Test func aggregatesFollowFormulasAndVisibility() throws {
        let all = try Engine.run(Self.rows(maxInstances: nil), Self.submission(3))
        #expect(all.text("total") == "12")
        #expect(all.text("rows[0].share") == "0.1667")
        #expect(all.text("rows[2].share") == "0.5")
        // Row 1 hides its amount: the sum and every share move.
        let skipped = try Engine.run(Self.rows(maxInstances: nil), Self.submission(3, skip: [1]))
        #expect(skipped.text("total") == "8")
        #expect(skipped.text("rows[0].share") == "0.25")
        #expect(skipped.text("rows[2].share") == "0.75")
        #expect(skipped.visible("rows[1].amount") == false)
    }

    // MARK: definitions (SEMANTICS §1)

    @Test func aStaticFieldCannotNameATemplateInstance() {
        let def = #"""
        {"groups": [{"sections": [
          {"id": "top", "fields": [{"id": "items[0].quantity", "type": "text"}]},
          {"id": "items", "type": "dynamic", "action_title": "Add", "fields": null}]}],
         "templates": {"sections": [{"id": "items", "fields": [{"id": "items[:index].quantity", "type": "count", "validations": {"min_value": 1}}]}]}}
        """#
        #expect(Engine.errors(def).map(\.message) == [
            #"field id "items[0].quantity" names instance 0 of the template "items"; instance fields come from the template"#
        ])
        // Another attribute, or another template name, is an ordinary static id.
        #expect(Engine.errors(def.replacingOccurrences(of: #""items[0].quantity", "type": "text""#, with: #""items[0].note", "type": "text""#)).isEmpty)
    }

    @Test func duplicatesAreFoundByKey() {
        // Options: numbers by value (1 and 1.0 repeat), strings and booleans as themselves.
        let options = Engine.errors(Engine.fields(
            #"{"id": "s", "type": "select", "values": [{"id": 1}, {"id": "1"}, {"id": 1.0}, {"id": true}, {"id": "true"}, {"id": true}, {"id": -0}, {"id": 0}]}"#))
        #expect(options.map(\.message) == [
            #"option id 1.0 repeats in field "s""#, #"option id true repeats in field "s""#, #"option id 0 repeats in field "s""#,
        ])
        // Targets: only fully identical ones count once.
        let r = try? Engine.run(Engine.fields(
            #"{"id": "a", "type": "text", "value": "x", "targets": [{"id": "b", "type": "field", "action": "hide"}, {"id": "b", "type": "field", "action": "hide"}, {"id": "b", "type": "field", "action": "hide", "condition": "1 == 1"}]}"#,
            #"{"id": "b", "type": "text"}"#))
        #expect(r?.actions == ["b:field:hide"], "the conditional twin is another target with the same effect")
    }

    // MARK: calendar values (SEMANTICS §2)

    @Test func fractionsOfAnyLengthAreTruncated() throws {
        let form = Engine.fields(#"{"id": "at", "type": "date_time"}"#, #"{"id": "t", "type": "time"}"#)
        let digits = "123" + String(repeating: "9", count: 200)
        let r = try Engine.run(form, #"{"at": "2024-10-05T12:30:00.\#(digits)+02:00"}"#, mode: .validate)
        #expect(r.errors.isEmpty, "\(r.errorList)")
        #expect(r.value("at")?.stringValue == "2024-10-05T10:30:00.123Z")
        // Everything else still has its fixed width.
        #expect(try Engine.run(form, #"{"at": "2024-10-05T12:30:00.5 +0200 extra"}"#, mode: .validate).codes("at") == ["type"])
        #expect(try Engine.run(form, #"{"t": "12:30:00\#(String(repeating: "0", count: 100))"}"#, mode: .validate).codes("t") == ["type"])
    }

    @Test func definitionsPastTheComplexityLimitsAreRefused() {
        let fields = (0...DefinitionLimits.maxFields).map { #"{"id": "f\#($0)"}"# }
        #expect(Engine.errors("[{\"sections\": [{\"fields\": [" + fields.joined(separator: ",") + "]}]}]").map(\.message)
            == ["100001 fields, over the limit of 100000 per definition"])
        let options = (0...DefinitionLimits.maxOptionsPerField).map { #"{"id": \#($0)}"# }
        #expect(Engine.errors(Engine.fields(#"{"id": "s", "type": "select", "values": ["# + options.joined(separator: ",") + "]}")).map(\.message)
            == ["50001 options, over the limit of 50000 per field"])
        #expect(Engine.errors(Engine.fields(#"{"id": "s", "type": "select", "values": ["# + options.dropLast().joined(separator: ",") + "]}")).isEmpty)
    }
}
