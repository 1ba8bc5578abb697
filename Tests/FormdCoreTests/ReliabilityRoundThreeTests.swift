import Testing
@testable import FormdCore

/// Regression tests for the engine defects of reliability round three (docs/RELIABILITY.md):
/// regex checks that escaped the request's allowance, `changed` ids that ran their targets once
/// per repetition, and a PureForm pattern that broke out of its full-match wrapper.
@Suite struct ReliabilityRoundThreeTests {
    // MARK: 1. every engine check draws on the request's allowance

    /// A repeating section with four fields carrying the bundled e-mail `format`, made server-only
    /// by a look-ahead (`(?=.)`): the allowance concerns ICU checks (the linear matcher draws nothing).
    static let emailRows = #"""
        {"groups": [{"sections": [{"id": "rows", "type": "dynamic", "max_instances": 1000}]}],
         "templates": {"sections": [{"id": "rows", "fields": [
            {"id": "rows[:index].a", "type": "text", "validations": {"format": "(?=.)[\\w._%+-]+@[\\w.-]+\\.\\w{2,}"}},
            {"id": "rows[:index].b", "type": "text", "validations": {"format": "(?=.)[\\w._%+-]+@[\\w.-]+\\.\\w{2,}"}},
            {"id": "rows[:index].c", "type": "text", "validations": {"format": "(?=.)[\\w._%+-]+@[\\w.-]+\\.\\w{2,}"}},
            {"id": "rows[:index].d", "type": "text", "validations": {"format": "(?=.)[\\w._%+-]+@[\\w.-]+\\.\\w{2,}"}}]}]}}
        """#

    @Test func smallEngineChecksDrawOnTheAllowanceUntilItIsSpent() throws {
        let form = try Engine.load(Self.emailRows)
        // 120 characters: past the fast path (64), each check under one engine step.
        let run = String(repeating: "a", count: 120)
        var values = JSONObject()
        for i in 0..<1000 {
            for f in ["a", "b", "c", "d"] { values.append("rows[\(i)].\(f)", .string(run)) }
        }
        let e = Evaluation(plan: form.plan, values: values, mode: .validate, options: EvaluationOptions())
        // Every value fails `format` (none is an address), and once the 5 ms are spent the rest
        // fail at once: some checks were refused, and nothing is left of the allowance.
        #expect(e.errors.count == 4000)
        #expect(e.errors.allSatisfy { $0.code == .format })
        #expect(e.formatTimeouts > 0, "4,000 checks of ~35 µs each ran without drawing on the 5 ms allowance")
        #expect(e.formatAllowanceLeft.cpuNanoseconds == 0)
    }

    @Test func aFewEngineChecksStayWithinTheAllowance() throws {
        let form = try Engine.load(Self.emailRows)
        let address = String(repeating: "a", count: 70) + "@example.com"
        var values = JSONObject()
        for f in ["a", "b", "c", "d"] { values.append("rows[0].\(f)", .string(address)) }
        let e = Evaluation(plan: form.plan, values: values, mode: .validate, options: EvaluationOptions())
        #expect(e.errors.isEmpty)
        #expect(e.formatTimeouts == 0)
        let allowance = EvaluationOptions().formatAllowance.cpuNanoseconds
        #expect(e.formatAllowanceLeft.cpuNanoseconds < allowance, "engine checks are charged what they cost")
    }

    // MARK: 2. `changed` runs each id once

    static let choices = #"""
        [{"id": "g", "sections": [{"id": "s", "fields": [
            {"id": "m", "type": "multi_select", "values": [
                {"id": "x", "targets": [{"id": "n", "type": "field", "action": "update", "target_value": "from m"}]},
                {"id": "y", "targets": [{"id": "k", "type": "field", "action": "update", "target_value": 1}]}]},
            {"id": "b", "type": "switch", "targets": [{"id": "n", "type": "field", "action": "update", "target_value": "from b"}]},
            {"id": "n", "type": "text"}, {"id": "k", "type": "count"}]}]}]
        """#

    @Test func anIdNamedManyTimesRunsItsTargetsOnce() throws {
        let form = try Engine.load(Self.choices)
        let once = try Engine.run(form, #"{"m": ["x", "y"]}"#, changed: ["m"])
        let many = try Engine.run(form, #"{"m": ["x", "y"]}"#, changed: Array(repeating: "m", count: 5000))
        #expect(once.state.actions.count == 2)
        #expect(many.state.actions == once.state.actions)
        #expect(many.text("n") == #""from m""#)
    }

    @Test func aRepeatedIdRunsAtItsLastPlace() throws {
        let form = try Engine.load(Self.choices)
        let values = #"{"m": ["x"], "b": true}"#
        #expect(try Engine.run(form, values, changed: ["m", "b", "m"]).text("n") == #""from m""#)
        #expect(try Engine.run(form, values, changed: ["b", "m", "b"]).text("n") == #""from b""#)
        #expect(Evaluation.lastOccurrences(["a", "b", "a", "c", "b"]) == ["a", "c", "b"])
        #expect(Evaluation.lastOccurrences(["a", "b"]) == ["a", "b"])
    }

    // MARK: 5. a PureForm pattern is a whole expression

    @Test func anUnbalancedCustomPatternIsALoadErrorNotAMatchAll() throws {
        let def = PureFormTests.form(#""custom": "[0-9]{4})|(?:.*""#, key: "pin")
        let errors = Engine.errors(def)
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("regex does not compile") == true)
        #expect(errors.first.map { $0.line >= 1 && $0.column > 1 } == true, "located at the validator")
        // A balanced pattern still matches in full.
        let ok = PureFormTests.form(#""custom": "[0-9]{4}""#, key: "pin")
        #expect(try PureFormTests.errors(ok, #"{"pin": "1234"}"#) == [])
        #expect(try PureFormTests.errors(ok, #"{"pin": "not a pin at all"}"#) == ["pin:format"])
        #expect(try PureFormTests.errors(ok, #"{"pin": "12345"}"#) == ["pin:format"])
    }

    @Test(arguments: [#"a)|(b"#, #"x)"#, #"(?:y"#, #"\Q1"#])
    func patternsThatOnlyCompileInsideTheWrapperAreRefused(_ source: String) {
        #expect(throws: FormatPatternError.self) { _ = try PureFormRules.compileFullMatch(source) }
    }
}
