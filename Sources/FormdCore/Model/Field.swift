/// A field (SEMANTICS §1, §2). Visual keys are not modelled one by one: they stay in `raw`, and the
/// definition is served from the file's own bytes.
@_spi(Engine) public struct Field: Sendable, Hashable {
    public var id: String
    public var type: String?
    public var kind: FieldKind
    public var inputType: String?
    public var title: String?
    /// `title` as written, when it may be given per language (messages quote the reader's).
    public var localizedTitle: LocalizedText?
    public var hidden: Bool
    public var disabled: Bool
    /// The JSON `value` default, as written.
    public var value: JSONValue?
    public var options: [FieldOption]
    public var validations: Validations?
    public var formula: String?
    public var targets: [Target]
    /// `"secret": true`: validated, never echoed in an answer, a state token or a log line
    /// (password fields are secret whatever this says).
    public var secret: Bool = false
    /// The field's JSON object, kept verbatim.
    public var raw: JSONObject
    public var path: String

    public init(
        id: String, type: String?, inputType: String?, title: String?, hidden: Bool, disabled: Bool,
        value: JSONValue?, options: [FieldOption], validations: Validations?, formula: String?,
        targets: [Target], raw: JSONObject, path: String
    ) {
        self.id = id
        self.type = type
        self.kind = FieldKind(type: type)
        self.inputType = inputType
        self.title = title
        self.hidden = hidden
        self.disabled = disabled
        self.value = value
        self.options = options
        self.validations = validations
        self.formula = formula
        self.targets = targets
        self.raw = raw
        self.path = path
    }

    /// The label used in messages: the title, else the id (SEMANTICS §9).
    public var label: String { title ?? id }

    /// Whether the field's value is kept out of every answer: `password` fields and `"secret": true`.
    public var isSecret: Bool { secret || kind == .password }
}
