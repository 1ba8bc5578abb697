/// What a form says about itself: the definition as served (per language when it has text per
/// language), its submission schema, its ids and versions. The server's `GET` answers come from here.
extension Form {
    /// Form ids: `[A-Za-z0-9][A-Za-z0-9_-]{0,127}` (a definition file's name without `.json`).
    public static func isValidID(_ id: String) -> Bool { FormLoader.isValidID(id) }

    /// Whether some text of the definition is given per language: then `definitionJSON(for:)`
    /// differs by locale, and answers to `GET` vary by `Accept-Language`.
    public var isLocalized: Bool { !loaded.localizedDefinitions.isEmpty }

    /// The definition resolved for `locale` (every per-language text replaced by that language's,
    /// with fallbacks) and its own version, or nil when the form has no per-language text.
    public func definitionJSON(for locale: SupportedLocale) -> (json: [UInt8], version: String)? {
        loaded.localizedDefinitions[locale].map { ($0.bytes, $0.version) }
    }

    /// The definition in the Hyper object shape, for renderers that draw one shape: a PureForm
    /// definition read as formd reads it (one field per input, `section-N` sections), with its own
    /// version; nil when the definition is Hyper already (`definitionJSON` is that shape).
    public var hyperDefinitionJSON: (json: [UInt8], version: String)? {
        loaded.hyperDefinition.map { ($0.bytes, $0.version) }
    }

    /// Whether an `If-Match` tag names this version: the form's own, or one of its per-language
    /// variants' (they pin the same definition).
    public func isVersion(_ tag: String) -> Bool { loaded.isVersion(tag) }

    /// The versions that pin this definition: its own, then its per-language variants'.
    public var versions: [String] {
        [loaded.version] + (loaded.hyperDefinition.map { [$0.version] } ?? []) + loaded.localizedDefinitions.values.map({ $0.version }).sorted()
    }

    /// Fields that hold a value (not buttons or spacers), template fields counted once.
    public var valueFieldCount: Int { loaded.plan.valueFieldCount }

    /// The JSON Schema (2020-12) of this form's canonical submission (API reference §4.1): one
    /// plain type per field, repeating sections as arrays of rows. What code generators use.
    public var submissionSchema: FormValue { SubmissionSchema(form: loaded).json }

    /// The lenient variant (`?lenient=1`): every submission formd can accept as valid validates
    /// against it (other spellings, blank strings, flat instance keys): never stricter than formd.
    public var lenientSubmissionSchema: FormValue { SubmissionSchema(form: loaded, lenient: true).json }
}
