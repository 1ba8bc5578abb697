/// A text a definition may give once or per language: `"Name"`, or `{"en": "Name", "nb": "Navn"}`
/// (the keys are language tags, matched by their primary subtag as `Accept-Language` is).
package struct LocalizedText: Sendable, Hashable {
    package struct Translation: Sendable, Hashable {
        package let tag: String
        package let text: String
    }

    /// In document order; one entry with an empty tag for a plain string.
    package let translations: [Translation]

    /// The keys a definition may localize, wherever they appear (form, groups, sections, fields,
    /// options).
    package static let keys: Set<String> = ["title", "info", "placeholder", "accessibility_label", "action_title"]

    package init(_ text: String) { translations = [Translation(tag: "", text: text)] }

    init(translations: [Translation]) { self.translations = translations }

    /// Reads a plain string or a non-empty object of strings keyed by language tags; nil for any
    /// other shape.
    package init?(json: JSONValue) {
        switch json {
        case .string(let s): self.init(s)
        case .object(let o):
            var list: [Translation] = []
            for m in o.members {
                guard case .string(let s) = m.value, Self.isLanguageTag(m.key) else { return nil }
                list.append(Translation(tag: m.key, text: s))
            }
            guard !list.isEmpty else { return nil }
            self.init(translations: list)
        default: return nil
        }
    }

    package var isLocalized: Bool { translations.count > 1 || translations.first?.tag != "" }

    /// The text for clients that name no language: English's, else the first one given.
    package var text: String { resolved(for: .en) }

    /// The text for `locale`: its language's, else English's, else the first one given.
    package func resolved(for locale: SupportedLocale) -> String {
        if let t = translations.first(where: { SupportedLocale(tag: $0.tag) == locale }) { return t.text }
        if let t = translations.first(where: { SupportedLocale(tag: $0.tag) == .en }) { return t.text }
        return translations[0].text
    }

    /// `1*8ALPHA *("-" 1*8alphanum)`, the shape `Accept-Language` uses.
    static func isLanguageTag(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (1...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { p in
            (1...8).contains(p.count) && p.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
