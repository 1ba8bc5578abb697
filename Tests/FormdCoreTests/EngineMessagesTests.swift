import Testing
@testable import FormdCore

/// SEMANTICS §9: messages in the negotiated locale, labels, params and overrides.
@Suite struct EngineMessagesTests {
    private func message(_ definition: String, _ values: String = "{}", locale: SupportedLocale = .en, field: String = "x") throws -> String? {
        try Engine.run(definition, values, mode: .validate, locale: locale).errors
            .first { $0["field"]?.stringValue == field }?["message"]?.stringValue
    }

    @Test func labelIsTitleElseID() throws {
        #expect(try message(Engine.fields(#"{"id": "x", "title": "Email", "type": "text", "validations": {"required": true}}"#)) == "Email is required.")
        #expect(try message(Engine.fields(#"{"id": "x", "type": "text", "validations": {"required": true}}"#)) == "x is required.")
        #expect(try message(Engine.fields(#"{"id": "x", "type": "text", "validations": {"min_length": 3}}"#), #"{"x": "a"}"#) == "x must be at least 3 characters long.")
    }

    @Test(arguments: [(SupportedLocale.en, "First name is required."), (.nb, "First name må fylles ut.")])
    func builtInCatalogues(locale: SupportedLocale, expected: String) throws {
        let def = Engine.fields(#"{"id": "x", "title": "First name", "type": "text", "validations": {"required": true}}"#)
        #expect(try message(def, locale: locale) == expected)
    }

    @Test func spanishDiffersFromEnglish() throws {
        let def = Engine.fields(#"{"id": "x", "type": "text", "validations": {"required": true}}"#)
        let es = try #require(try message(def, locale: .es))
        #expect(es != "x is required.")
        #expect(es.contains("x"))
    }

    @Test func negotiatedLocale() {
        #expect(negotiateLocale(query: nil, acceptLanguage: "nb-NO") == .nb)
        #expect(negotiateLocale(query: "locale=es", acceptLanguage: "nb-NO") == .es)
        #expect(negotiateLocale(query: nil, acceptLanguage: "fr;q=1, es;q=0.5, nb;q=0.8") == .nb)
        #expect(negotiateLocale(query: nil, acceptLanguage: "fr") == .en)
    }

    static let overrides = #"""
        {"messages": {"nb": {"required": "Form nb: {label}"}, "en": {"required": "Form en: {label}", "min_length": "Form en min {min}"}},
         "groups": [{"sections": [{"id": "s", "fields": [
            {"id": "x", "type": "text", "validations": {"required": true, "messages": {"required": "Field: {label}"}}},
            {"id": "y", "type": "text", "validations": {"required": true, "messages": {"required": {"nb": "Felt nb {label}"}}}},
            {"id": "z", "type": "text", "validations": {"required": true, "min_length": 2}}]}]}]}
        """#

    @Test(arguments: [
        (SupportedLocale.en, "x", "Field: x"), (.nb, "x", "Field: x"),
        (.nb, "y", "Felt nb y"), (.en, "y", "Form en: y"),
        (.nb, "z", "Form nb: z"), (.en, "z", "Form en: z"),
    ])
    func overrideOrder(locale: SupportedLocale, field: String, expected: String) throws {
        #expect(try message(Self.overrides, locale: locale, field: field) == expected)
    }

    @Test func formEnglishOverrideIsOnlyAFallbackAfterTheBuiltInLocale() throws {
        // nb has a built-in min_length text, so the form's `en` override is not used for nb.
        let nb = try message(Self.overrides, #"{"x": "1", "y": "1", "z": "1"}"#, locale: .nb, field: "z")
        #expect(nb == "z må ha minst 2 tegn.")
        let en = try message(Self.overrides, #"{"x": "1", "y": "1", "z": "1"}"#, locale: .en, field: "z")
        #expect(en == "Form en min 2")
    }

    @Test func unstableNamesTheFields() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "text", "value": "1", "targets": [{"id": "b", "type": "field", "action": "hide"}]}"#,
            #"{"id": "b", "type": "text", "value": "1", "targets": [{"id": "a", "type": "field", "action": "hide"}]}"#)
        let r = try Engine.run(def, "{}", mode: .validate)
        #expect(r.errors.first?["message"]?.stringValue == "The form could not settle. These fields kept changing: a, b.")
        #expect(r.errors.first?["field"] == nil)
    }
}
