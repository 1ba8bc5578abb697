/// Message templates by (locale, code), compiled: one flat array, so a lookup is an index.
///
/// Used for the built-in catalogue and for the overrides of a form (`messages`) and of a field
/// (`validations.messages`), which are compiled from their JSON once, when the form is loaded.
package struct MessageTable: Sendable, Hashable {
    private var slots: [MessageTemplate?]

    /// An empty table.
    package init() {
        slots = Array(repeating: nil, count: SupportedLocale.allCases.count * ErrorCode.count)
    }

    /// A table from texts, e.g. `[.en: [.required: "{label} is required."]]`.
    package init(_ texts: [SupportedLocale: [ErrorCode: String]]) {
        self.init()
        for (locale, byCode) in texts {
            for (code, text) in byCode { self[code, locale] = MessageTemplate(text) }
        }
    }

    package subscript(code: ErrorCode, locale: SupportedLocale) -> MessageTemplate? {
        get { slots[locale.index * ErrorCode.count + code.index] }
        set { slots[locale.index * ErrorCode.count + code.index] = newValue }
    }

    package var isEmpty: Bool { !slots.contains { $0 != nil } }
}

/// A problem found while compiling message overrides. `path` is relative to the `messages`
/// object it was found in (e.g. `["min_length", "fr"]`). The loader decides whether it warns.
package struct MessageDiagnostic: Sendable, Hashable, CustomStringConvertible {
    package var path: [String]
    package var message: String

    package init(path: [String], message: String) {
        self.path = path
        self.message = message
    }

    package var description: String { path.isEmpty ? message : "\(path.joined(separator: ".")): \(message)" }
}

extension MessageTable {
    /// Compiles a field's `validations.messages`: `{code: "text"}` (every locale) or
    /// `{code: {"en": "text", "nb": "tekst"}}`. Returns nil when there is nothing to override.
    /// Unknown codes, unsupported locales and non-string texts are skipped and reported.
    package static func fieldOverrides(
        _ json: JSONValue?, diagnostics: inout [MessageDiagnostic]
    ) -> MessageTable? {
        guard let json, json != .null else { return nil }
        guard case .object(let byCode) = json else {
            diagnostics.append(MessageDiagnostic(path: [], message: "messages must be an object"))
            return nil
        }
        var table = MessageTable()
        for member in byCode.members {
            guard let code = ErrorCode(rawValue: member.key) else {
                diagnostics.append(MessageDiagnostic(path: [member.key], message: "unknown error code"))
                continue
            }
            switch member.value {
            case .string(let text):
                let template = MessageTemplate(text)
                for locale in SupportedLocale.allCases { table[code, locale] = template }
            case .object(let byLocale):
                for entry in byLocale.members {
                    compileEntry(entry, code: code, path: [member.key, entry.key], into: &table, &diagnostics)
                }
            default:
                diagnostics.append(MessageDiagnostic(
                    path: [member.key], message: "must be a string or an object of strings by locale"))
            }
        }
        return table.isEmpty ? nil : table
    }

    /// Compiles a form's top-level `messages`: `{"en": {code: "text"}, "nb": {...}}`.
    /// Returns nil when there is nothing to override.
    package static func formOverrides(
        _ json: JSONValue?, diagnostics: inout [MessageDiagnostic]
    ) -> MessageTable? {
        guard let json, json != .null else { return nil }
        guard case .object(let byLocale) = json else {
            diagnostics.append(MessageDiagnostic(path: [], message: "messages must be an object"))
            return nil
        }
        var table = MessageTable()
        for member in byLocale.members {
            guard let locale = SupportedLocale(rawValue: member.key) else {
                diagnostics.append(MessageDiagnostic(
                    path: [member.key], message: "unsupported locale (supported: en, nb, es)"))
                continue
            }
            guard case .object(let byCode) = member.value else {
                diagnostics.append(MessageDiagnostic(path: [member.key], message: "must be an object of strings by code"))
                continue
            }
            for entry in byCode.members {
                guard let code = ErrorCode(rawValue: entry.key) else {
                    diagnostics.append(MessageDiagnostic(path: [member.key, entry.key], message: "unknown error code"))
                    continue
                }
                guard case .string(let text) = entry.value else {
                    diagnostics.append(MessageDiagnostic(path: [member.key, entry.key], message: "must be a string"))
                    continue
                }
                table[code, locale] = MessageTemplate(text)
            }
        }
        return table.isEmpty ? nil : table
    }

    private static func compileEntry(
        _ entry: JSONObject.Member, code: ErrorCode, path: [String],
        into table: inout MessageTable, _ diagnostics: inout [MessageDiagnostic]
    ) {
        guard let locale = SupportedLocale(rawValue: entry.key) else {
            diagnostics.append(MessageDiagnostic(path: path, message: "unsupported locale (supported: en, nb, es)"))
            return
        }
        guard case .string(let text) = entry.value else {
            diagnostics.append(MessageDiagnostic(path: path, message: "must be a string"))
            return
        }
        table[code, locale] = MessageTemplate(text)
    }
}
