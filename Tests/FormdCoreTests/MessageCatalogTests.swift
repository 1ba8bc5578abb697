import Testing
@testable import FormdCore

@Suite struct MessageTemplateTests {
    @Test func compilesLiteralsAndPlaceholders() {
        let t = MessageTemplate("{label}: at least {min} characters")
        #expect(t.segments == [.label, .literal(": at least "), .param("min"), .literal(" characters")])
        #expect(t.render(label: "City", params: [("min", "3")]) == "City: at least 3 characters")
    }

    @Test func literalOnlyTemplate() {
        let t = MessageTemplate("Too long")
        #expect(t.segments == [.literal("Too long")])
        #expect(t.render(label: "x") == "Too long")
    }

    @Test func emptyTemplate() {
        #expect(MessageTemplate("").segments.isEmpty)
        #expect(MessageTemplate("").render(label: "x") == "")
    }

    @Test func unknownPlaceholdersAndStrayBracesStayLiteral() {
        let t = MessageTemplate("{label} {nope} { min} {} {1a} {a-b} {unclosed")
        #expect(t.render(label: "L", params: [("min", "3")]) == "L {nope} { min} {} {1a} {a-b} {unclosed")
    }

    @Test func adjacentPlaceholdersAndUnicode() {
        let t = MessageTemplate("«{label}»{min}{max}ø")
        #expect(t.render(label: "Fødselsnummer", params: [("max", "9"), ("min", "1")]) == "«Fødselsnummer»19ø")
    }

    @Test func paramsNamedLabelDoNotReplaceTheLabel() {
        #expect(MessageTemplate("{label}").render(label: "Title", params: [("label", "x")]) == "Title")
    }

    @Test func relationIsDerivedFromRulePerLocale() {
        let t = MessageTemplate("{label} must be {relation} {other}")
        let params: [(name: String, text: String)] = [("other", "Start"), ("rule", ">=")]
        #expect(t.render(label: "End", params: params, locale: .en) == "End must be greater than or equal to Start")
        #expect(t.render(label: "End", params: params, locale: .nb) == "End must be større enn eller lik Start")
        #expect(t.render(label: "End", params: [("rule", "??")]) == "End must be {relation} {other}")
        #expect(t.render(label: "End", params: [("relation", "after"), ("rule", ">")]) == "End must be after {other}")
    }

    /// The answer's path (`write`, pieces copied already escaped, params looked up by name)
    /// gives the JSON string of what `render` gives, for every kind of segment.
    @Test func writeIsTheEscapedRendering() {
        let templates = [
            "{label} is required.", "Too \"long\"\n", "", "{label}", "{min}", "«{label}»{min}{max}ø",
            "{label} {nope} { min} {} {1a} {a-b} {unclosed", "{label} must be {relation} {other}", "{min}-{min} {label}{label}",
        ]
        let params: [(key: String, value: JSONValue)] = [
            ("min", .int(2)), ("max", .number(JSONNumber(literal: "2.50"))), ("other", .string("start \"date\"")),
            ("rule", .string(">=")),
        ]
        let texts = [("min", "2"), ("max", "2.50"), ("other", "start \"date\""), ("rule", ">=")]
        for text in templates {
            for locale in SupportedLocale.allCases {
                let t = MessageTemplate(text)
                var w = JSONWriter(reservingCapacity: 64)
                w.append(byte: UInt8(ascii: "\""))
                t.write(label: "Name \\ \u{1}", params: params, locale: locale, into: &w)
                w.append(byte: UInt8(ascii: "\""))
                var expected = JSONWriter(reservingCapacity: 64)
                expected.string(t.render(label: "Name \\ \u{1}", params: texts, locale: locale))
                #expect(w.bytes == expected.bytes, "\(text) in \(locale)")
            }
        }
    }

    @Test func uses() {
        let t = MessageTemplate("{label} {min}")
        #expect(t.uses("label") && t.uses("min") && !t.uses("max"))
    }
}

@Suite struct BuiltInCatalogueTests {
    static let labelFree: Set<ErrorCode> = [.unstable]

    @Test(arguments: SupportedLocale.allCases)
    func everyCodeHasATemplate(locale: SupportedLocale) {
        for code in ErrorCode.allCases {
            let t = MessageCatalog.builtIn.table[code, locale]
            #expect(t != nil, "\(locale) \(code)")
            guard let t else { continue }
            #expect(!t.text.isEmpty)
            if Self.labelFree.contains(code) {
                #expect(t.uses("fields"), "\(locale) \(code)")
            } else {
                #expect(t.uses("label"), "\(locale) \(code)")
            }
            switch code {
            case .minLength, .minValue, .minInstances: #expect(t.uses("min"), "\(locale) \(code)")
            case .maxLength, .maxValue, .maxInstances: #expect(t.uses("max"), "\(locale) \(code)")
            case .compare: #expect(t.uses("other") && t.uses("relation"), "\(locale) \(code)")
            default: break
            }
        }
    }

    @Test func localesDiffer() {
        for code in ErrorCode.allCases {
            let en = MessageCatalog.builtIn.table[code, .en]?.text
            #expect(en != MessageCatalog.builtIn.table[code, .nb]?.text)
            #expect(en != MessageCatalog.builtIn.table[code, .es]?.text)
        }
    }

    @Test func sampleRenderings() {
        let c = MessageCatalog.builtIn
        #expect(c.message(for: .required, locale: .en, label: "Email") == "Email is required.")
        #expect(c.message(for: .required, locale: .nb, label: "E-post") == "E-post må fylles ut.")
        #expect(c.message(for: .required, locale: .es, label: "Correo") == "El campo Correo es obligatorio.")
        #expect(c.message(for: .minLength, locale: .nb, label: "By", params: [("min", "3")]) == "By må ha minst 3 tegn.")
        #expect(c.message(for: .compare, locale: .es, label: "Fin", params: [("other", "Inicio"), ("rule", ">")])
            == "El campo Fin debe ser mayor que Inicio.")
        #expect(c.message(for: .unstable, locale: .en, label: "", params: [("fields", "a, b")])
            == "The form could not settle. These fields kept changing: a, b.")
    }
}

@Suite struct MessageResolutionTests {
    /// The x-messages fixture's overrides.
    static let formJSON: JSONValue = .object(JSONObject([
        .init(key: "en", value: .object(JSONObject([
            .init(key: "required", value: .string("{label} must be filled in")),
            .init(key: "min_length", value: .string("{label}: at least {min} characters")),
        ]))),
        .init(key: "nb", value: .object(JSONObject([
            .init(key: "required", value: .string("{label} må fylles ut")),
        ]))),
    ]))
    static let zipJSON: JSONValue = .object(JSONObject([
        .init(key: "min_length", value: .object(JSONObject([
            .init(key: "en", value: .string("Zip too short")),
            .init(key: "nb", value: .string("For kort postnummer")),
        ]))),
    ]))
    static let nicknameJSON: JSONValue = .object(JSONObject([.init(key: "max_length", value: .string("Too long"))]))

    static func table(form json: JSONValue) -> MessageTable? {
        var d: [MessageDiagnostic] = []
        let t = MessageTable.formOverrides(json, diagnostics: &d)
        #expect(d.isEmpty)
        return t
    }

    static func table(field json: JSONValue) -> MessageTable? {
        var d: [MessageDiagnostic] = []
        let t = MessageTable.fieldOverrides(json, diagnostics: &d)
        #expect(d.isEmpty)
        return t
    }

    @Test func conformanceCases() {
        let c = MessageCatalog.builtIn
        let form = Self.table(form: Self.formJSON)
        let zip = Self.table(field: Self.zipJSON)
        let nick = Self.table(field: Self.nicknameJSON)
        #expect(c.message(for: .required, locale: .en, form: form, label: "First name") == "First name must be filled in")
        #expect(c.message(for: .required, locale: .nb, form: form, label: "First name") == "First name må fylles ut")
        #expect(c.message(for: .maxLength, locale: .en, field: nick, form: form, label: "Nickname", params: [("max", "5")]) == "Too long")
        #expect(c.message(for: .maxLength, locale: .nb, field: nick, form: form, label: "Nickname", params: [("max", "5")]) == "Too long")
        #expect(c.message(for: .minLength, locale: .en, form: form, label: "City", params: [("min", "3")]) == "City: at least 3 characters")
        #expect(c.message(for: .minLength, locale: .en, field: zip, form: form, label: "Zip", params: [("min", "4")]) == "Zip too short")
        #expect(c.message(for: .minLength, locale: .nb, field: zip, form: form, label: "Zip", params: [("min", "4")]) == "For kort postnummer")
        // A field override without the locale falls through, not to the field's own en.
        #expect(c.message(for: .minLength, locale: .es, field: zip, form: form, label: "Zip", params: [("min", "4")])
            == "El campo Zip debe tener al menos 4 caracteres.")
        // Built-in nb before the form's en.
        #expect(c.message(for: .minLength, locale: .nb, form: form, label: "City", params: [("min", "3")]) == "City må ha minst 3 tegn.")
    }

    /// All five levels, with a catalogue that lacks some entries so that levels 4 and 5 show.
    @Test func fiveLevels() {
        let catalog = MessageCatalog(MessageTable([
            .en: [.format: "builtin-en"],
            .nb: [.format: "builtin-nb"],
        ]))
        let field = MessageTable([.nb: [.format: "field-nb"]])
        let form = MessageTable([.nb: [.format: "form-nb"], .en: [.format: "form-en"]])
        let formEnOnly = MessageTable([.en: [.format: "form-en"]])
        #expect(catalog.message(for: .format, locale: .nb, field: field, form: form, label: "") == "field-nb")
        #expect(catalog.message(for: .format, locale: .nb, field: nil, form: form, label: "") == "form-nb")
        #expect(catalog.message(for: .format, locale: .nb, field: field.withoutNB, form: formEnOnly, label: "") == "builtin-nb")
        #expect(catalog.message(for: .format, locale: .es, field: field, form: form, label: "") == "form-en")
        #expect(catalog.message(for: .format, locale: .es, field: field, form: nil, label: "") == "builtin-en")
        // A code the catalogue lacks entirely: its code.
        #expect(catalog.message(for: .ssn, locale: .es, label: "") == "ssn")
    }

    @Test func rawJSONConvenience() {
        let msg = MessageCatalog.builtIn.message(
            for: .minLength, locale: .nb, fieldMessages: Self.zipJSON, formMessages: Self.formJSON,
            label: "Zip", params: [("min", "4")])
        #expect(msg == "For kort postnummer")
        #expect(MessageCatalog.builtIn.message(for: .required, locale: .es, fieldMessages: nil, formMessages: nil, label: "X")
            == "El campo X es obligatorio.")
    }

    @Test func diagnosticsForBadOverrides() {
        var d: [MessageDiagnostic] = []
        let field: JSONValue = .object(JSONObject([
            .init(key: "nope", value: .string("x")),
            .init(key: "required", value: .number(JSONNumber(literal: "1"))),
            .init(key: "format", value: .object(JSONObject([
                .init(key: "fr", value: .string("x")),
                .init(key: "en", value: .bool(true)),
                .init(key: "es", value: .string("formato")),
            ]))),
        ]))
        let t = MessageTable.fieldOverrides(field, diagnostics: &d)
        #expect(d.map(\.path) == [["nope"], ["required"], ["format", "fr"], ["format", "en"]])
        #expect(t?[.format, .es]?.text == "formato")
        #expect(t?[.format, .en] == nil)

        d = []
        let form: JSONValue = .object(JSONObject([
            .init(key: "fr", value: .object(JSONObject())),
            .init(key: "en", value: .string("x")),
            .init(key: "nb", value: .object(JSONObject([.init(key: "bad", value: .string("x"))]))),
        ]))
        #expect(MessageTable.formOverrides(form, diagnostics: &d) == nil)
        #expect(d.map(\.path) == [["fr"], ["en"], ["nb", "bad"]])

        d = []
        #expect(MessageTable.formOverrides(.array([]), diagnostics: &d) == nil)
        #expect(d.count == 1)
        d = []
        #expect(MessageTable.fieldOverrides(.null, diagnostics: &d) == nil)
        #expect(MessageTable.fieldOverrides(nil, diagnostics: &d) == nil)
        #expect(MessageTable.fieldOverrides(.object(JSONObject()), diagnostics: &d) == nil)
        #expect(d.isEmpty)
    }
}

extension MessageTable {
    fileprivate var withoutNB: MessageTable {
        var t = self
        for code in ErrorCode.allCases { t[code, .nb] = nil }
        return t
    }
}

@Suite struct ParamListTests {
    /// One reference holds the list and its JSON; no params is no reference, and reads as empty.
    @Test func listsAndTheirJSON() {
        let none = ParamList([])
        #expect(none.list.isEmpty && none.json.isEmpty)
        let literal: ParamList = []
        #expect(literal.list.isEmpty && literal.json.isEmpty)
        let perError = ParamList([("expected", .string("email"))])
        #expect(perError.list.map(\.key) == ["expected"] && perError.list.map(\.value) == [.string("email")])
        #expect(perError.json.isEmpty)
        let compiled = ParamList(encoding: [("other", .string("start_date")), ("rule", .string(">"))])
        #expect(compiled.list.map(\.key) == ["other", "rule"])
        #expect(String(decoding: compiled.json, as: UTF8.self) == #"{"other":"start_date","rule":">"}"#)
        #expect(String(decoding: ParamList(encoding: []).json, as: UTF8.self) == "{}")
    }
}
