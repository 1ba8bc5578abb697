/// A field's `validations` object (SEMANTICS §6), with formd's `messages` overrides (SEMANTICS §9).
package struct Validations: Sendable, Hashable {
    package enum CompareRule: String, Sendable, Hashable, CaseIterable {
        case greater = ">", greaterOrEqual = ">=", less = "<", lessOrEqual = "<=", equal = "=="
    }

    /// `"required": true` (a condition string sets `requiredWhen` instead; SEMANTICS §6).
    package var required = false
    /// `"required": "<condition>"`: required while the condition holds (SEMANTICS §6).
    package var requiredWhen: String?
    /// `"rules"`: expression rules, checked after the field's own checks (SEMANTICS §6).
    package var rules: [ValidationRule] = []
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
    /// `"remote": "<name>"`: a remote validator the service declares (`validators.remote.<name>`),
    /// asked after the field's local checks pass (SEMANTICS §6.2). The engine never calls it.
    package var remote: String?

    package init() {}

    /// Remote validator names (`validators.remote.<name>`): a letter, then up to 63 letters,
    /// digits, `_` or `-`.
    package static func isValidRemoteName(_ name: String) -> Bool {
        let u = Array(name.utf8)
        guard (1...64).contains(u.count), let f = u.first, (f | 0x20) >= 97 && (f | 0x20) <= 122 else { return false }
        return u.allSatisfy { b in (b | 0x20) >= 97 && (b | 0x20) <= 122 || (b >= 48 && b <= 57) || b == 95 || b == 45 }
    }

    /// Whether the block asks for anything at all (`rules` included).
    package var isEmpty: Bool { self == Validations() }
}

/// One entry of `validations.rules` (or `warnings.rules`): a condition that must hold.
package struct ValidationRule: Sendable, Hashable {
    package var condition: String
    /// The error code answers carry; `rule` when the definition gives none.
    package var code: String
    /// The rule's own message: a string, or an object of strings by language.
    package var message: LocalizedText?
    /// `....validations.rules[i]`, for diagnostics.
    package var path: String

    /// The code of a rule that names none.
    package static let defaultCode = "rule"

    /// A letter, then up to 63 letters, digits, `_`, `.` or `-`.
    package static func isValidCode(_ c: String) -> Bool {
        let u = Array(c.utf8)
        guard (1...64).contains(u.count), let f = u.first, (f | 0x20) >= 97 && (f | 0x20) <= 122 else { return false }
        return u.allSatisfy { b in
            (b | 0x20) >= 97 && (b | 0x20) <= 122 || (b >= 48 && b <= 57) || b == 95 || b == 46 || b == 45
        }
    }

    package init(condition: String, code: String, message: LocalizedText?, path: String) {
        self.condition = condition
        self.code = code
        self.message = message
        self.path = path
    }
}
