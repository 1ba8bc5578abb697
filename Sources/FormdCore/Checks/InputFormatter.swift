/// The original's formatters, applied in reverse to submitted text (SEMANTICS §2):
/// they strip the separators a formatted display adds. Chosen by the last `.`-separated part of
/// the field id, then by the field's `type`.
///
/// (Named `InputFormatter` rather than `Formatter`, which is a Foundation class.) Only U+0020
/// spaces are removed, as the original does; `float`'s `,` is handled by its coercion instead.
package enum InputFormatter: String, Sendable, Hashable, CaseIterable {
    case phoneNumber = "phone_number"
    case socialSecurityNumber = "social_security_number"
    case bankAccountNumber = "bank_account_number"
    case email

    /// The formatter of a field, if any: by the id's last `.`-part, then by `type`.
    package static func forField(id: String, type: String?) -> InputFormatter? {
        if let f = InputFormatter(rawValue: lastDotPart(id)) { return f }
        if let type { return InputFormatter(rawValue: type) }
        return nil
    }

    /// `value` with this formatter's separators removed.
    package func normalise(_ value: String) -> String {
        let removed = removedByte
        // Common case: nothing to remove, no new string.
        guard value.utf8.contains(removed) else { return value }
        // Removing an ASCII byte from valid UTF-8 leaves valid UTF-8.
        return String(decoding: value.utf8.filter { $0 != removed }, as: UTF8.self)
    }

    /// The separator this formatter removes.
    package var removedByte: UInt8 {
        switch self {
        case .phoneNumber, .socialSecurityNumber: UInt8(ascii: " ")
        case .bankAccountNumber: UInt8(ascii: ".")
        case .email: UInt8(ascii: ",")
        }
    }

    /// Normalises a submitted string for the field `fieldID` of type `type`.
    package static func normalise(_ value: String, fieldID: String, type: String?) -> String {
        forField(id: fieldID, type: type)?.normalise(value) ?? value
    }

    /// `contact.phone_number` → `phone_number`; `companies[0].phone_number` → `phone_number`.
    static func lastDotPart(_ id: String) -> Substring {
        guard let dot = id.utf8.lastIndex(of: UInt8(ascii: ".")) else { return id[...] }
        return id[id.utf8.index(after: dot)...]
    }
}

extension InputFormatter {
    init?(rawValue: Substring) {
        switch rawValue {
        case "phone_number": self = .phoneNumber
        case "social_security_number": self = .socialSecurityNumber
        case "bank_account_number": self = .bankAccountNumber
        case "email": self = .email
        default: return nil
        }
    }
}
