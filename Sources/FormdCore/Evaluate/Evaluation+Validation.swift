/// SEMANTICS §6: every visible field is checked; `required` and `type` stop a field's checks.
extension Evaluation {
    mutating func validate() {
        for o in slotMap.sectionOrder.indices {
            let ss = Int(slotMap.sectionOrder[o])
            if slotMap.sections[ss].instance < 0 && plan.sectionIsDynamic[slotMap.sections[ss].section] {
                validateInstances(sectionSlot: ss)
            }
            let range = slotMap.sectionFields[ss]
            for s in Int(range.lowerBound)..<Int(range.upperBound)
            where slotMap.fields[s].flags.contains(.holdsValue)
                && (isVisible(s) || slotMap.fields[s].flags.contains(.validateWhenHidden))
            {
                validateField(s)
            }
        }
        if let fields = unstableFields {
            errors.append(
                makeError(
                    .form, .unstable, params: [("fields", .array(fields.map { .string($0) }))], label: "",
                    fieldMessages: nil))
        }
    }

    private mutating func validateInstances(sectionSlot ss: Int) {
        guard !sectionHidden[ss] else { return }
        let spec = plan.sections[slotMap.sections[ss].section]
        guard let t = spec.template, let id = spec.id else { return }
        let count = max(slotMap.instances[t].count, requestedInstances.isEmpty ? 0 : requestedInstances[t])
        let label = spec.section.raw["title"].flatMap { LocalizedText(json: $0)?.resolved(for: options.locale) } ?? id
        if let min = spec.section.minInstances, count < min {
            errors.append(makeError(.section(id), .minInstances, params: [("min", .int(min))], label: label, fieldMessages: nil))
        }
        // Without its own `max_instances` a section is held to the engine's cap (SEMANTICS §11).
        if case let max = spec.section.maxInstances ?? options.maxInstances, count > max {
            errors.append(makeError(.section(id), .maxInstances, params: [("max", .int(max))], label: label, fieldMessages: nil))
        }
    }

    /// The common checks read `FieldChecks` (contiguous); the spec objects are visited only to
    /// write an error or for the rare checks, so a valid field costs no pointer chasing.
    ///
    /// The value is not copied out of `value` for the common checks: a copy retains a string
    /// value's storage, a memory access per field that on large forms missed the caches (the
    /// length of a native string is in the `String` itself).
    ///
    /// Inlined into `validate` with `validateFieldChecks`: three calls per field cost some 40
    /// instructions each (callgrind, employment); PureForm inputs take their own function.
    @inline(__always)
    private mutating func validateField(_ s: Int) {
        let ref = slotMap.fields[s].spec
        // Read once and passed on: each read of the table is a bounds check and a copy.
        let checks = plan.checks[ref]
        guard checks.flags.contains(.pureForm), let rules = plan.spec(ref).validations?.pureForm else {
            return validateFieldChecks(s, checks)
        }
        validatePureFormField(s, rules)
    }

    @inline(never)
    private mutating func validatePureFormField(_ s: Int, _ rules: CompiledPureFormRules) {
        let before = errors.count
        // A required switch of a PureForm input must be on (unless `false_passes_required`).
        if rules.rules.requireTrue, isVisible(s), value(s) == .bool(false),
            mode == .validate || changedIDs.contains(slotMap.ids[s])
        {
            fieldError(s, .required, params: [])
        } else {
            validateFieldChecks(s)
            // `empty_values_differ`: PureForm's equal_next / equal_previous failed when either side
            // was empty; formd's compare skips those.
            let slot = slotMap.fields[s]
            if rules.rules.quirks.contains(.emptyValuesDiffer), cells[s].origin != .invalid, let c = plan.compares[slot.spec],
                let o = slotMap.slot(of: c.other, contextTemplate: Int(slot.spec.template), contextOrdinal: slot.ordinal),
                value(s) == nil || effectiveValue(o) == nil
            {
                fieldError(s, .compare, params: [("other", .string(slotMap.ids[o])), ("rule", .string("=="))])
            }
        }
        guard errors.count > before else { return }
        var mine = Array(errors[before...])
        // Evaluate reports what PureForm checked on change: the immediate rules of changed
        // inputs (and a value the input cannot hold).
        if mode == .evaluate {
            let changed = changedIDs.contains(slotMap.ids[s])
            mine = mine.filter { changed && ($0.code == .type || rules.immediateCodes.contains($0.code)) }
        }
        // `first_failure_only`: the failing rule written first.
        if rules.rules.quirks.contains(.firstFailureOnly), mine.count > 1 {
            func order(_ e: FormError) -> Int { rules.rules.rules.firstIndex { $0.code == e.code } ?? -1 }
            mine = [mine.min { order($0) < order($1) }!]
        }
        errors.replaceSubrange(before..., with: mine)
    }

    @inline(__always)
    private mutating func validateFieldChecks(_ s: Int) {
        validateFieldChecks(s, plan.checks[slotMap.fields[s].spec])
    }

    @inline(__always)
    private mutating func validateFieldChecks(_ s: Int, _ checks: FieldChecks) {
        if !checks.flags.isDisjoint(with: [.conditionalRequired, .warnings]) {
            return validateFieldChecksAndWarnings(s, checks)
        }
        if checks.flags.contains(.remote) {
            let before = errors.count
            runChecks(s, checks, nil)
            if errors.count == before { remoteCheck(s) }
            return
        }
        runChecks(s, checks, nil)
    }

    /// The rarer path: a conditional `required` (decided once, for the check and the answer's
    /// `fields.<id>.required`) and the `warnings` block, checked by the same code into `warnings`.
    private mutating func validateFieldChecksAndWarnings(_ s: Int, _ checks: FieldChecks) {
        let spec = plan.spec(slotMap.fields[s].spec)
        if checks.flags.contains(.conditionalRequired), let c = spec.validations?.requiredWhen, conditionHolds(c, context: s) {
            outcomes().conditionallyRequired.insert(s)
        }
        let before = errors.count
        runChecks(s, checks, nil)
        if checks.flags.contains(.remote), errors.count == before { remoteCheck(s) }
        guard let w = spec.warnings, cells[s].origin != .invalid, textTooLong.isEmpty || !textTooLong.contains(s) else { return }
        if w.checks.flags.contains(.conditionalRequired), let c = w.rules.requiredWhen, conditionHolds(c, context: s) {
            outcomes().warnRequired.insert(s)
        }
        runChecks(s, w.checks, w)
    }

    /// The checks of a field's `validations` (`warnings` nil: into `errors`) or of its `warnings`
    /// block (into `warnings`; `type` and the text limit are errors only). Inlined, so that the
    /// path of `validations` alone (`warning` nil, a constant) has no test of a warnings block.
    @inline(__always)
    private mutating func runChecks(_ s: Int, _ checks: FieldChecks, _ warning: WarningChecks?) {
        let ref = slotMap.fields[s].spec
        if warning == nil {
            if !textTooLong.isEmpty, textTooLong.contains(s) {
                fieldError(s, .textTooLong, params: [("max", .int(options.maxTextBytes))])
                return
            }
            if cells[s].origin == .invalid {
                let spec = plan.spec(ref)
                fieldError(s, .type, params: spec.typeErrorParams)
                return
            }
        }
        // An empty multiple choice chose nothing: no value for the checks (SEMANTICS §6).
        if cells[s].origin != .sent && (cells[s].stored.isNone || cells[s].stored == .array([])) {
            let required =
                checks.flags.contains(.required)
                || (checks.flags.contains(.conditionalRequired)
                    && ((warning == nil ? ruleOutcomes?.conditionallyRequired : ruleOutcomes?.warnRequired)?.contains(s) ?? false))
            if required, mode == .validate || changedIDs.contains(slotMap.ids[s]) {
                fieldError(s, .required, params: [], warning: warning)
            }
            return
        }
        let minLength = Int(checks.minLength)
        let maxLength = Int(checks.maxLength)
        if checks.flags.contains(.textChecks), minLength > 0 || maxLength < Int32.max,
            let bytes = cells[s].origin == .sent
                ? sentStringBytes(s)?.count ?? submission.value(Int(cells[s].member)).textUTF8CountForChecks
                : cells[s].stored.textUTF8CountForChecks,
            // Lengths count UTF-16 units, between a third of the UTF-8 bytes and all of them:
            // most values pass both bounds on the byte count, which a `String` holds inline.
            bytes > maxLength || (bytes + 2) / 3 < minLength,
            let length = sentStringBytes(s).map(Self.utf16Count) ?? value(s).textLengthForChecks
        {
            // The rules (for the error's parameters) only for an error: binding them retained
            // an object every worker thread shares.
            if length < minLength {
                let rules = warning?.rules ?? plan.spec(ref).validations
                fieldError(s, .minLength, params: rules?.errorParams.minLength ?? [("min", .int(minLength))], warning: warning)
            }
            if length > maxLength {
                let rules = warning?.rules ?? plan.spec(ref).validations
                fieldError(s, .maxLength, params: rules?.errorParams.maxLength ?? [("max", .int(maxLength))], warning: warning)
            }
        }
        if checks.flags.contains(.numericChecks), hasValue(s),
            let limits = warning == nil ? plan.valueLimits[Int(checks.limits)] : warning?.limits
        {
            // The common case compares `FormNumber`s; only values it would not hold exactly take
            // the digit-by-digit path (`NumericReading`). A number or string kept as sent is read
            // in the body (`sentReadingBytes`): the value is made only for that other path.
            let below: Bool, above: Bool
            if let x = sentReadingBytes(s).map({ NumericReading.held(utf8: $0) }) ?? value(s).flatMap(NumericReading.held) {
                below = limits.min.map { x < $0 } ?? false
                above = limits.max.map { x > $0 } ?? false
            } else if let v = value(s), let p = NumericReading.decimal(v) {
                below = limits.min.map { NumericReading.compare(p, $0) < 0 } ?? false
                above = limits.max.map { NumericReading.compare(p, $0) > 0 } ?? false
            } else {
                below = false
                above = false
            }
            if below, let min = limits.min {
                let rules = warning?.rules ?? plan.spec(ref).validations
                fieldError(
                    s, .minValue, params: rules?.errorParams.minValue ?? [("min", .number(JSONNumber(literal: min.canonicalText)))],
                    warning: warning)
            }
            if above, let max = limits.max {
                let rules = warning?.rules ?? plan.spec(ref).validations
                fieldError(
                    s, .maxValue, params: rules?.errorParams.maxValue ?? [("max", .number(JSONNumber(literal: max.canonicalText)))],
                    warning: warning)
            }
        }
        if !checks.flags.isDisjoint(with: [.rare, .compare, .rules]), hasValue(s) { validateRare(s, checks, warning) }
    }

    /// `format`, `compare_to`, id checks and the selection counts of a multiple choice.
    @inline(__always)
    /// Slot `s` has a value; it is read (`value(s)`, which makes a string read in place) only by
    /// the checks that cannot read a string sent without escapes in place.
    private mutating func validateRare(_ s: Int, _ checks: FieldChecks, _ warning: WarningChecks?) {
        let slot = slotMap.fields[s]
        // The spec only for the checks that read it: `format` and `compare_to` (the usual rare
        // checks) read the plan's tables, and the spec is looked up again to write an error.
        let spec = checks.flags.isDisjoint(with: [.pureForm, .idOrSelections, .rules]) ? nil : plan.spec(slot.spec)
        let rules = warning?.rules ?? spec?.validations
        if warning == nil, let pure = rules?.pureForm, let v = value(s) { validatePureForm(s, v, pure) }
        if spec?.kind == .multiSelect, let rules, case .array(let chosen)? = value(s) {
            if let min = rules.minSelections, chosen.count < min {
                fieldError(s, .minSelections, params: rules.errorParams.minSelections ?? [("min", .int(min))], warning: warning)
            }
            if let max = rules.maxSelections, chosen.count > max {
                fieldError(s, .maxSelections, params: rules.errorParams.maxSelections ?? [("max", .int(max))], warning: warning)
            }
        }
        if checks.flags.contains(.format), checks.flags.contains(.textChecks) {
            let matched: Bool
            if let w = warning {
                matched = w.rules.format.map { formatMatches(s, $0) } ?? true
            } else if let pattern = plan.formats[slot.spec] {
                matched = pattern._withUnsafeGuaranteedRef { formatMatches(s, $0) }
            } else {
                matched = true
            }
            if !matched {
                let failed = rules ?? plan.spec(slot.spec).validations
                fieldError(
                    s, .format, params: failed?.errorParams.format ?? [("pattern", .string(failed?.format?.source ?? ""))],
                    warning: warning)
            }
        }
        if checks.flags.contains(.compare), let c = warning == nil ? plan.compares[slot.spec] : warning?.compare,
            let o = slotMap.slot(of: c.other, contextTemplate: Int(slot.spec.template), contextOrdinal: slot.ordinal),
            !(sentDatesOrder(s, o, kind: c.kind).map { Self.holds(c.rule, order: $0) }
                ?? effectiveValue(o).map { other in value(s).map { compare($0, other, kind: c.kind, c.rule) } ?? true } ?? true)
        {
            let made = (rules ?? plan.spec(slot.spec).validations)?.errorParams.compare
            fieldError(
                s, .compare,
                params: made.flatMap { $0.other == slotMap.ids[o] && $0.rule == c.rule.rawValue ? $0.params : nil }
                    ?? [("other", .string(slotMap.ids[o])), ("rule", .string(c.rule.rawValue))],
                warning: warning)
        }
        if warning == nil, let check = spec?.idCheck, let text = value(s)?.textForChecks,
            !check.isValid(text, postalCodes: options.postalCodes)
        {
            fieldError(s, check.errorCode, params: [])
        }
        if checks.flags.contains(.rules), let list = rules?.rules {
            for rule in list where operandsPresent(rule.condition, context: s) && !conditionHolds(rule.condition, context: s) {
                ruleError(s, rule, warning: warning != nil)
            }
        }
    }

    /// Whether every field a rule names has a value (SEMANTICS §6: a rule with an empty field
    /// does not fail, as `compare_to`). Aggregates are always present (`sum` of nothing is 0).
    private mutating func operandsPresent(_ c: CompiledCondition, context: Int) -> Bool {
        let slot = slotMap.fields[context]
        for v in c.variables {
            guard case .scalar(let ref) = v else { continue }
            guard let o = slotMap.slot(of: ref, contextTemplate: Int(slot.spec.template), contextOrdinal: slot.ordinal),
                let value = effectiveValue(o), value != .array([])
            else { return false }
        }
        return true
    }

    /// A failed rule's error: its own code (or `rule`) and its message for the locale.
    private mutating func ruleError(_ s: Int, _ rule: CompiledRule, warning: Bool) {
        let slot = slotMap.fields[s]
        let spec = plan.spec(slot.spec)
        let label =
            slot.instance >= 0
            ? IndexPlaceholder.substitute(spec.label(for: options.locale), slot.instance) : spec.label(for: options.locale)
        // The memberwise init, as `fieldError` (see FormError's extension).
        let error = FormError(
            subject: .field(slotMap.ids[s]), code: .rule, paramList: [], slot: Int32(s),
            text: .template(rule.messages[options.locale.index], label: label, locale: options.locale),
            customCode: rule.customCode)
        if warning { outcomes().warnings.append(error) } else { errors.append(error) }
    }

    /// A PureForm input's `equal` and its patterns, matched in full and case-sensitively
    /// (SEMANTICS §12).
    private mutating func validatePureForm(_ s: Int, _ v: JSONValue, _ pure: CompiledPureFormRules) {
        if let expected = pure.equal, !OptionMatch.exactly(id: expected, value: v) {
            fieldError(s, .compare, params: [("value", expected), ("rule", .string("=="))], messageKey: "PFValidationEqualFailure")
        }
        guard !pure.patterns.isEmpty else { return }
        let text = v.textForChecks ?? (v.boolValue.map { $0 ? "true" : "false" } ?? "")
        for p in pure.patterns where !formatMatches(s, p.pattern, text) {
            fieldError(s, .format, params: [("pattern", .string(p.source))], messageKey: p.messageKey)
        }
    }

    /// Appends an error of slot `s`'s field, with its label (`:index` substituted in instances)
    /// and its own message overrides.
    private mutating func fieldError(
        _ s: Int, _ code: ErrorCode, params: ParamList, messageKey: String? = nil, warning: WarningChecks? = nil
    ) {
        let slot = slotMap.fields[s]
        let spec = plan.spec(slot.spec)
        let label =
            slot.instance >= 0
            ? IndexPlaceholder.substitute(spec.label(for: options.locale), slot.instance) : spec.label(for: options.locale)
        if let warning {
            outcomes().warnings.append(
                makeError(
                    .field(slotMap.ids[s]), code, params: params, label: label, fieldMessages: warning.rules.messageTable,
                    slot: s))
            return
        }
        let key = spec.validations?.pureForm.flatMap { pure in
            messageKey ?? (code == .compare ? pure.rules.compareKey : pure.rules.messageKey(for: code))
        }
        // Room for a few errors at the first: growing the list one error at a time moved every
        // error at each step (about 500 instructions a growth).
        if errors.isEmpty { errors.reserveCapacity(16) }
        // FormError's memberwise init builds the error in place (see FormError's extension).
        errors.append(FormError(
            subject: .field(slotMap.ids[s]), code: code, paramList: params, slot: Int32(s),
            text: messageText(code, label: label, fieldMessages: spec.validations?.messageTable), messageKey: key))
    }

    /// One `format` check of slot `s`'s value within what is left of the request's budget. A
    /// check this build cannot make (`.deferred`, WebAssembly only) is no error here: the field
    /// is listed in `deferredFormats` and the server decides.
    /// Whether slot `s`'s value matches `pattern`; true for a value without text (not checked).
    /// A string sent without escapes is read in place when that decides it.
    private mutating func formatMatches(_ s: Int, _ pattern: FormatPattern) -> Bool {
        if let bytes = sentStringBytes(s), let outcome = pattern.evaluate(utf8: bytes) { return outcome == .match }
        guard let text = value(s)?.textForChecks else { return true }
        return formatMatches(s, pattern, text)
    }

    private mutating func formatMatches(_ s: Int, _ pattern: FormatPattern, _ text: String) -> Bool {
        switch pattern.evaluate(text, drawingFrom: &formatAllowanceLeft) {
        case .match: return true
        case .noMatch: return false
        case .timedOut:
            formatTimeouts += 1
            return false
        case .deferred:
            let id = slotMap.ids[s]
            if !deferredFormats.contains(id) { deferredFormats.append(id) }
            return true
        }
    }

    /// The order of two dates kept as sent, sent without escapes, read in place: canonical dates
    /// order as their text (`CalendarValue.order`). Nil for any other pair (`compare` decides),
    /// and when `o` is hidden (no comparison). A date field's value kept as sent is canonical.
    private func sentDatesOrder(_ s: Int, _ o: Int, kind: FieldKind) -> Int? {
        guard kind == .date, isVisible(o), let a = sentStringBytes(s), let b = sentStringBytes(o),
            plan.coercers[slotMap.fields[o].spec].kind == .date || CalendarValue.isCanonicalDate(utf8: b)
        else { return nil }
        for k in 0..<10 where a[k] != b[k] { return a[k] < b[k] ? -1 : 1 }
        return 0
    }

    /// Whether `order` (-1, 0, 1: the value against the other) satisfies `rule`.
    private static func holds(_ rule: Validations.CompareRule, order: Int) -> Bool {
        switch rule {
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .equal: return order == 0
        }
    }

    /// `String.utf16.count` of the string these valid UTF-8 bytes are: one unit per scalar, two
    /// for a scalar past U+FFFF (a four-byte sequence).
    static func utf16Count(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        for b in bytes where b & 0xC0 != 0x80 { n &+= b >= 0xF0 ? 2 : 1 }
        return n
    }

    /// `compare_rule` on typed values: calendar values as instants, numbers numerically, else text.
    private func compare(_ a: JSONValue, _ b: JSONValue, kind: FieldKind, _ rule: Validations.CompareRule) -> Bool {
        let order: Int  // -1, 0, 1
        if let ck = kind.calendarKind, let x = a.stringValue, let y = b.stringValue,
            let c = CalendarValue.order(x, y, as: ck)
        {
            order = c
        } else if let x = a.numericReading, let y = b.numericReading {
            order = x < y ? -1 : x > y ? 1 : 0
        } else if let x = a.textForChecks, let y = b.textForChecks {
            order = x < y ? -1 : x > y ? 1 : 0
        } else {
            return true
        }
        return Self.holds(rule, order: order)
    }
}

extension Optional<JSONValue> {
    @inline(__always) var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    /// `textForChecks?.utf8.count`: the count a native `String` stores inline.
    @inline(__always) var textUTF8CountForChecks: Int? { self?.textUTF8CountForChecks }

    /// `textForChecks?.utf16.count`.
    @inline(__always) var textLengthForChecks: Int? {
        switch self {
        case .some(.string(let s)): s.utf16.count
        case .some(.number(let n)): n.text.utf16.count
        default: nil
        }
    }
}

extension JSONValue {
    /// `textForChecks?.utf8.count`, read in place.
    @inline(__always) var textUTF8CountForChecks: Int? {
        switch self {
        case .string(let s): s.utf8.count
        case .number(let n): n.text.utf8.count
        default: nil
        }
    }
}

extension JSONValue {
    /// The text `min_length`, `max_length` and `format` check: strings, and numbers as written canonically.
    var textForChecks: String? {
        switch self {
        case .string(let s): s
        case .number(let n): n.text
        default: nil
        }
    }

    /// A number, a string that reads as one, or a boolean as 1/0 (so `min_value: 1` on a switch
    /// means "must be on"); nil otherwise.
    var numericReading: FormNumber? {
        switch self {
        case .bool(let b): b ? 1 : 0
        case .number(let n): FormNumber(literal: n.text)
        case .string(let s): FormNumber(literal: s)
        default: nil
        }
    }

    static func int(_ i: Int) -> JSONValue { .number(JSONNumber(literal: String(i))) }
}


extension Evaluation {
    func makeError(
        _ subject: FormError.Subject, _ code: ErrorCode, params: ParamList, label: String, fieldMessages: MessageTable?,
        messageKey: String? = nil, slot: Int = -1
    ) -> FormError {
        FormError(
            subject: subject, code: code, paramList: params, slot: Int32(slot),
            text: messageText(code, label: label, fieldMessages: fieldMessages), messageKey: messageKey)
    }

    /// The message of an error of `code`: the template of the field's, the form's or the built-in
    /// messages for the request's locale.
    func messageText(_ code: ErrorCode, label: String, fieldMessages: MessageTable?) -> MessageText {
        guard let template = MessageCatalog.builtIn.template(
            for: code, locale: options.locale, field: fieldMessages, form: plan.formMessages)
        else { return .plain(code.rawValue) }
        return .template(template, label: label, locale: options.locale)
    }
}
