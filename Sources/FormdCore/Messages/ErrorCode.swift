/// The validation error codes of SEMANTICS §6, as they appear in responses (`rawValue`).
package enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    case required
    case type
    case minLength = "min_length"
    case maxLength = "max_length"
    case minValue = "min_value"
    case maxValue = "max_value"
    case format
    case compare
    case ssn
    case bankAccount = "bank_account"
    case postalCode = "postal_code"
    case minInstances = "min_instances"
    case maxInstances = "max_instances"
    case unstable
    /// A text formula whose result would exceed `EvaluationOptions.maxTextBytes`.
    case textTooLong = "text_too_long"
    /// A multiple choice with fewer / more chosen options than `min_selections` / `max_selections`.
    case minSelections = "min_selections"
    case maxSelections = "max_selections"
    /// An expression rule (`validations.rules`) that names no code of its own; rules with their
    /// own code carry it in `FormError.customCode`.
    case rule
    /// A remote validator said no (SEMANTICS §6.2); an answer with its own code carries it in
    /// `FormError.customCode`.
    case remote
    /// A warning: a remote validator could not be asked and its policy is `fail_open`.
    case remoteUnchecked = "remote_unchecked"

    /// Dense index, for the flat message tables.
    var index: Int {
        switch self {
        case .required: 0
        case .type: 1
        case .minLength: 2
        case .maxLength: 3
        case .minValue: 4
        case .maxValue: 5
        case .format: 6
        case .compare: 7
        case .ssn: 8
        case .bankAccount: 9
        case .postalCode: 10
        case .minInstances: 11
        case .maxInstances: 12
        case .unstable: 13
        case .textTooLong: 14
        case .minSelections: 15
        case .maxSelections: 16
        case .rule: 17
        case .remote: 18
        case .remoteUnchecked: 19
        }
    }

    static let count = 20

    /// `rawValue` as a constant of the program, which an answer copies without escaping it
    /// (a test holds the two equal).
    var name: StaticString {
        switch self {
        case .required: "required"
        case .type: "type"
        case .minLength: "min_length"
        case .maxLength: "max_length"
        case .minValue: "min_value"
        case .maxValue: "max_value"
        case .format: "format"
        case .compare: "compare"
        case .ssn: "ssn"
        case .bankAccount: "bank_account"
        case .postalCode: "postal_code"
        case .minInstances: "min_instances"
        case .maxInstances: "max_instances"
        case .unstable: "unstable"
        case .textTooLong: "text_too_long"
        case .minSelections: "min_selections"
        case .maxSelections: "max_selections"
        case .rule: "rule"
        case .remote: "remote"
        case .remoteUnchecked: "remote_unchecked"
        }
    }
}
