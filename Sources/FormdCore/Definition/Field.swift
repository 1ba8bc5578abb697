/// A field (SEMANTICS §1, §2). Visual keys are not modelled one by one: they stay in `raw`, and the
/// definition is served from the file's own bytes.
package struct Field: Sendable, Hashable {
    package var id: String
    package var type: String?
    package var kind: FieldKind
    package var inputType: String?
    package var title: String?
    /// `title` as written, when it may be given per language (messages quote the reader's).
    package var localizedTitle: LocalizedText?
    package var hidden: Bool
    package var disabled: Bool
    /// The JSON `value` default, as written.
    package var value: JSONValue?
    package var options: [FieldOption]
    package var validations: Validations?
    package var formula: String?
    package var targets: [Target]
    /// `"secret": true`: validated, never echoed in an answer, a state token or a log line
    /// (password fields are secret whatever this says).
    package var secret: Bool = false
    /// `"warnings"`: the vocabulary of `validations`, reported in the answer's `warnings` list;
    /// never makes a submission invalid (SEMANTICS §6.1).
    package var warnings: Validations?
    /// `"validate_when_hidden": true`: the field's checks run while it is hidden (SEMANTICS §5.4).
    package var validateWhenHidden: Bool = false
    /// `"clear_when_hidden": true`: a value sent for the field while it is hidden is cleared:
    /// evaluate lists a `clear` action and `dropped` says `cleared` (SEMANTICS §5.4).
    package var clearWhenHidden: Bool = false
    /// The field's JSON object, kept verbatim.
    package var raw: JSONObject
    package var path: String

    package init(
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
    package var label: String { title ?? id }

    /// Whether the field's value is kept out of every answer: `password` fields and `"secret": true`.
    package var isSecret: Bool { secret || kind == .password }
}
