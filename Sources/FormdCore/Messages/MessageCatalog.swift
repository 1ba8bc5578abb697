/// Resolves the message of an error (SEMANTICS §9). First match wins:
///
/// 1. the field's `validations.messages[code]` for the locale (a plain string counts for every
///    locale; an object without the locale does not fall back to its own `en`),
/// 2. the form's `messages[locale][code]`,
/// 3. this catalogue for the locale,
/// 4. the form's `messages.en[code]`,
/// 5. this catalogue's English.
///
/// Overrides are `MessageTable`s compiled when the form is loaded; resolution is a handful of
/// array lookups and rendering is appends.
package struct MessageCatalog: Sendable {
    package let table: MessageTable

    /// The catalogue formd ships: `en`, `nb`, `es`, every code.
    package static let builtIn = MessageCatalog(MessageTable(BuiltInMessages.texts))

    package init(_ table: MessageTable) { self.table = table }

    /// The template that applies, or nil only when this catalogue lacks the code in English too
    /// (never for `builtIn`).
    package func template(
        for code: ErrorCode, locale: SupportedLocale, field: MessageTable? = nil, form: MessageTable? = nil
    ) -> MessageTemplate? {
        if let t = field?[code, locale] { return t }
        if let t = form?[code, locale] { return t }
        if let t = table[code, locale] { return t }
        if let t = form?[code, .en] { return t }
        return table[code, .en]
    }

    /// The rendered message. `label` is the field's title, else its id (for `min_instances` /
    /// `max_instances` the section's); `params` are the rule's params as text (`min`, `max`,
    /// `pattern`, `other`, `rule`, `expected`, `fields`).
    package func message(
        for code: ErrorCode, locale: SupportedLocale, field: MessageTable? = nil, form: MessageTable? = nil,
        label: String, params: [(name: String, text: String)] = []
    ) -> String {
        guard let template = template(for: code, locale: locale, field: field, form: form) else {
            return code.rawValue
        }
        return template.render(label: label, params: params, locale: locale)
    }

    /// The same from the raw JSON overrides. This compiles them on every call: an engine should
    /// compile them once with `MessageTable.fieldOverrides` / `formOverrides` and use the above.
    package func message(
        for code: ErrorCode, locale: SupportedLocale, fieldMessages: JSONValue?, formMessages: JSONValue?,
        label: String, params: [(name: String, text: String)] = []
    ) -> String {
        var ignored: [MessageDiagnostic] = []
        let field = MessageTable.fieldOverrides(fieldMessages, diagnostics: &ignored)
        let form = MessageTable.formOverrides(formMessages, diagnostics: &ignored)
        return message(for: code, locale: locale, field: field, form: form, label: label, params: params)
    }
}
