/// The Norwegian checks chosen by a field id's last `.`-part (SEMANTICS §6): run only when the
/// field has a value.
package enum IDCheck: Sendable, Hashable, CaseIterable {
    case ssn
    case bankAccount
    case postalCode

    /// `person.social_security_number` → `.ssn`; `my_postal_code` → nil.
    package static func forField(id: String) -> IDCheck? {
        switch InputFormatter.lastDotPart(id) {
        case "social_security_number": .ssn
        case "bank_account_number": .bankAccount
        case "postal_code": .postalCode
        default: nil
        }
    }

    package var errorCode: ErrorCode {
        switch self {
        case .ssn: .ssn
        case .bankAccount: .bankAccount
        case .postalCode: .postalCode
        }
    }

    /// Whether `value` passes. Postal codes pass when there is no table (no table, no check).
    package func isValid(_ value: String, postalCodes: PostalCodeTable?) -> Bool {
        switch self {
        case .ssn: NorwegianSSN.isValid(value)
        case .bankAccount: NorwegianBankAccount.isValid(value)
        case .postalCode: postalCodes?.contains(value) ?? true
        }
    }
}
