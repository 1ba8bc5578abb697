/// What a PureForm input's `<validators>` add to formd's own checks (SEMANTICS §12): equality
/// with a constant, regular expressions matched in full and case-sensitively, which rules run
/// immediately (`!`), the message key of each code, and the form's opt-in quirks.
package struct PureFormRules: Sendable, Hashable {
    /// PureForm behaviours a form may ask for by name (`"<formd>": {"quirks": [...]}`); formd's
    /// stricter reading is the default.
    package enum Quirk: String, Sendable, Hashable, CaseIterable {
        /// Only the first failing rule of a field is reported, in the order written.
        case firstFailureOnly = "first_failure_only"
        /// `type: full_name` accepts lower-case ASCII only, as PureForm's pattern did.
        case lowercaseFullName = "lowercase_full_name"
        /// `required` on a switch accepts `false` (formd: a required switch must be on).
        case falsePassesRequired = "false_passes_required"
        /// `required` requires whatever its operand (`"required": false` too).
        case requiredIgnoresOperand = "required_ignores_operand"
        /// `min_value` / `max_value` ignore text fields' values (PureForm's text fields held strings).
        case stringsSkipValueBounds = "strings_skip_value_bounds"
        /// `equal_next` / `equal_previous` fail when either side is empty (two empty fields differ).
        case emptyValuesDiffer = "empty_values_differ"
    }

    /// One rule as written, in order: its code, whether it runs on change (`!`), and its key.
    package struct Rule: Sendable, Hashable {
        package var code: ErrorCode
        package var immediate: Bool
        package var messageKey: String
    }

    package var rules: [Rule] = []
    /// `equal`: the constant the value must equal (as the field's kind holds it).
    package var equal: JSONValue?
    /// `type` / `custom` patterns: the regex as written (for `params.pattern`) and its key.
    package var patterns: [(source: String, fullName: Bool, messageKey: String)] = []
    package var quirks: Set<Quirk> = []
    /// `required` on a switch: it must be on (unless `false_passes_required`).
    package var requireTrue = false
    /// Where the field's neighbour is, for `equal_next` / `equal_previous` errors.
    package var compareKey: String?

    package init() {}

    package static func == (a: PureFormRules, b: PureFormRules) -> Bool {
        a.rules == b.rules && a.equal == b.equal && a.patterns.map({ $0.source }) == b.patterns.map({ $0.source })
            && a.quirks == b.quirks && a.compareKey == b.compareKey
    }

    package func hash(into h: inout Hasher) {
        h.combine(rules)
        h.combine(equal)
        h.combine(patterns.map({ $0.source }))
    }

    /// PureForm's message key for an error `code` of this field (the first rule with that code).
    func messageKey(for code: ErrorCode) -> String? { rules.first { $0.code == code }?.messageKey }

    /// The codes evaluate reports for a changed field: those of its immediate rules.
    var immediateCodes: Set<ErrorCode> { Set(rules.filter({ $0.immediate }).map({ $0.code })) }

    /// PureForm's e-mail pattern, with a top-level domain of two letters or more (PureForm's
    /// stopped at four, which refuses `.museum` and `.info`-length domains of today).
    static let emailPattern = #"[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#
    /// Two or more words of letters, `-` and `'` inside words, single spaces between them.
    static let fullNamePattern = #"\p{L}+(?:[-'’]\p{L}+)*(?: \p{L}+(?:[-'’]\p{L}+)*)+"#
    /// PureForm's own: lower-case ASCII only (`lowercase_full_name`).
    static let lowercaseFullNamePattern = #"[a-z]([-']?[a-z]+)*( [a-z]([-']?[a-z]+)*)+"#

    /// The ICU source formd compiles for a pattern matched in full and case-sensitively.
    static func fullMatch(_ source: String) -> String { #"(?-i)\A(?:"# + source + #")\z"# }

    /// `source` compiled to match in full. The source is compiled on its own first: wrapped
    /// unchecked, an unbalanced source such as `[0-9]{4})|(?:.*` closes the wrapper's group
    /// itself and matches anything. Only a source that is a whole expression is wrapped.
    static func compileFullMatch(_ source: String) throws(FormatPatternError) -> FormatPattern {
        _ = try FormatPattern.interned(source)
        return try FormatPattern.interned(fullMatch(source))
    }
}
