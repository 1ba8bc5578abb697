import Testing
@testable import FormdCore

/// Texts given per language: read, resolved for a locale (served variants), and quoted by messages.
@Suite struct LocalizedDefinitionTests {
    static let definition = #"""
        {"title": {"en": "Order", "nb": "Bestilling", "es": "Pedido"},
         "groups": [{"id": "g", "title": {"nb": "Gruppe", "en": "Group"}, "sections": [
           {"id": "s", "title": {"en": "Section"}, "fields": [
             {"id": "name", "type": "text", "title": {"en": "Name", "nb-NO": "Navn", "es": "Nombre"},
              "info": {"en": "Your name", "nb": "Ditt navn"}, "placeholder": "Kari",
              "validations": {"required": true}},
             {"id": "size", "type": "select", "title": {"de": "Größe", "en": "Size"},
              "values": [{"id": "s", "title": {"en": "Small", "nb": "Liten"}}, {"id": "l", "title": "Large"}],
              "validations": {"required": true}}]},
           {"id": "rows", "type": "dynamic", "title": {"en": "Rows", "nb": "Rader"}, "min_instances": 1, "fields": null}]}],
         "templates": {"sections": [{"id": "rows", "fields": [{"id": "rows[:index].x", "type": "text"}]}]}}
        """#

    @Test func resolutionPrefersTheLocaleThenEnglishThenTheFirst() throws {
        let t = try #require(LocalizedText(json: try JSONValue(parsing: #"{"nb-NO": "Navn", "es": "Nombre", "en": "Name"}"#)))
        #expect(t.resolved(for: .nb) == "Navn" && t.resolved(for: .es) == "Nombre" && t.text == "Name")
        let noEnglish = try #require(LocalizedText(json: try JSONValue(parsing: #"{"de": "Größe", "nb": "Størrelse"}"#)))
        #expect(noEnglish.resolved(for: .es) == "Größe" && noEnglish.resolved(for: .nb) == "Størrelse")
        let norwegian = try #require(LocalizedText(json: try JSONValue(parsing: #"{"no": "Navn", "en": "Name"}"#)))
        #expect(norwegian.resolved(for: .nb) == "Navn", "no is read as Bokmål, as Accept-Language is")
        #expect(LocalizedText("Plain").resolved(for: .nb) == "Plain" && !LocalizedText("Plain").isLocalized)
    }

    @Test(arguments: [
        #"{"title": 5}"#, #"{"title": ["a"]}"#, #"{"title": {}}"#, #"{"title": {"en": 1}}"#, #"{"title": {"not a tag": "x"}}"#,
    ])
    func badShapesAreErrorsAtTheirKey(field: String) throws {
        let def = #"[{"sections": [{"id": "s", "fields": [{"id": "a", "type": "text", "# + String(field.dropFirst()) + "]}]}]"
        let errors = Engine.errors(def)
        #expect(errors.count == 1 && errors[0].message.contains("object of strings by language"), "\(errors.map(\.message))")
    }

    @Test func messagesQuoteTheLabelInTheirLanguage() throws {
        for (locale, name, rows) in [(SupportedLocale.en, "Name", "Rows"), (.nb, "Navn", "Rader"), (.es, "Nombre", "Rows")] {
            let r = try Engine.run(Self.definition, "{}", mode: .validate, locale: locale)
            let message = try #require(r.error("name", "required")?.objectValue?["message"]?.stringValue)
            #expect(message.contains(name), "\(locale): \(message)")
            let instances = try #require(r.error("rows", "min_instances")?.objectValue?["message"]?.stringValue)
            #expect(instances.contains(rows), "\(locale): \(instances)")
        }
        // A label given in German and English: Spanish falls back to English, not to the first.
        let es = try Engine.run(Self.definition, "{}", mode: .validate, locale: .es)
        #expect(es.error("size", "required")?.objectValue?["message"]?.stringValue?.contains("Size") == true)
    }

    @Test func variantsResolveEveryLocalizedKeyAndKeepTheRest() throws {
        let form = try Engine.load(Self.definition)
        #expect(form.title == "Order", "listings and clients that name no language read English")
        #expect(Set(form.localizedDefinitions.keys) == Set(SupportedLocale.allCases))
        let nb = try #require(form.localizedDefinitions[.nb])
        #expect(nb.version == String(form.version.dropLast()) + "-nb\"")
        #expect(form.isVersion(nb.version) && form.isVersion(form.version) && !form.isVersion("\"other-nb\""))
        let root = try JSONValue(parsing: nb.bytes)
        #expect(root["title"]?.stringValue == "Bestilling")
        let group = try #require(root["groups"]?.arrayValue?.first)
        #expect(group["title"]?.stringValue == "Gruppe")
        let field = try #require(group["sections"]?.arrayValue?.first?["fields"]?.arrayValue?.first)
        #expect(field["title"]?.stringValue == "Navn" && field["info"]?.stringValue == "Ditt navn")
        #expect(field["placeholder"]?.stringValue == "Kari" && field["validations"]?["required"] == .bool(true))
        let options = try #require(group["sections"]?.arrayValue?.first?["fields"]?.arrayValue?.last?["values"]?.arrayValue)
        #expect(options.map { $0["title"]?.stringValue } == ["Liten", "Large"])
        // The Spanish variant of a text without Spanish is English.
        let es = try JSONValue(parsing: try #require(form.localizedDefinitions[.es]).bytes)
        #expect(es["groups"]?.arrayValue?.first?["title"]?.stringValue == "Group")
        // A form without localized text has no variants: every client gets the file as written.
        #expect(try Engine.load(#"[{"title": "Plain", "sections": []}]"#).localizedDefinitions.isEmpty)
    }
}
