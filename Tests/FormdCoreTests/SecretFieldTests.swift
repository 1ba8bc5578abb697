import Testing
@testable import FormdCore

/// SEMANTICS §8: password fields and `"secret": true` fields are validated but never echoed.
@Suite struct SecretFieldTests {
    static let def = Engine.fields(
        #"{"id": "pw", "type": "password", "validations": {"required": true, "min_length": 4}}"#,
        #"{"id": "again", "type": "password", "validations": {"compare_to": "pw"}}"#,
        #"{"id": "pin", "type": "number", "secret": true}"#,
        #"{"id": "name", "type": "text"}"#)

    static let secretText = "hunter2-SECRET"

    @Test func validateAndEvaluateAnswersLeaveSecretsOut() throws {
        let form = try Engine.load(Self.def)
        let values = #"{"pw": "\#(Self.secretText)", "again": "\#(Self.secretText)", "pin": "4711", "name": "Kari"}"#
        for mode in [Evaluation.Mode.validate, .evaluate] {
            let r = try Engine.run(form, values, mode: mode)
            #expect(r.valueKeys == ["name"])
            #expect(r.dropped == [])
            #expect(r.errorList == [])
            let bytes = try Engine.body(form, values, mode: mode)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains(Self.secretText))
            #expect(!text.contains("4711"))
            #expect(r.root["values"]?.objectValue?.members.map(\.key) == ["name"])
        }
    }

    @Test func secretsAreStillValidatedAndCompared() throws {
        let r = try Engine.run(Self.def, #"{"pw": "abc", "again": "abd", "pin": "12x"}"#, mode: .validate)
        #expect(r.errorList == ["pw:min_length", "again:compare", "pin:type"])
        #expect(r.valueKeys == [])
        let ok = try Engine.run(Self.def, #"{"pw": false, "again": "false"}"#, mode: .validate)
        #expect(ok.errorList == [])
    }

    @Test func stateTokensAndChangesCarryNoSecret() throws {
        let form = try Engine.load(Self.def)
        let first = try Engine.evaluation(form, #"{"pw": "aaaa"}"#)
        let (snapshot, _, _) = first.snapshot()
        let second = try Engine.evaluation(form, #"{"pw": "\#(Self.secretText)", "name": "x"}"#, changed: ["pw", "name"])
        var w = JSONWriter()
        second.evaluateResponse(head: form.answerHead, form: form.id, version: form.version, previous: snapshot, into: &w)
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(!text.contains(Self.secretText))
        let root = try JSONParser.parse(text).root
        // The secret's value change is not visible: only `name` changed value.
        #expect(root["changes"]?["fields"]?["pw"] == nil)
        #expect(root["changes"]?["fields"]?["name"]?["value"]?.stringValue == "x")
        // The token holds no hash of the secret: two different passwords give the same token.
        let (a, _, _) = try Engine.evaluation(form, #"{"pw": "aaaa"}"#).snapshot()
        let (b, _, _) = try Engine.evaluation(form, #"{"pw": "bbbb"}"#).snapshot()
        #expect(a == b)
    }

    @Test func aFormulaThatReadsASecretIsALoadError() throws {
        let errors = Engine.errors(
            Engine.fields(
                #"{"id": "pw", "type": "password"}"#, #"{"id": "copy", "type": "text", "formula": "Hi {pw}"}"#))
        #expect(errors.count == 1)
        #expect(errors.first?.path.hasSuffix(".formula") == true)
        #expect(errors.first?.message.contains("secret field \"pw\"") == true)
        let numeric = Engine.errors(
            Engine.fields(#"{"id": "p", "type": "float", "secret": true}"#, #"{"id": "q", "type": "float", "formula": "p * 2"}"#))
        #expect(numeric.count == 1)
        // Conditions may read a secret: they decide, they do not copy.
        let condition = Engine.errors(
            Engine.fields(
                #"{"id": "pw", "type": "password", "targets": [{"id": "n", "type": "field", "action": "hide", "condition": "$pw == \"x\""}]}"#,
                #"{"id": "n", "type": "text"}"#))
        #expect(condition.isEmpty)
    }

    @Test func secretMustBeAFlag() {
        let errors = Engine.errors(Engine.fields(#"{"id": "p", "type": "text", "secret": "yes"}"#))
        #expect(errors.first?.message.contains("\"secret\" must be true or false") == true)
    }

    @Test func pureFormSecureTextEntryIsSecret() throws {
        let def = #"""
            [{"<TextFieldCell + A>": {"titleLabel": {"text": "Password"}, "textField?": {"<key>": "password", "secureTextEntry": true}}}]
            """#
        let result = FormLoader.load(id: "p", bytes: Array(def.utf8))
        let form = try #require(result.form, "\(result.diagnostics)")
        let r = try Engine.run(form, #"{"password": "s3cret-value"}"#, mode: .validate)
        #expect(r.valueKeys == [])
    }
}
