import Foundation
import FormdTestSupport
import Testing
@testable import FormdCore

/// A `FormSubmission`'s answers copy the values they send back as sent from the submission's
/// bytes (`JSONObject.Member.textStart`). They must be byte for byte the answers for its
/// `values`: these tests compare the two on random submissions with every shape of value a client
/// sends (escaped and non-ASCII strings, numbers in every notation, values of the wrong kind,
/// whitespace between tokens, repeated and unknown keys, rows).
@Suite struct FormSubmissionTests {
    static let definition = #"""
    {"title": "T",
     "groups": [{"id": "g", "title": "G", "sections": [
       {"id": "s", "fields": [
         {"id": "name", "title": "Name", "type": "name", "validations": {"required": true, "max_length": 12}},
         {"id": "note", "title": "Note", "type": "text"},
         {"id": "mail", "title": "Mail", "type": "email"},
         {"id": "code", "title": "Code", "type": "password"},
         {"id": "n", "title": "N", "type": "number", "validations": {"min_value": 0}},
         {"id": "x", "title": "X", "type": "float", "validations": {"max_value": 100}},
         {"id": "on", "title": "On", "type": "switch",
          "targets": [{"id": "note", "type": "field", "action": "hide", "condition": "$on == 1"}]},
         {"id": "pick", "title": "Pick", "type": "select", "values": [{"id": "a", "title": "A"}, {"id": 2, "title": "Two"}]},
         {"id": "day", "title": "Day", "type": "date"},
         {"id": "phone_number", "title": "Phone", "type": "text", "validations": {"format": "^[0-9]{4,8}$"}},
         {"id": "until", "title": "Until", "type": "date", "validations": {"compare_to": "day", "compare_rule": ">="}},
         {"id": "unit", "title": "Unit", "type": "segment", "values": [{"id": "\u212A", "title": "Kelvin sign"}, {"id": "kg", "title": "kg"}, {"id": 3, "title": "Three"}]},
         {"id": "size", "title": "Size", "type": "select", "values": [{"id": "s", "title": "S"}, {"id": "m", "title": "M"}, {"id": "", "title": "None"}, {"id": "xl", "title": "XL",
          "targets": [{"id": "plan", "type": "field", "action": "update", "target_value": "pro"}]}]},
         {"id": "plan", "title": "Plan", "type": "select", "values": [
           {"id": "basic", "title": "Basic", "value": 10, "targets": [{"id": "code", "type": "field", "action": "hide"}]},
           {"id": "pro", "title": "Pro", "value": 25.5}, {"id": 7, "title": "Seven", "value": 3}]},
         {"id": "price", "title": "Price", "type": "float", "formula": "plan * 2"},
         {"id": "before", "title": "Before", "type": "date", "validations": {"compare_to": "note", "compare_rule": "<"}},
         {"id": "sum", "title": "Sum", "type": "float", "formula": "n + x"}]},
       {"id": "lines", "type": "dynamic", "max_instances": 3, "fields": null}]}],
     "templates": {"sections": [{"id": "lines", "fields": [
       {"id": "lines[:index].item", "title": "Item", "type": "text"}]}]}}
    """#

    static let form = try! Form(id: "sub", json: Array(definition.utf8))
    /// The same fields without the dynamic section: a submission read in place is evaluated as it
    /// is only by forms without sections that can be sent as rows (the others decode it first).
    static let flatForm = try! Form(
        id: "flat",
        json: Array(
            definition
                .replacingOccurrences(of: #",\#n   {"id": "lines", "type": "dynamic", "max_instances": 3, "fields": null}"#, with: "")
                .replacingOccurrences(
                    of: #",\#n "templates": {"sections": [{"id": "lines", "fields": [\#n   {"id": "lines[:index].item", "title": "Item", "type": "text"}]}]}"#,
                    with: ""
                ).utf8))

    static let keys = [
        "name", "note", "mail", "code", "n", "x", "on", "pick", "day", "sum", "phone_number", "until", "before", "unit", "size", "plan",
        "price", "lines[1].item", "other",
    ]

    static let values = [
        #""Ada""#, #""Ad\u0061""#, #""é ü""#, #""line\nbreak""#, #""q\"uote""#, #""\/slash""#, #""""#, #""   ""#,
        #""ada@example.com""#, #""a much longer text than fifteen bytes""#, #""2025-02-28""#, #""2025-02-30""#,
        "0", "-0", "12", "-7", "1.50", "1e3", "2.5E-2", "123456789012345678901234567890", "true", "false", "null",
        #""a""#, "2", "2.0", "[1,\"a\"]", "{\"k\":1}", #""12""#,
        // Strings coerced from their bytes, and those that need the text (`CoercionRule.coerceSent`).
        #""not-an-email""#, #""a@b""#, #"" Ada""#, #""\tAda""#, #""2025-2-28""#, #""2025-03-01""#, #""2024-12-31""#,
        // Options found by their bytes, and those that are not: `K` is canonically the Kelvin sign.
        #""K""#, "\"\u{212A}\"", #""kg""#, #""kg ""#, #""3""#, #""m""#, #""xl""#, #""M""#,
        // Options found by their bytes whose index the evaluation keeps (`Evaluation.Cell.option`)
        // for targets and formulas, and an option with a number for its id, sent as a string.
        #""basic""#, #""pro""#, #""7""#, "7", #""Pro""#,
        // Lengths counted from the bytes (UTF-16 units: two for a scalar past U+FFFF).
        #""😀😀😀😀""#, #""😀😀😀😀😀😀😀""#, #""éééééééééééé""#, #""ééééééééééééé""#, #""12 34""#, #""1234""#, #""abé""#,
        // Numbers read in the body by the numeric checks and formulas (`sentReadingBytes`).
        #"" 12 ""#, #""-3""#, #""0.0""#, #""1e2""#, #""150""#, "150", "99.999", "100.0001", "-0.0", "1E+2",
        #""12345678901234567890123""#, "0.000000000000000000000000000000000001",
        // Plain numbers stored canonical, read as sent by checks and formulas (`Cell.sentNumber`).
        "25000.50", "99.9990", "100.000", "-0.50", "007.50", "150.0000000000000000000000000000000000000000000000",
        "1.23456789012345678901234567890123456789012345670",
    ]

    static func submission(_ rng: inout SplitMix64) -> [UInt8] {
        var members: [String] = []
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            let key = keys.randomElement(using: &rng)!
            let space = Int.random(in: 0..<4, using: &rng) == 0 ? " \n " : ""
            members.append("\"\(key)\"" + space + ":" + space + values.randomElement(using: &rng)! + space)
        }
        if Int.random(in: 0..<10, using: &rng) == 0 { members.append(#""lines": [{"item": "r"}, {"item": "s\u0074"}]"#) }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    @Test func flatFormHasNoRows() {
        #expect(Self.flatForm.loaded.plan.rowSections.isEmpty && !Self.form.loaded.plan.rowSections.isEmpty)
    }

    @Test(arguments: [false, true]) func answersAreThoseOfItsValues(flat: Bool) throws {
        let form = flat ? Self.flatForm : Self.form
        var rng = SplitMix64(seed: 11)
        var compared = 0
        var readInPlace = 0
        for _ in 0..<8_000 {
            let bytes = Self.submission(&rng)
            // Repeated keys are refused by the decoder: those submissions have no answer.
            guard let submission = try? form.submission(fromJSON: bytes) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(submission.values == (try form.values(json: bytes)), "\(text)")
            let direct = try? form.validateAnswer(submission, locale: .nb).json
            let viaValues = try? form.validateAnswer(submission.values, locale: .nb).json
            #expect(direct == viaValues, "\(text)")
            // The first key as `changed` (its value targets run), unless the form lacks it.
            let changed = submission.values.members.prefix(1).map(\.key).filter { $0 != "other" }
            let evaluated = try? form.evaluateAnswer(submission, changed: changed, previous: .initial).json
            let evaluatedViaValues = try? form.evaluateAnswer(submission.values, changed: changed, previous: .initial).json
            #expect(evaluated == evaluatedViaValues, "\(text)")
            compared += 1
            if submission.isReadInPlace { readInPlace += 1 }
        }
        #expect(compared > 3_000)
        // Both paths are compared: submissions read in place (keys in the form's order, a few
        // others) and decoded ones.
        #expect(readInPlace > 3_000 && compared - readInPlace > 300, "\(readInPlace) of \(compared) read in place")
    }

    /// A select's option found by its bytes is kept by index (`Evaluation.Cell.option`): its
    /// targets and its number in a formula are those of the option the value names, and a value
    /// target that sets the field again replaces the index.
    @Test func optionsFoundByTheirBytes() throws {
        func answer(_ json: String, changed: [String]? = nil) throws -> String {
            let submission = try Self.flatForm.submission(fromJSON: Array(json.utf8))
            #expect(submission.isReadInPlace, "\(json)")
            let bytes =
                try changed.map { try Self.flatForm.evaluateAnswer(submission, changed: $0).json }
                ?? Self.flatForm.validateAnswer(submission).json
            return String(decoding: bytes, as: UTF8.self)
        }
        let basic = try answer(#"{"code": "s3cret", "plan": "basic"}"#)
        #expect(basic.contains(#""plan":"basic","price":20"#) && basic.contains(#""hidden":["code"]"#), "\(basic)")
        let pro = try answer(#"{"code": "s3cret", "plan": "pro"}"#)
        #expect(pro.contains(#""plan":"pro","price":51"#) && pro.contains(#""hidden":[]"#), "\(pro)")
        // A number for an id: the value is the number, sent as a string or not.
        for sent in [#""7""#, "7"] {
            let seven = try answer(#"{"plan": "# + sent + "}")
            #expect(seven.contains(#""plan":7,"price":6"#), "\(seven)")
        }
        // `xl` updates `plan` to `pro`: the formula reads the new option, not the one sent.
        let updated = try answer(#"{"code": "s3cret", "size": "xl", "plan": "basic"}"#, changed: ["size"])
        #expect(updated.contains(#""plan":"pro""#) && updated.contains(#""price":51"#) && !updated.contains(#""hidden":["code"]"#), "\(updated)")
    }

    /// Which submissions are read in place (`SentMembers`) and which are decoded: the values and
    /// the answers are the same either way, and so are the errors of documents refused.
    @Test func readInPlaceOrDecoded() throws {
        let cases: [(String, Bool)] = [
            (#"{"name": "Ada", "note": "x", "mail": "a@b.no"}"#, true),
            (#"{}"#, true),
            // Options by their bytes; `K` is canonically the Kelvin sign, the first option.
            (#"{"unit": "K", "size": "xl"}"#, true), (#"{"unit": "kg", "size": "M"}"#, true), (#"{"unit": 3, "size": ""}"#, true),
            (#" {"name":"Ada"} "#, true),
            (#"{"name": "A\u0064a", "note": "line\nbreak", "pick": ["a"], "x": {"k": 1}}"#, true),  // escapes, arrays, objects
            (#"{"name": "Ada", "other": 1, "lines[1].item": "r", "n\u0020": 2}"#, true),  // a few other keys
            (#"{"name": "Ada", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5}"#, false),  // more other keys than kept
            (#"{"sum": 1, "name": "Ada"}"#, true),  // out of order: `sum`, past the look-ahead, is another key
            (#"{"sum": 1, "before": 2, "until": 3, "phone_number": 4, "day": 5, "name": "Ada"}"#, false),  // backwards
            (#"{"name": "Ada", "n\u0061me": "Bob"}"#, false),  // a duplicate through an escape: refused
            (#"{"name": "Ada", "other": 1, "other": 2}"#, false),  // a duplicate other key: refused
            (#"{"other": 1, "name": "Ada", "note": "x", "other": 2}"#, false),  // refused
            (#"{"name": "Ada", "note": "x", "nam": 1, "notes": 2}"#, true),  // other keys, none a duplicate
            ("{\"name\": \"Ada\", \"caf\u{E9}\": 1, \"cafe\u{301}\": 2}", false),  // canonically equal keys: refused
            (#"{"name": "Ada", "x": 1,}"#, false),  // refused
            (#"{"name": "Ada"} x"#, false),  // refused
            ("\u{FEFF}{\"name\": \"Ada\"}", false),  // refused
            (#"[1]"#, false),
            (#"{"name": "Ada", "n": 01}"#, false),  // refused
            ("{\"name\": \"\u{1}\"}", false),  // refused
        ]
        for (text, inPlace) in cases {
            let bytes = Array(text.utf8)
            let viaValues = Result { () throws(JSONParseError) in try Self.flatForm.values(json: bytes) }
            let read = Result { () throws(JSONParseError) in try Self.flatForm.submission(fromJSON: bytes) }
            switch (read, viaValues) {
            case (.success(let submission), .success(let values)):
                #expect(submission.isReadInPlace == inPlace, "\(text)")
                #expect(submission.values == values, "\(text)")
                #expect(try Self.flatForm.validateAnswer(submission).json == (try Self.flatForm.validateAnswer(values)).json, "\(text)")
            case (.failure(let a), .failure(let b)):
                #expect(!inPlace && a.description == b.description, "\(text)")
            default:
                Issue.record("\(text): \(read) against \(viaValues)")
            }
        }
    }

    /// `compare_to` between dates sent as plain strings reads them in place
    /// (`Evaluation.sentDatesOrder`): every pair, against a date field and a text field, hidden
    /// or not, answers as through the values.
    @Test(arguments: [false, true]) func sentDatesCompareAsTheirValues(flat: Bool) throws {
        let form = flat ? Self.flatForm : Self.form
        let dates = ["2025-02-28", "2025-03-01", "2024-12-31", "2025-02-30", "2025-2-28", "1999-01-01", "2025-02-28 "]
        var errors = 0
        for a in dates {
            for b in dates {
                for (key, other) in [("until", "day"), ("before", "note")] {
                    for hide in ["", #", "on": true"#] {
                        let bytes = Array(#"{"\#(key)": "\#(a)", "\#(other)": "\#(b)"\#(hide)}"#.utf8)
                        let submission = try form.submission(fromJSON: bytes)
                        let direct = try form.validateAnswer(submission)
                        #expect(direct.json == (try form.validateAnswer(submission.values)).json, "\(String(decoding: bytes, as: UTF8.self))")
                        errors += direct.errors.filter { $0.code == .compare }.count
                    }
                }
            }
        }
        #expect(errors > 20)
        let later = try form.validateAnswer(form.submission(fromJSON: Array(#"{"until": "2025-03-01", "day": "2025-02-28"}"#.utf8)))
        let earlier = try form.validateAnswer(form.submission(fromJSON: Array(#"{"until": "2025-02-27", "day": "2025-02-28"}"#.utf8)))
        // (`name` is required: both lack it.)
        #expect(!later.errors.contains { $0.code == .compare } && earlier.errors.filter { $0.code == .compare }.count == 1)
    }

    /// Only a value's own text that the writer would write is copied: an escaped string is
    /// written unescaped, a number made canonical is written canonical, a password never appears.
    @Test func valuesSentBackAsSent() throws {
        let bytes = Array(#"{"name": "Ad\u0061", "note": "é", "n": 1e1, "x": 12.25, "code": "hunter2", "mail": "a@b.no"}"#.utf8)
        let answer = try Self.form.validateAnswer(Self.form.submission(fromJSON: bytes))
        let text = String(decoding: answer.json, as: UTF8.self)
        #expect(text.contains(#""values":{"name":"Ada","note":"é","mail":"a@b.no","n":"10","x":12.25,"price":0,"sum":22.25}"#), "\(text)")
        #expect(!text.contains("hunter2"))
    }

    /// The parser records a value's text exactly when the writer writes that text for it:
    /// scalars, and strings without escapes; never an escaped string, an array or an object.
    @Test func recordsTextOnlyWhereTheWriterWritesIt() throws {
        let text = #"{"a": "plain", "b": "é\u00e9", "c": -1.5e3, "d": true, "e": false, "f": null, "g": [1], "h": {"k": 1}, "i": "é"}"#
        let bytes = Array(text.utf8)
        let values = try Self.form.submission(fromJSON: bytes).values
        var recorded: [String: String] = [:]
        for m in values.members where m.textStart >= 0 {
            let start = Int(m.textStart)
            recorded[m.key] = String(decoding: bytes[start..<start + Int(m.textCount)], as: UTF8.self)
            var w = JSONWriter()
            w.writeValue(m.value)
            #expect(w.bytes == Array(bytes[start..<start + Int(m.textCount)]), "\(m.key)")
        }
        #expect(recorded == ["a": #""plain""#, "c": "-1.5e3", "d": "true", "e": "false", "f": "null", "i": #""é""#])
    }

    @Test func refusesWhatValuesRefuses() {
        for bad in ["[1]", "{\"name\": 1,}", "{\"name\": \"a\", \"name\": \"b\"}", ""] {
            let bytes = Array(bad.utf8)
            let a = Result { () throws(JSONParseError) in try Self.form.submission(fromJSON: bytes) }
            let b = Result { () throws(JSONParseError) in try Self.form.values(json: bytes) }
            switch (a, b) {
            case (.failure(let x), .failure(let y)): #expect(x == y, "\(bad)")
            default: Issue.record("\(bad): \(a) / \(b)")
            }
        }
    }
}
