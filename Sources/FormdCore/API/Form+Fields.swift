/// What each field of a form is, for comparing two versions of a form (the server's `changed_since`
/// and `formd publish`'s breaking-change lint). Additive: nothing else in the engine uses it.
public struct FormFieldSummary: Sendable, Equatable {
    /// The field id (template fields as written, `items[:index].price`).
    public let id: String
    /// The `type` as written (`text`, `select`, ...; nil when absent).
    public let type: String?
    /// Whether the field holds a value (not a `button` or `spacer`).
    public let holdsValue: Bool
    /// `validations.required`.
    public let isRequired: Bool
    /// Has a `value`, a default option or a `formula`: a submission without it still gets one.
    public let hasDefault: Bool
    /// The option ids (as JSON text: `"a"`, `1`, `true`) with their titles (per-language titles as `tag=text` joined).
    public let options: [Option]
    /// The field's JSON object as written: two versions of a field differ when these do.
    public let definition: [UInt8]
    /// Where it is in the definition (`groups[0].sections[1].fields[2]`).
    public let path: String

    public struct Option: Sendable, Equatable {
        public let id: String
        public let title: String
    }
}

extension Form {
    /// Every field (section fields, then template fields), in definition order.
    public var fieldSummaries: [FormFieldSummary] {
        let definition = loaded.plan.definition
        var out: [FormFieldSummary] = []
        func add(_ f: Field) {
            let hasValue = f.value.map { !$0.isNull && $0 != .string("") } ?? false
            let options = f.options.map { o in
                FormFieldSummary.Option(
                    id: o.id.map { String(decoding: JSONWriter.encode($0), as: UTF8.self) } ?? "null",
                    title: o.localizedTitle.map { t in t.translations.map { "\($0.tag)=\($0.text)" }.joined(separator: "\u{1F}") }
                        ?? o.title ?? "")
            }
            out.append(
                FormFieldSummary(
                    id: f.id, type: f.type, holdsValue: f.kind.holdsValue, isRequired: f.validations?.required == true,
                    hasDefault: hasValue || f.formula != nil || f.options.contains { $0.isDefault }, options: options,
                    definition: JSONWriter.encode(.object(f.raw)), path: f.path))
        }
        for g in definition.groups { for s in g.sections { for f in s.fields { add(f) } } }
        for t in definition.templates { for f in t.fields { add(f) } }
        return out
    }
}
