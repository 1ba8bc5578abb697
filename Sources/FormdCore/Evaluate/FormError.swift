/// One validation error of a state (SEMANTICS §6).
package struct FormError: Sendable, Hashable {
    package enum Subject: Sendable, Hashable {
        case field(String)
        case section(String)
        case form
    }

    /// Params in output order; values are JSON.
    package var subject: Subject
    package var code: ErrorCode
    package var params: [(key: String, value: JSONValue)]
    package var message: String
    /// PureForm's key for the failed validator (`PFValidationRequiredFailure`), on errors of
    /// PureForm inputs (SEMANTICS §12); nil otherwise.
    package var messageKey: String?
    /// The code of an expression rule that names its own (`code` is then `.rule`).
    package var customCode: String?

    /// The code answers carry.
    package var codeText: String { customCode ?? code.rawValue }

    package static func == (a: FormError, b: FormError) -> Bool {
        a.subject == b.subject && a.code == b.code && a.customCode == b.customCode && a.message == b.message
            && a.params.map({ $0.key }) == b.params.map({ $0.key }) && a.params.map({ $0.value }) == b.params.map({ $0.value })
    }

    package func hash(into h: inout Hasher) {
        h.combine(subject)
        h.combine(code)
        h.combine(message)
    }
}
