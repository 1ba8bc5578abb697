/// A definition with every text given per language resolved for one locale: what
/// `GET /forms/{id}` serves a client that names its language.
package struct LocalizedDefinition: Sendable {
    package let bytes: [UInt8]
    /// The form's version with the locale (`"3f2a…-nb"`), so that each variant revalidates on its
    /// own and `If-Match` with it pins the form's version.
    package let version: String

    /// `root` with each `LocalizedText.keys` value that is an object of translations replaced by
    /// the text for `locale`.
    static func resolve(_ value: JSONValue, for locale: SupportedLocale) -> JSONValue {
        switch value {
        case .object(let o):
            var out = JSONObject()
            for m in o.members {
                if LocalizedText.keys.contains(m.key), case .object = m.value, let text = LocalizedText(json: m.value) {
                    out.append(m.key, .string(text.resolved(for: locale)))
                } else {
                    out.append(m.key, resolve(m.value, for: locale))
                }
            }
            return .object(out)
        case .array(let items): return .array(items.map { resolve($0, for: locale) })
        default: return value
        }
    }

    static func version(_ version: String, _ locale: SupportedLocale) -> String {
        String(version.dropLast()) + "-" + locale.rawValue + "\""
    }
}
