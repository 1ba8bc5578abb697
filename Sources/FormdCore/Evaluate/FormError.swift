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
    /// The message, as a text or as the template it is rendered from: most errors are written
    /// into an answer once, and rendering straight into the answer's buffer spares a `String`
    /// built per error (about 2,400 instructions each under callgrind, most of it allocation).
    package var text: MessageText
    /// The message in the request's locale.
    package var message: String {
        get { text.rendered(params: params) }
        set { text = .plain(newValue) }
    }
    /// PureForm's key for the failed validator (`PFValidationRequiredFailure`), on errors of
    /// PureForm inputs (SEMANTICS §12); nil otherwise.
    package var messageKey: String?
    /// The code of an expression rule that names its own (`code` is then `.rule`).
    package var customCode: String?

    package init(
        subject: Subject, code: ErrorCode, params: [(key: String, value: JSONValue)], message: String,
        messageKey: String? = nil, customCode: String? = nil
    ) {
        self.init(subject: subject, code: code, params: params, text: .plain(message), messageKey: messageKey, customCode: customCode)
    }

    package init(
        subject: Subject, code: ErrorCode, params: [(key: String, value: JSONValue)], text: MessageText,
        messageKey: String? = nil, customCode: String? = nil
    ) {
        self.subject = subject
        self.code = code
        self.params = params
        self.text = text
        self.messageKey = messageKey
        self.customCode = customCode
    }

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
