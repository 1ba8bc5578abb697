import Testing
@testable import FormdCore

/// SEMANTICS §2: field kinds and canonical values.
@Suite struct EngineCoercionTests {
    /// One field of `type`, submitted `value`: the response's value text, or nil when absent.
    private func coerce(_ type: String, _ value: String, extra: String = "") throws -> (String?, [String]) {
        let def = Engine.fields("{\"id\": \"x\", \"type\": \"\(type)\"\(extra)}")
        let r = try Engine.run(def, "{\"x\": \(value)}", mode: .validate)
        return (r.text("x"), r.codes("x"))
    }

    @Test(arguments: [
        ("text", "\"Ola\"", "\"Ola\""), ("text", "300", "\"300\""), ("text", "300.0", "\"300\""),
        ("text", "1.50", "\"1.5\""), ("text", "0.3", "\"0.3\""), ("text", "1e-07", "\"0.0000001\""),
        ("text", "true", "\"true\""), ("name", "false", "\"false\""), ("password", "12", ""),
        ("text", "\"  keep  \"", "\"  keep  \""),
        ("number", "\"0047 1234\"", "\"00471234\""), ("number", "4.0", "\"4\""), ("number", "12", "\"12\""),
        ("count", "4", "4"), ("count", "4.0", "4"), ("count", "\"-12\"", "-12"), ("count", "-3", "-3"),
        ("float", "1.5", "1.5"), ("float", "\"2,5\"", "2.5"), ("float", "\"3.25\"", "3.25"), ("float", "300.0", "300"),
        ("switch", "true", "true"), ("switch", "0", "false"), ("switch", "1", "true"), ("switch", "\"true\"", "true"),
        ("switch", "\"0\"", "false"),
        ("date", "\"2024-02-29\"", "\"2024-02-29\""), ("date", "\"2024-03-01T23:30:00-05:00\"", "\"2024-03-01\""),
        ("date", "\"2014-01-01 10:00:00 +0200\"", "\"2014-01-01\""),
        ("date_time", "\"2024-03-01T23:30:00-05:00\"", "\"2024-03-02T04:30:00Z\""),
        ("date_time", "\"2024-03-01T10:00:00.250Z\"", "\"2024-03-01T10:00:00.250Z\""),
        ("date_time", "\"2024-03-01T10:00:00.0009Z\"", "\"2024-03-01T10:00:00Z\""),
        ("time", "\"09:30\"", "\"09:30:00\""), ("time", "\"09:30:15\"", "\"09:30:15\""),
        ("time", "\"2024-03-01T23:30:10+05:00\"", "\"23:30:10\""),
        ("counter", "{\"a\": [1, 2]}", "{\"a\":[1,2]}"), ("counter", "\"1\"", "\"1\""),
    ])
    func canonicalForms(type: String, input: String, expected: String) throws {
        let (text, codes) = try coerce(type, input)
        // "": accepted but never echoed (a secret field, SEMANTICS §8).
        #expect(text == (expected.isEmpty ? nil : expected), "\(type) \(input)")
        #expect(codes.isEmpty)
    }

    /// Fuzz finding (corpus `Fuzz/corpus/submission/long-decimal-string`): a float given as a
    /// long decimal string was written back as a number of 89 characters, which formd's own
    /// strict parser (64 at most) rejects. Such a string is not a float (a `type` error, the value
    /// stays the string); long literals keep
    /// their written form; every response parses again.
    @Test func numbersWrittenBackStayParseable() throws {
        let long = "3," + String(repeating: "1", count: 87)
        let (text, codes) = try coerce("float", "\"\(long)\"")
        #expect(text == "\"\(long)\"")  // kept as the string it was, with a type error
        #expect(codes == ["type"])
        #expect(try coerce("float", "\"3,\(String(repeating: "1", count: 61))\"").0 == "3.\(String(repeating: "1", count: 61))")
        #expect(try coerce("float", "1e300").0 == "1e300")
        #expect(try coerce("float", "1e5").0 == "100000")
        #expect(try coerce("float", "-1.5e-70").0 == "-1.5e-70")
        for value in ["\"\(long)\"", "1e300", "1e-300", "\"-0,\(String(repeating: "0", count: 70))1\""] {
            let form = try Engine.load(Engine.fields("{\"id\": \"x\", \"type\": \"float\"}"))
            for mode in [Evaluation.Mode.validate, .evaluate] {
                let body = try Engine.body(form, "{\"x\": \(value)}", mode: mode)
                #expect((try? JSONParser.parse(body, options: .submission)) != nil, "\(value): \(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    /// Fuzz finding (corpus `Fuzz/corpus/submission/formula-1e113`): a float formula reaching
    /// 1.111e113 was written as a 114-digit number. Past 64 characters it gets an exponent.
    @Test func hugeFormulaResultsKeepAnExponent() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "float"}"#, #"{"id": "t", "type": "float", "formula": "a + 1"}"#,
            #"{"id": "u", "type": "float", "formula": "a * -1"}"#)
        let form = try Engine.load(def)
        let r = try Engine.run(form, #"{"a": 1111e110}"#, mode: .validate)
        #expect(r.text("t") == "1111e110")
        #expect(r.text("u") == "-1111e110")
        #expect(try Engine.run(form, #"{"a": 1e20}"#, mode: .validate).text("t") == "100000000000000000001")
        for mode in [Evaluation.Mode.validate, .evaluate] {
            let body = try Engine.body(form, #"{"a": 1111e110}"#, mode: mode)
            #expect((try? JSONParser.parse(body, options: .submission)) != nil, "\(String(decoding: body, as: UTF8.self))")
        }
    }

    @Test(arguments: [
        ("number", "\"12a\""), ("number", "-1"), ("number", "1.5"), ("number", "true"),
        ("count", "1.5"), ("count", "\"1.0\""), ("count", "\"abc\""), ("count", "99999999999999999999"),
        ("float", "\"1.2.3\""), ("float", "true"), ("switch", "2"), ("switch", "\"yes\""),
        ("date", "\"2023-02-29\""), ("date", "\"tomorrow\""), ("time", "\"25:00\""), ("date", "5"),
        ("email", "\"john.hyperseed\""), ("text", "[1]"), ("text", "{}"),
    ])
    func typeErrorKeepsValueAsSent(type: String, input: String) throws {
        let (text, codes) = try coerce(type, input)
        #expect(codes == ["type"], "\(type) \(input)")
        #expect(text == Engine.json(input).jsonText)
    }

    @Test func typeErrorParamsNameTheKind() throws {
        let r = try Engine.run(Engine.fields(#"{"id": "n", "type": "count"}"#), #"{"n": "x"}"#, mode: .validate)
        #expect(r.error("n", "type")?["params"]?.jsonText == #"{"expected":"count"}"#)
        #expect(r.valid == false)
    }

    @Test(arguments: ["null", "\"\"", "\"   \""])
    func emptyIsNoValue(input: String) throws {
        let def = Engine.fields(#"{"id": "t", "type": "text", "validations": {"required": true}}"#)
        let r = try Engine.run(def, "{\"t\": \(input)}", mode: .validate)
        #expect(r.value("t") == nil)
        #expect(!r.valueKeys.contains("t"))
        #expect(r.codes("t") == ["required"])
        #expect(r.dropped.isEmpty)
    }

    @Test func selectOptionIDsAsTyped() throws {
        let def = Engine.fields(
            #"{"id": "n", "type": "select", "values": [{"id": 0}, {"id": 1}]}"#,
            #"{"id": "s", "type": "segment", "values": [{"id": "a"}, {"id": "1"}]}"#,
            #"{"id": "b", "type": "select", "values": [{"id": true}, {"id": false}]}"#)
        var r = try Engine.run(def, #"{"n": "1", "s": "1", "b": "false"}"#, mode: .validate)
        #expect(r.text("n") == "1")  // numeric id matched by its string form, returned as typed
        #expect(r.text("s") == "\"1\"")
        #expect(r.text("b") == "false")
        #expect(r.errors.isEmpty)
        r = try Engine.run(def, #"{"n": 1.0, "b": 1}"#, mode: .validate)
        #expect(r.text("n") == "1")
        #expect(r.text("b") == "true")
        // A string id does not match a number, and unknown ids are a type error.
        r = try Engine.run(def, #"{"s": 1, "n": 7, "b": "yes"}"#, mode: .validate)
        #expect(r.errorList == ["n:type", "s:type", "b:type"])
        #expect(r.text("s") == "1")
        #expect(r.error("n", "type")?["params"]?["expected"]?.stringValue == "select")
    }

    @Test func invalidValueCountsAsNoValueElsewhere() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "float"}"#,
            #"{"id": "t", "type": "float", "formula": "a + 1"}"#,
            #"{"id": "c", "type": "text", "targets": [{"id": "t", "type": "field", "action": "hide", "condition": "present($a)"}]}"#)
        let r = try Engine.run(def, #"{"a": "oops", "c": "x"}"#)
        #expect(r.text("a") == "\"oops\"")
        #expect(r.text("t") == "1")
        #expect(r.visible("t") == true)
    }

    @Test(arguments: [
        ("phone_number", "text", "\"22 33 44 55\"", "\"22334455\""),
        ("person.social_security_number", "text", "\"150765 00565\"", "\"15076500565\""),
        ("bank_account_number", "text", "\"1234.56.78903\"", "\"12345678903\""),
        ("contact", "email", "\"t,e,st@example.com\"", "\"test@example.com\""),
    ])
    func formattersNormalise(id: String, type: String, input: String, expected: String) throws {
        let r = try Engine.run(Engine.fields("{\"id\": \"\(id)\", \"type\": \"\(type)\"}"), "{\"\(id)\": \(input)}")
        #expect(r.text(id) == expected)
    }

    @Test func unknownKeysAndInstanceKeysAreDropped() throws {
        let def = #"""
            {"groups": [{"sections": [{"id": "items", "type": "dynamic"}, {"id": "s", "fields": [{"id": "a.b[0]", "type": "text"}]}]}],
             "templates": {"sections": [{"id": "items", "fields": [{"id": "items[:index].name", "type": "text"}]}]}}
            """#
        let r = try Engine.run(def, #"{"a.b[0]": "x", "zzz": 1, "items[0].name": "n", "items[0].nope": "y"}"#)
        #expect(r.valueKeys == ["items[0].name", "a.b[0]"])
        #expect(r.dropped == ["zzz:unknown", "items[0].nope:unknown"])
    }
}
