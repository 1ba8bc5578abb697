/// Remote rules (`"validations": {"remote": "<name>"}`, SEMANTICS §6.2): checks only a service
/// can make ("this username is not taken"). The engine never calls anything. An answer made
/// without verdicts lists the questions it could not decide (`FormAnswer.remoteQuestions`): the
/// WebAssembly engine and an app evaluating offline report those fields as decided by the
/// server. The server asks its declared validators, then answers again with the verdicts.
///
/// ```swift
/// let first = form.validateAnswer(values)                // remoteQuestions: [username = "ola"]
/// let verdicts = RemoteVerdicts([first.remoteQuestions[0].field: .invalid(RemoteRejection(code: "taken"))])
/// let final = form.validateAnswer(values, remote: verdicts)  // errors: username/taken
/// ```
extension Form {
    /// Every remote rule of the definition, in definition order, with where it is named.
    public var remoteRules: [RemoteRuleReference] { loaded.plan.remoteRules }

    /// An error per remote rule whose validator is not in `declared` (the service's
    /// `validators.remote`): such a definition is not served.
    public func undeclaredRemoteValidators(declared: Set<String>) -> [Diagnostic] {
        remoteRules.filter { !declared.contains($0.validator) }.map { r in
            Diagnostic(
                .error, path: r.path,
                message: "remote validator \"\(r.validator)\" is not declared in the configuration (validators.remote)",
                line: r.line, column: r.column)
        }
    }
}

/// Where a definition names a remote validator.
public struct RemoteRuleReference: Sendable, Hashable {
    /// The validator's name (`validators.remote.<name>`).
    public let validator: String
    /// The field's id (a template field's own id, without an instance index).
    public let field: String
    /// The JSON path of the `remote` key, and its place in the file (1-based).
    public let path: String
    public let line: Int
    public let column: Int
}

/// A question an answer could not decide: is this field's value accepted by that validator?
public struct RemoteQuestion: Sendable, Hashable {
    /// The field's id as submitted (`items[1].code` in a template instance).
    public let field: String
    /// The validator's name.
    public let validator: String
    /// The field's value (coerced, canonical) as JSON text.
    public let value: String

    public init(field: String, validator: String, value: String) {
        self.field = field
        self.validator = validator
        self.value = value
    }
}

/// What a remote validator said of a field's value.
public enum RemoteVerdict: Sendable, Equatable {
    /// Accepted: no error.
    case valid
    /// Refused: an error with the validator's code and message.
    case invalid(RemoteRejection)
    /// Not asked or no usable answer, and the validator's policy lets the check pass
    /// (`fail_open`): a `remote_unchecked` warning.
    case unchecked
}

/// A refusal: `code` (else `remote`), `message` (else the built-in or the definition's
/// `messages.<code>` override), `params` (a JSON object's text, else none).
public struct RemoteRejection: Sendable, Equatable {
    public var code: String?
    public var message: String?
    public var params: String?

    public init(code: String? = nil, message: String? = nil, params: String? = nil) {
        self.code = code
        self.message = message
        self.params = params
    }
}

/// The verdicts for one submission, by field id (as in `RemoteQuestion.field`).
public struct RemoteVerdicts: Sendable {
    var byField: [String: RemoteVerdict]

    public init(_ byField: [String: RemoteVerdict] = [:]) { self.byField = byField }

    public subscript(field: String) -> RemoteVerdict? {
        get { byField[field] }
        set { byField[field] = newValue }
    }

    public var isEmpty: Bool { byField.isEmpty }
}
