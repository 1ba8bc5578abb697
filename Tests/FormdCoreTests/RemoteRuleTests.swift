import Testing
@testable import FormdCore

/// SEMANTICS §6.2: a remote rule is asked only after the field's local checks pass; the engine
/// never calls anything: it lists the questions, or applies the verdicts it is given.
@Suite struct RemoteRuleTests {
    static let def = #"""
        {"messages": {"nb": {"taken": "{label} er opptatt."}},
         "groups": [{"id": "g", "sections": [{"id": "s", "fields": [
          {"id": "username", "type": "text", "title": "Username",
           "validations": {"required": true, "min_length": 3, "remote": "users", "messages": {"banned": "{label} is banned ({reason})."}}},
          {"id": "coupon", "type": "text", "title": "Coupon", "validations": {"remote": "coupons"}},
          {"id": "note", "type": "text"}]},
          {"id": "lines", "type": "dynamic", "min_instances": 0}]}],
         "templates": {"sections": [{"id": "lines", "fields": [{"id": "lines[:index].code", "type": "text", "title": "Code", "validations": {"remote": "codes"}}]}]}}
        """#

    func form() throws -> Form { try Form(id: "r", json: Array(Self.def.utf8)) }

    func values(_ json: String) throws -> FormValues {
        guard case .object(let o) = try JSONParser.parse(json).root else { Issue.record("not an object"); return FormValues() }
        return o
    }

    @Test func rulesAreListedWithTheirPlace() throws {
        let f = try form()
        #expect(f.remoteRules.map(\.validator) == ["users", "coupons", "codes"])
        #expect(f.remoteRules.first?.path == "groups[0].sections[0].fields[0].validations.remote")
        #expect(f.remoteRules.first?.line == 4)
        #expect(f.undeclaredRemoteValidators(declared: ["users", "codes"]).map(\.message)
            == [#"remote validator "coupons" is not declared in the configuration (validators.remote)"#])
        #expect(f.undeclaredRemoteValidators(declared: ["users", "coupons", "codes"]).isEmpty)
    }

    @Test func questionsOnlyAfterLocalChecksPass() throws {
        let f = try form()
        let a = try f.validateAnswer(try values(#"{"username": "ab", "coupon": "SAVE", "note": "x"}"#))
        // `username` fails min_length: not asked; `coupon` passes: asked, provisionally valid.
        #expect(a.remoteQuestions == [RemoteQuestion(field: "coupon", validator: "coupons", value: #""SAVE""#)])
        #expect(a.subjectsInError == ["username"])
        let empty = try f.validateAnswer(try values(#"{"username": "ola"}"#))
        #expect(empty.remoteQuestions.map(\.field) == ["username"], "an empty field asks nothing")
        let typed = try f.validate(try values(#"{"username": "ola"}"#))
        #expect(typed.remotePending == ["username"])
        #expect(typed.isValid)
        // Template instances ask with their own ids.
        let lines = try f.validateAnswer(try values(#"{"username": "ab", "lines[0].code": "A1", "lines[1].code": "B2"}"#))
        #expect(lines.remoteQuestions.map(\.field) == ["lines[0].code", "lines[1].code"])
    }

    @Test func verdictsBecomeErrorsAndWarnings() throws {
        let f = try form()
        let v = try values(#"{"username": "ola", "coupon": "SAVE"}"#)
        var verdicts = RemoteVerdicts()
        verdicts["username"] = .invalid(RemoteRejection(code: "taken", message: "Taken upstream.", params: #"{"suggestion": "ola2"}"#))
        verdicts["coupon"] = .unchecked
        let en = try f.validateAnswer(v, remote: verdicts)
        #expect(en.remoteQuestions.isEmpty)
        #expect(!en.isValid)
        let root = try JSONParser.parse(en.json).root
        let error = try #require(root["errors"]?.arrayValue?.first)
        #expect(error["code"]?.stringValue == "taken")
        #expect(error["message"]?.stringValue == "Taken upstream.", "no override in en: the validator's message")
        #expect(error["params"]?["suggestion"]?.stringValue == "ola2")
        let warning = try #require(root["warnings"]?.arrayValue?.first)
        #expect(warning["field"]?.stringValue == "coupon")
        #expect(warning["code"]?.stringValue == "remote_unchecked")
        #expect(warning["message"]?.stringValue == "Coupon could not be checked right now.")
        // The form's override for the code, in its language.
        let nb = try f.validateAnswer(v, locale: .nb, remote: verdicts)
        #expect(try JSONParser.parse(nb.json).root["errors"]?.arrayValue?.first?["message"]?.stringValue == "Username er opptatt.")
        // The field's override, with the validator's params.
        verdicts["username"] = .invalid(RemoteRejection(code: "banned", params: #"{"reason": "spam"}"#))
        let banned = try f.validateAnswer(v, remote: verdicts)
        #expect(try JSONParser.parse(banned.json).root["errors"]?.arrayValue?.first?["message"]?.stringValue == "Username is banned (spam).")
        // No code, no message: `remote` and its built-in text.
        verdicts["username"] = .invalid(RemoteRejection())
        let bare = try JSONParser.parse(f.validateAnswer(v, remote: verdicts).json).root["errors"]?.arrayValue?.first
        #expect(bare?["code"]?.stringValue == "remote")
        #expect(bare?["message"]?.stringValue == "Username is not accepted.")
        // An invalid code from upstream is not passed through.
        verdicts["username"] = .invalid(RemoteRejection(code: "no spaces allowed"))
        #expect(try JSONParser.parse(f.validateAnswer(v, remote: verdicts).json).root["errors"]?.arrayValue?.first?["code"]?.stringValue == "remote")
        verdicts["username"] = .valid
        verdicts["coupon"] = .valid
        let ok = try f.validateAnswer(v, remote: verdicts)
        #expect(ok.isValid)
        #expect(try JSONParser.parse(ok.json).root["warnings"]?.arrayValue?.isEmpty == true)
    }

    @Test func evaluateAsksOnlyForChangedFields() throws {
        let f = try form()
        let v = try values(#"{"username": "ola", "coupon": "SAVE"}"#)
        #expect(try f.evaluateAnswer(v, changed: ["note"]).remoteQuestions.isEmpty)
        #expect(try f.evaluateAnswer(v, changed: ["coupon"]).remoteQuestions.map(\.field) == ["coupon"])
        var verdicts = RemoteVerdicts()
        verdicts["coupon"] = .invalid(RemoteRejection(code: "expired"))
        let a = try f.evaluateAnswer(v, changed: ["coupon"], remote: verdicts)
        #expect(a.subjectsInError == ["coupon"])
    }

    @Test func definitionErrors() throws {
        let bad = Engine.diagnostics(#"[{"sections": [{"fields": [{"id": "a", "validations": {"remote": "1 bad"}}]}]}]"#)
        #expect(bad.contains { $0.message.contains("not a remote validator name") })
        let inWarnings = Engine.diagnostics(#"[{"sections": [{"fields": [{"id": "a", "warnings": {"remote": "users"}}]}]}]"#)
        #expect(inWarnings.contains { $0.message.contains("\"remote\" belongs in \"validations\"") })
        let notString = Engine.diagnostics(#"[{"sections": [{"fields": [{"id": "a", "validations": {"remote": 3}}]}]}]"#)
        #expect(notString.contains { $0.severity == .error })
    }
}
