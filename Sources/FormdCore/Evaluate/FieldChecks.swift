/// What validation reads for every field holding a value, copied out of `FieldSpec` and
/// `ValidationSpec` into one contiguous array per plan (`FormPlan.checks`).
///
/// Validation visits every visible field once per request. Reading these through the spec
/// objects cost a cache miss per object on forms too large for the caches (time grew about
/// twice as fast as the form); a slot's checks are now one sequential read, and the spec objects
/// are visited only for the rare checks (`format`, `compare_to`, id checks) and to write errors.
struct FieldChecks: Sendable {
    struct Flags: OptionSet, Sendable {
        let rawValue: UInt16
        static let required = Flags(rawValue: 1)
        /// `min_length` / `max_length` / `format` apply: no options, not a switch.
        static let textChecks = Flags(rawValue: 2)
        /// `min_value` or `max_value` is set and the field has no options.
        static let numericChecks = Flags(rawValue: 4)
        /// `format` or an id check: read from the spec.
        static let rare = Flags(rawValue: 8)
        /// `compare_to`: read from `FormPlan.compares`.
        static let compare = Flags(rawValue: 16)
        /// A PureForm input's rules (SEMANTICS §12): read from the spec.
        static let pureForm = Flags(rawValue: 32)
        /// `"required": "<condition>"`: read from the spec.
        static let conditionalRequired = Flags(rawValue: 64)
        /// Expression rules: read from the spec, after the other checks.
        static let rules = Flags(rawValue: 128)
        /// A `warnings` block: read from the spec (`FieldSpec.warnings`).
        static let warnings = Flags(rawValue: 256)
        /// `"remote"`: after the local checks pass, the caller's verdict (SEMANTICS §6.2).
        static let remote = Flags(rawValue: 512)
        /// `format` (with `rare`): the pattern is read from `FormPlan.formats`, not the spec.
        static let format = Flags(rawValue: 1024)
        /// An id check or selection counts (with `rare`): read from the spec.
        static let idOrSelections = Flags(rawValue: 2048)
    }

    private(set) var flags: Flags
    /// `min_length`, 0 when unset (no length is below it); clamped to 32 bits (errors report
    /// the definition's value).
    let minLength: Int32
    /// `max_length`, `Int32.max` when unset; clamped to 32 bits (no string is that long).
    let maxLength: Int32
    /// With `numericChecks`: the index of the field's `ValueLimits` in `FormPlan.valueLimits`.
    let limits: Int32

    /// 12 bytes: validation reads one per field, and a 100,000-field form's checks stream
    /// through the caches on every request.
    init(_ spec: FieldSpec, limits: Int32) {
        self.init(
            rules: spec.validations, shape: FieldSpec.Shape(kind: spec.kind, hasOptions: spec.hasOptions),
            idCheck: spec.idCheck != nil, limits: limits)
        if spec.warnings != nil { flags.insert(.warnings) }
    }

    /// The checks of `rules` (a field's `validations` or its `warnings`).
    init(rules: ValidationSpec?, shape spec: FieldSpec.Shape, idCheck: Bool, limits: Int32) {
        var f: Flags = []
        if rules?.required == true { f.insert(.required) }
        if !spec.hasOptions && spec.kind != .switch { f.insert(.textChecks) }
        if !spec.hasOptions, rules?.minValue != nil || rules?.maxValue != nil { f.insert(.numericChecks) }
        if rules?.format != nil { f.insert([.rare, .format]) }
        if idCheck || rules?.minSelections != nil || rules?.maxSelections != nil { f.insert([.rare, .idOrSelections]) }
        if rules?.pureForm != nil { f.insert([.rare, .pureForm]) }
        if rules?.compareTo != nil { f.insert(.compare) }
        if rules?.remote != nil { f.insert(.remote) }
        if rules?.requiredWhen != nil { f.insert(.conditionalRequired) }
        if rules?.rules.isEmpty == false { f.insert(.rules) }
        flags = f
        minLength = Int32(clamping: rules?.minLength ?? 0)
        maxLength = Int32(clamping: rules?.maxLength ?? Int(Int32.max))
        self.limits = limits
    }
}

/// `min_value` / `max_value` of a field, in one array per plan for the fields that have them.
struct ValueLimits: Sendable {
    let min: FormNumber?
    let max: FormNumber?

    /// The limits of `spec` when it has any and they apply (a field without options).
    init?(_ spec: FieldSpec) { self.init(rules: spec.validations, hasOptions: spec.hasOptions) }

    init?(rules: ValidationSpec?, hasOptions: Bool) {
        guard !hasOptions, let rules, rules.minValue != nil || rules.maxValue != nil else {
            return nil
        }
        min = rules.minValue?.number
        max = rules.maxValue?.number
    }
}

/// A field's `compare_to` check, in its own table (`FormPlan.compares`): one field in ten has
/// one in typical forms, and reading it from the spec cost two cache misses on large forms.
struct CompareCheck: Sendable {
    let other: FieldRef
    let rule: Validations.CompareRule
    let kind: FieldKind

    init?(_ spec: FieldSpec) { self.init(rules: spec.validations, kind: spec.kind) }

    init?(rules: ValidationSpec?, kind: FieldKind) {
        guard let rules, let other = rules.compareTo else { return nil }
        self.other = other
        rule = rules.compareRule
        self.kind = kind
    }
}
