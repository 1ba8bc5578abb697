/// A field's `validations` object (SEMANTICS §6), with formd's `messages` overrides (SEMANTICS §9).
package struct Validations: Sendable, Hashable {
    package enum CompareRule: String, Sendable, Hashable, CaseIterable {
        case greater = ">", greaterOrEqual = ">=", less = "<", lessOrEqual = "<=", equal = "=="
    }

    package var required = false
    package var minLength: Int?
    package var maxLength: Int?
    /// Bounds as written (JSON number literals).
    package var minValue: JSONNumber?
    package var maxValue: JSONNumber?
    package var format: String?
    /// Bounds on the number of options a `multi_select` field has chosen.
    package var minSelections: Int?
    package var maxSelections: Int?
    package var compareTo: String?
    package var compareRule: CompareRule = .equal
    /// `{code: "text"}` or `{code: {"en": ..., "nb": ...}}`.
    package var messages: JSONObject?
    /// What a PureForm input's validators add (SEMANTICS §12); nil for Hyper fields.
    package var pureForm: PureFormRules?

    package init() {}
}
