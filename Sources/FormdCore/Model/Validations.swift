/// A field's `validations` object (SEMANTICS §6), with formd's `messages` overrides (SEMANTICS §9).
@_spi(Engine) public struct Validations: Sendable, Hashable {
    public enum CompareRule: String, Sendable, Hashable, CaseIterable {
        case greater = ">", greaterOrEqual = ">=", less = "<", lessOrEqual = "<=", equal = "=="
    }

    public var required = false
    public var minLength: Int?
    public var maxLength: Int?
    /// Bounds as written (JSON number literals).
    public var minValue: JSONNumber?
    public var maxValue: JSONNumber?
    public var format: String?
    /// Bounds on the number of options a `multi_select` field has chosen.
    public var minSelections: Int?
    public var maxSelections: Int?
    public var compareTo: String?
    public var compareRule: CompareRule = .equal
    /// `{code: "text"}` or `{code: {"en": ..., "nb": ...}}`.
    public var messages: JSONObject?
    /// What a PureForm input's validators add (SEMANTICS §12); nil for Hyper fields.
    public var pureForm: PureFormRules?

    public init() {}
}
