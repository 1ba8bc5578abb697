/// What formd computed for one submission: the typed form of the server's validate and evaluate
/// answers (field for field the same content).
public struct FormState: Sendable, Equatable {
    /// How the state was computed.
    public enum Mode: Sendable, Equatable { case validate, evaluate }

    /// One field's flags. `isRequired` is true when the field has `validations.required` and is visible.
    public struct Field: Sendable, Equatable {
        /// The field id (`items[2].price` for a template instance field).
        public let id: String
        /// Neither the field nor its section is hidden.
        public let isVisible: Bool
        /// Not disabled (disabled fields are still validated and returned).
        public let isEnabled: Bool
        /// `validations.required` is set and the field is visible.
        public let isRequired: Bool
    }

    /// A section with an id (template instances included: `items[2]`).
    public struct Section: Sendable, Equatable {
        /// The section id.
        public let id: String
        /// Not hidden by a target.
        public let isVisible: Bool
    }

    /// A target that applied: value targets that ran, then the structural ones in force.
    public struct Action: Sendable, Equatable {
        /// The target's `action`.
        public enum Kind: String, Sendable, Equatable { case show, hide, enable, disable, update, clear }
        /// The field or section the target names.
        public let id: String
        /// `field` or `section`.
        public let type: String
        /// What the target does.
        public let action: Kind
        /// The value an `update` set (`null` when it cleared the field); nil for other actions.
        public let value: FormValue?
    }

    /// An error: on a field, on a section (instance counts), or on the whole form (`unstable`).
    public struct ValidationError: Sendable, Equatable {
        /// What the error is about.
        public enum Subject: Sendable, Equatable {
            case field(String)
            case section(String)
            case form
        }

        /// The field, section or form the error is about.
        public let subject: Subject
        /// `required`, `min_length`, `max_value`, `format`, `compare`, `type`, ... (SEMANTICS §6).
        public let code: String
        /// The message in the requested locale, with the form's overrides applied.
        public let message: String
        /// `min`, `max`, `pattern`, `other`, ... in output order.
        public let params: [(key: String, value: FormValue)]
        /// PureForm's key of the failed validator (`PFValidationRequiredFailure`), for errors of
        /// PureForm inputs; nil otherwise.
        public var messageKey: String? = nil

        /// The field's id, if the error is on a field.
        public var field: String? { if case .field(let id) = subject { id } else { nil } }
        /// The section's id, if the error is on a section (instance counts).
        public var section: String? { if case .section(let id) = subject { id } else { nil } }

        /// Equal when subject, code, message and params (in order) are.
        public static func == (a: ValidationError, b: ValidationError) -> Bool {
            a.subject == b.subject && a.code == b.code && a.message == b.message && a.messageKey == b.messageKey
                && a.params.map({ $0.key }) == b.params.map({ $0.key }) && a.params.map({ $0.value }) == b.params.map({ $0.value })
        }
    }

    /// A submitted key whose value is not in ``values`` as sent, and why (SEMANTICS §8).
    public struct Dropped: Sendable, Equatable {
        /// SEMANTICS §8: `unknown`, `not_input`, `hidden`, `computed`, `cleared`, `over_limit`.
        public enum Reason: String, Sendable, Equatable {
            case unknown, notInput = "not_input", hidden, computed, cleared, overLimit = "over_limit"
        }

        /// The submitted key.
        public let key: String
        /// The first reason that applies.
        public let reason: Reason
    }

    /// Whether this answers a validate or an evaluate.
    public let mode: Mode
    /// The form's id and its `version` (the definition's ETag).
    public let form: String
    /// The definition's strong ETag, quoted.
    public let version: String
    /// The canonical values: defaults applied, formulas computed, hidden and unknown keys
    /// removed, in definition order.
    public let values: FormValues
    /// For each multiple-choice field with a value, the titles of its chosen options in the
    /// request's locale, in the order of its value (present in answers of forms that have one).
    public let labels: [String: [String]]
    /// Every field (buttons and spacers included, template instances after their section), in
    /// definition order.
    public let fields: [Field]
    /// Every section with an id, in definition order.
    public let sections: [Section]
    /// The targets that applied (evaluate only; empty for validate).
    public let actions: [Action]
    /// Every error, in the order formd reports them (SEMANTICS §6).
    public let errors: [ValidationError]
    /// Submitted keys not returned as sent (SEMANTICS §8).
    public let dropped: [Dropped]
    /// Failures of the fields' `warnings` blocks (SEMANTICS §6.1), in the shape of ``errors``;
    /// they never make the state invalid.
    public let warnings: [ValidationError]
    /// Whether the form declares warnings (the answer then has a `warnings` list, maybe empty).
    let hasWarnings: Bool
    /// Fields whose remote rule (SEMANTICS §6.2) this state did not decide: their local checks
    /// passed and only the server can ask the validator. Always empty in a server's answer.
    public internal(set) var remotePending: [String] = []

    /// No errors: the submission is valid (what validate answers with 200).
    public var isValid: Bool { errors.isEmpty }

    /// The state of field `id`, if the form has it.
    public func field(_ id: String) -> Field? { fields.first { $0.id == id } }
    /// The state of section `id`, if the form has it.
    public func section(_ id: String) -> Section? { sections.first { $0.id == id } }
    /// The canonical value of field `id` (nil: no value, or not visible).
    public func value(_ id: String) -> FormValue? { values[id] }
    /// The errors of field `id`.
    public func errors(for id: String) -> [ValidationError] { errors.filter { $0.field == id } }
    /// The warnings of field `id`.
    public func warnings(for id: String) -> [ValidationError] { warnings.filter { $0.field == id } }

    /// Ids of the fields that are not visible, in definition order (validate's `hidden`).
    public var hidden: [String] { fields.filter { !$0.isVisible }.map({ $0.id }) }
    /// Ids of the disabled fields, in definition order (validate's `disabled`).
    public var disabled: [String] { fields.filter { !$0.isEnabled }.map({ $0.id }) }
}

extension FormState {
    init(_ e: borrowing Evaluation, form: Form, mode: Mode) {
        self.mode = mode
        self.form = form.id
        self.version = form.version
        var values = FormValues()
        var fields: [Field] = []
        fields.reserveCapacity(e.slotMap.fields.count)
        for s in e.slotMap.outputOrder {
            let visible = e.isVisible(s)
            let required = e.isRequired(s)
            fields.append(Field(id: e.slotMap.ids[s], isVisible: visible, isEnabled: !e.disabled[s], isRequired: required))
            guard e.nestedRows == nil, visible, !e.slotMap.fields[s].flags.contains(.secret) else { continue }
            // As the server writes them: the value as sent when the kind cannot hold it.
            if e.cells[s].origin != .stored {
                let m = Int(e.cells[s].member)
                if m >= 0 { values.append(e.slotMap.ids[s], e.submission.value(m)) }
            } else if let v = e.cells[s].stored {
                values.append(e.slotMap.ids[s], v)
            }
        }
        // Sections sent as rows come back as rows, as the server writes them.
        if let rows = e.nestedRows {
            for (id, v) in e.values(rows: rows) { values.append(id, v) }
        }
        self.values = values
        self.fields = fields
        var labels: [String: [String]] = [:]
        if e.plan.hasMultipleChoice {
            for s in e.slotMap.outputOrder { if let l = e.choiceLabels(s) { labels[e.slotMap.ids[s]] = l } }
        }
        self.labels = labels
        var sections: [Section] = []
        for o in e.slotMap.sectionOrder {
            let ss = Int(o)
            guard let id = e.slotMap.sections[ss].id else { continue }
            sections.append(Section(id: id, isVisible: !e.sectionHidden[ss]))
        }
        self.sections = sections
        self.actions = mode == .validate ? [] : (e.actions + e.structuralActions).map {
            Action(id: $0.id, type: $0.type, action: Action.Kind(rawValue: $0.action.rawValue) ?? .show,
                   value: $0.action == .update ? ($0.value ?? .null) : nil)
        } + e.hiddenClears.map { Action(id: $0, type: "field", action: .clear, value: nil) }
        func typed(_ err: FormError) -> ValidationError {
            let subject: ValidationError.Subject
            switch err.subject {
            case .field(let id): subject = .field(id)
            case .section(let id): subject = .section(id)
            case .form: subject = .form
            }
            return ValidationError(subject: subject, code: err.codeText, message: err.message, params: err.params, messageKey: err.messageKey)
        }
        self.errors = e.errors.map(typed)
        self.warnings = e.warnings.map(typed)
        self.hasWarnings = e.plan.hasWarnings
        self.remotePending = e.remoteQuestions.map { $0.field }
        self.dropped = e.dropped.map { Dropped(key: $0.field, reason: Dropped.Reason(rawValue: $0.reason.rawValue) ?? .unknown) }
    }
}
