/// One validation error of a state (SEMANTICS §6).
@_spi(Engine) public struct FormError: Sendable, Hashable {
    public enum Subject: Sendable, Hashable {
        case field(String)
        case section(String)
        case form
    }

    /// Params in output order; values are JSON.
    public var subject: Subject
    public var code: ErrorCode
    public var params: [(key: String, value: JSONValue)]
    public var message: String
    /// PureForm's key for the failed validator (`PFValidationRequiredFailure`), on errors of
    /// PureForm inputs (SEMANTICS §12); nil otherwise.
    public var messageKey: String?

    public static func == (a: FormError, b: FormError) -> Bool {
        a.subject == b.subject && a.code == b.code && a.message == b.message
            && a.params.map(\.key) == b.params.map(\.key) && a.params.map(\.value) == b.params.map(\.value)
    }

    public func hash(into h: inout Hasher) {
        h.combine(subject)
        h.combine(code)
        h.combine(message)
    }
}
