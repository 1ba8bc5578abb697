/// A field (static, or of a template) with everything evaluation needs, resolved at load.
///
/// Kept small on purpose (no copy of the parsed `Field`, validations boxed): evaluation visits
/// every spec several times per request, and on a 100,000-field form a fat object per field
/// made the working set outgrow the caches, so time grew faster than the form.
final class FieldSpec: Sendable {
    /// The id as written (with `:index` for template fields).
    let id: String
    let kind: FieldKind
    /// `nil` for fields outside templates.
    let template: Int?
    /// The static section index (for template fields: the dynamic section).
    let section: Int
    let coercer: ValueCoercer
    /// The coerced JSON `value`, else the first default option's id (SEMANTICS §3).
    let defaultValue: JSONValue?
    let options: [OptionSpec]
    /// True when the field has options: then only option targets apply (SEMANTICS §5.2).
    var hasOptions: Bool { !options.isEmpty }
    let targets: [TargetSpec]
    let formula: CompiledFormula?
    let validations: ValidationSpec?
    /// The field's `warnings` block, compiled (SEMANTICS §6.1); nil for almost every field.
    let warnings: WarningChecks?
    let idCheck: IDCheck?
    /// Any structural (show/hide/enable/disable) target on the field or its options.
    let hasStructuralTargets: Bool
    let hasValueTargets: Bool

    let holdsValue: Bool
    /// Never echoed: `password` fields and `"secret": true` (SEMANTICS §8).
    let isSecret: Bool
    /// `hidden` / `disabled` as defined, before any target ran.
    let baseHidden: Bool
    let baseDisabled: Bool
    /// `validate_when_hidden` / `clear_when_hidden` (SEMANTICS §5.4).
    let validateWhenHidden: Bool
    let clearWhenHidden: Bool
    /// The field's `title`, else its id (messages' `{label}`).
    let label: String
    /// The title per language, when the definition gives it so.
    let localizedLabel: LocalizedText?
    /// Where the field is in the definition (diagnostics).
    let path: String
    /// The `params` of its `type` error, made once (see `ErrorParams`).
    let typeErrorParams: ParamList

    init(
        field: Field, id: String, kind: FieldKind, template: Int?, section: Int, coercer: ValueCoercer,
        defaultValue: JSONValue?, options: [OptionSpec], targets: [TargetSpec], formula: CompiledFormula?,
        validations: ValidationSpec?, warnings: WarningChecks? = nil, idCheck: IDCheck?, hasStructuralTargets: Bool,
        hasValueTargets: Bool
    ) {
        self.warnings = warnings
        self.validateWhenHidden = field.validateWhenHidden
        self.clearWhenHidden = field.clearWhenHidden
        self.id = id
        self.baseHidden = field.hidden
        self.baseDisabled = field.disabled
        self.label = field.label
        self.localizedLabel = field.localizedTitle.flatMap { $0.isLocalized ? $0 : nil }
        self.path = field.path
        self.kind = kind
        self.template = template
        self.section = section
        self.coercer = coercer
        self.defaultValue = defaultValue
        self.options = options
        self.targets = targets
        self.formula = formula
        self.validations = validations
        self.idCheck = idCheck
        self.hasStructuralTargets = hasStructuralTargets
        self.hasValueTargets = hasValueTargets
        self.holdsValue = kind.holdsValue
        self.isSecret = field.isSecret
        typeErrorParams = ParamList(encoding: [("expected", .string(kind.expectedName))])
    }
}

final class OptionSpec: Sendable {
    let id: JSONValue?
    /// The numeric payload formulas use.
    let number: FormNumber?
    let targets: [TargetSpec]
    /// The option's `title` (else its id as text), for the `labels` of answers.
    let label: String
    let localizedLabel: LocalizedText?

    init(id: JSONValue?, number: FormNumber?, targets: [TargetSpec], label: String = "", localizedLabel: LocalizedText? = nil) {
        self.id = id
        self.number = number
        self.targets = targets
        self.label = label
        self.localizedLabel = localizedLabel
    }

    func label(for locale: SupportedLocale) -> String { localizedLabel?.resolved(for: locale) ?? label }
}

extension FieldSpec {
    /// This field's entry in `SlotMap.FieldSlot.flags`.
    var slotFlags: SlotMap.Flags {
        var f: SlotMap.Flags = []
        if holdsValue { f.insert(.holdsValue) }
        if formula != nil { f.insert(.hasFormula) }
        if hasOptions { f.insert(.hasOptions) }
        if hasStructuralTargets { f.insert(.hasStructuralTargets) }
        if baseHidden { f.insert(.baseHidden) }
        if baseDisabled { f.insert(.baseDisabled) }
        if defaultValue != nil { f.insert(.hasDefault) }
        if isSecret { f.insert(.secret) }
        if validateWhenHidden { f.insert(.validateWhenHidden) }
        if clearWhenHidden { f.insert(.clearWhenHidden) }
        return f
    }

    /// The option a canonical value chose. Canonical select values are option ids as typed, so
    /// plain equality finds it; numeric equality (`1` vs `1.0`) is the fallback.
    func option(for value: JSONValue) -> OptionSpec? {
        coercer.optionIndex(for: value).map { options[$0] }
    }
}

final class TargetSpec: Sendable {
    enum Destination: Sendable {
        case field(FieldRef)
        case section(SectionRef)
        /// Names nothing that exists, or the wrong kind of thing: does nothing (SEMANTICS §5.3).
        case nothing
    }

    let action: Target.Action
    /// The target's `target_value` (update targets).
    let targetValue: JSONValue?
    let destination: Destination
    let condition: CompiledCondition?
    /// The id as written, `:index` included; substituted per instance for output.
    let idText: String
    /// The `type` written in `actions` output.
    let typeText: String

    let isStructural: Bool

    init(
        target: Target, action: Target.Action, destination: Destination, condition: CompiledCondition?, idText: String,
        typeText: String
    ) {
        self.targetValue = target.targetValue
        self.action = action
        self.destination = destination
        self.condition = condition
        self.idText = idText
        self.typeText = typeText
        switch action {
        case .show, .hide, .enable, .disable: isStructural = true
        case .update, .clear: isStructural = false
        }
    }
}

/// A field's compiled `validations`; a class so that fields without checks stay small.
/// `PureFormRules` with their patterns compiled and `equal` held as the field's kind holds it.
struct CompiledPureFormRules: Sendable {
    let rules: PureFormRules
    let patterns: [(pattern: FormatPattern, source: String, messageKey: String)]
    let equal: JSONValue?
    let immediateCodes: Set<ErrorCode>
}

final class ValidationSpec: Sendable {
    let required: Bool
    let minLength: Int?
    let maxLength: Int?
    let minValue: (text: String, number: FormNumber)?
    let maxValue: (text: String, number: FormNumber)?
    let format: FormatPattern?
    let compareTo: FieldRef?
    let compareToText: String?
    let compareRule: Validations.CompareRule
    let minSelections: Int?
    let maxSelections: Int?
    let messageTable: MessageTable?
    /// A PureForm input's rules, compiled (SEMANTICS §12).
    let pureForm: CompiledPureFormRules?
    /// `"required": "<condition>"`: required while it holds (SEMANTICS §6).
    let requiredWhen: CompiledCondition?
    /// `rules`, in definition order (SEMANTICS §6).
    let rules: [CompiledRule]
    /// `"remote"`: the validator's name and where the definition names it (SEMANTICS §6.2).
    let remote: RemoteRuleReference?
    /// With `remote`: the field's `messages` as written (a remote code is known only per answer).
    let remoteMessages: JSONObject?
    /// The `params` of the errors these rules give, made once.
    let errorParams: ErrorParams

    init(
        required: Bool, minLength: Int?, maxLength: Int?, minValue: (text: String, number: FormNumber)?,
        maxValue: (text: String, number: FormNumber)?, format: FormatPattern?, compareTo: FieldRef?,
        compareToText: String?, compareRule: Validations.CompareRule, minSelections: Int? = nil,
        maxSelections: Int? = nil, messageTable: MessageTable?, pureForm: CompiledPureFormRules? = nil,
        requiredWhen: CompiledCondition? = nil, rules: [CompiledRule] = [], remote: RemoteRuleReference? = nil, remoteMessages: JSONObject? = nil
    ) {
        self.remote = remote
        self.remoteMessages = remoteMessages
        self.requiredWhen = requiredWhen
        self.rules = rules
        self.pureForm = pureForm
        self.minSelections = minSelections
        self.maxSelections = maxSelections
        self.required = required
        self.minLength = minLength
        self.maxLength = maxLength
        self.minValue = minValue
        self.maxValue = maxValue
        self.format = format
        self.compareTo = compareTo
        self.compareToText = compareToText
        self.compareRule = compareRule
        self.messageTable = messageTable
        errorParams = ErrorParams(
            minLength: minLength.map { ParamList(encoding: [("min", .int($0))]) },
            maxLength: maxLength.map { ParamList(encoding: [("max", .int($0))]) },
            minValue: minValue.map { ParamList(encoding: [("min", .number(JSONNumber(literal: $0.text)))]) },
            maxValue: maxValue.map { ParamList(encoding: [("max", .number(JSONNumber(literal: $0.text)))]) },
            minSelections: minSelections.map { ParamList(encoding: [("min", .int($0))]) },
            maxSelections: maxSelections.map { ParamList(encoding: [("max", .int($0))]) },
            format: format.map { ParamList(encoding: [("pattern", .string($0.source))]) },
            compare: compareToText.map { other in
                (other, compareRule.rawValue, ParamList(encoding: [("other", .string(other)), ("rule", .string(compareRule.rawValue))]))
            })
    }
}

/// The `params` of the errors a field's rules give, made when the form is compiled with their
/// JSON: they depend only on the definition, and an error then shares its list instead of
/// allocating one (an allocation and a deallocation per error, about 500 instructions). Nil
/// where the rule is absent.
struct ErrorParams: Sendable {
    let minLength: ParamList?
    let maxLength: ParamList?
    let minValue: ParamList?
    let maxValue: ParamList?
    let minSelections: ParamList?
    let maxSelections: ParamList?
    let format: ParamList?
    /// `compare_to` as written: the answer's `other` when it names a field outside templates
    /// (in a template it names the row's field, known per request).
    let compare: (other: String, rule: String, params: ParamList)?
}

/// One expression rule (`validations.rules` or `warnings.rules`), compiled: its condition and
/// its message per locale, with the overrides already resolved (SEMANTICS §6, §9).
final class CompiledRule: Sendable {
    let condition: CompiledCondition
    /// The code answers carry; `customCode` is nil when it is the built-in `rule`.
    let customCode: String?
    /// By `SupportedLocale.index`.
    let messages: [MessageTemplate]
    let source: String

    init(condition: CompiledCondition, code: String, messages: [MessageTemplate], source: String) {
        self.condition = condition
        self.customCode = code == ValidationRule.defaultCode ? nil : code
        self.messages = messages
        self.source = source
    }
}

/// A field's `warnings` block: the same checks as `validations`, read by the same code, reported
/// in `warnings` (SEMANTICS §6.1).
final class WarningChecks: Sendable {
    let rules: ValidationSpec
    let checks: FieldChecks
    let limits: ValueLimits?
    let compare: CompareCheck?

    init(rules: ValidationSpec, field: FieldSpec.Shape) {
        self.rules = rules
        limits = ValueLimits(rules: rules, hasOptions: field.hasOptions)
        checks = FieldChecks(rules: rules, shape: field, idCheck: false, limits: -1)
        compare = CompareCheck(rules: rules, kind: field.kind)
    }
}

extension FieldSpec {
    /// What the checks of a field depend on besides its rules.
    struct Shape {
        let kind: FieldKind
        let hasOptions: Bool
    }
}

struct SectionSpec: Sendable {
    let section: Section
    let id: String?
    /// Template index for dynamic sections.
    let template: Int?
    /// Static field indices of the section's own fields.
    let fields: Range<Int>
    let targets: [TargetSpec]
}

final class TemplateSpec: Sendable {
    let template: SectionTemplate
    let id: String
    /// Fields of one instance, ids with `:index`.
    let fields: [FieldSpec]
    /// Static section index of the dynamic section that uses it (nil when unused).
    let section: Int?
    /// Each attribute's id split around `:index`, to build instance ids quickly.
    let idParts: [(prefix: String, suffix: String)]
    /// Attribute ids (with `:index`) → attribute index.
    let attrIndex: [String: Int]

    init(
        template: SectionTemplate, id: String, fields: [FieldSpec], section: Int?,
        idParts: [(prefix: String, suffix: String)], attrIndex: [String: Int]
    ) {
        self.template = template
        self.id = id
        self.fields = fields
        self.section = section
        self.idParts = idParts
        self.attrIndex = attrIndex
    }

    func instanceFieldID(attr: Int, index: Int) -> String {
        let p = idParts[attr]
        return p.prefix + String(index) + p.suffix
    }
}

extension FieldSpec {
    /// `{label}` for messages in `locale`.
    func label(for locale: SupportedLocale) -> String { localizedLabel?.resolved(for: locale) ?? label }
}
