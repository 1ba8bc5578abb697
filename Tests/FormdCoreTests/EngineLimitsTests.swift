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
        var w = JSONWriter()
        e.validateResponse(form: form.id, version: form.version, into: &w)
        let r = Response(root: try JSONParser.parse(w.bytes).root)
        #expect(r.errorList == ["t4:text_too_long"])
        #expect(r.value("t3")?.stringValue == "x x x x x x x x")
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
}
