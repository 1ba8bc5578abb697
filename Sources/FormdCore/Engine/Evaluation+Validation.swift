import Foundation

/// SEMANTICS §6: every visible field is checked; `required` and `type` stop a field's checks.
extension Evaluation {
    mutating func validate() {
        var next = 0  // next field slot
        for (ss, sectionSlot) in layout.sections.enumerated() {
            if sectionSlot.instance < 0 && plan.sections[sectionSlot.section].template != nil {
                validateInstances(sectionSlot: ss)
            }
            while next < layout.fields.count && layout.fields[next].sectionSlot == ss {
                if isVisible(next) && layout.fields[next].flags.contains(.holdsValue) { validateField(next) }
                next += 1
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
        let spec = plan.sections[layout.sections[ss].section]
        guard let t = spec.template, let id = spec.id else { return }
        let count = layout.instances[t].count
        let label = spec.section.raw["title"]?.stringValue ?? id
        if let min = spec.section.minInstances, count < min {
            errors.append(makeError(.section(id), .minInstances, params: [("min", .int(min))], label: label, fieldMessages: nil))
        }
        if let max = spec.section.maxInstances, count > max {
            errors.append(makeError(.section(id), .maxInstances, params: [("max", .int(max))], label: label, fieldMessages: nil))
        }
    }

    private mutating func validateField(_ s: Int) {
        let slot = layout.fields[s]
        let spec = plan.spec(slot.spec)
        guard spec.holdsValue else { return }
        let rules = spec.validations
        // Computed only when an error is made (instance labels substitute `:index`).
        var label: String { slot.instance >= 0 ? spec.label.replacingOccurrences(of: ":index", with: String(slot.instance)) : spec.label }
        let subject = FormError.Subject.field(slot.id)
        let fieldMessages = rules?.messageTable
        if invalid[s] {
            errors.append(
                makeError(subject, .type, params: [("expected", .string(spec.kind.expectedName))], label: label, fieldMessages: fieldMessages))
            return
        }
        guard let v = value[s] else {
            if rules?.required == true, mode == .validate || changedIDs.contains(slot.id) {
                errors.append(makeError(subject, .required, params: [], label: label, fieldMessages: fieldMessages))
            }
            return
        }
        let checksText = !spec.hasOptions && spec.kind != .switch
        let text = checksText ? v.textForChecks : nil
        if let rules {
            if let text {
                let length = text.utf16.count
                if let min = rules.minLength, length < min {
                    errors.append(makeError(subject, .minLength, params: [("min", .int(min))], label: label, fieldMessages: fieldMessages))
                }
                if let max = rules.maxLength, length > max {
                    errors.append(makeError(subject, .maxLength, params: [("max", .int(max))], label: label, fieldMessages: fieldMessages))
                }
            }
            if rules.minValue != nil || rules.maxValue != nil, !spec.hasOptions, let x = v.numericReading {
                if let (t, min) = rules.minValue, x < min {
                    errors.append(
                        makeError(subject, .minValue, params: [("min", .number(JSONNumber(literal: t)))], label: label, fieldMessages: fieldMessages))
                }
                if let (t, max) = rules.maxValue, x > max {
                    errors.append(
                        makeError(subject, .maxValue, params: [("max", .number(JSONNumber(literal: t)))], label: label, fieldMessages: fieldMessages))
                }
            }
            if let pattern = rules.format, let text, !formatMatches(pattern, text) {
                errors.append(
                    makeError(subject, .format, params: [("pattern", .string(pattern.source))], label: label, fieldMessages: fieldMessages))
            }
            if let ref = rules.compareTo,
                let o = layout.slot(of: ref, contextTemplate: Int(slot.spec.template), contextOrdinal: slot.ordinal),
                let other = effectiveValue(o), !compare(v, other, kind: spec.kind, rules.compareRule)
            {
                errors.append(
                    makeError(
                        subject, .compare,
                        params: [("other", .string(layout.fields[o].id)), ("rule", .string(rules.compareRule.rawValue))],
                        label: label, fieldMessages: fieldMessages))
            }
        }
        if let check = spec.idCheck, let text = v.textForChecks, !check.isValid(text, postalCodes: options.postalCodes) {
            errors.append(makeError(subject, check.errorCode, params: [], label: label, fieldMessages: fieldMessages))
        }
    }

    /// One `format` check within what is left of the request's budget.
    private mutating func formatMatches(_ pattern: FormatPattern, _ text: String) -> Bool {
        let outcome = pattern.evaluate(text, drawingFrom: &formatAllowanceLeft)
        if outcome == .timedOut { formatTimeouts += 1 }
        return outcome == .match
    }

    /// `compare_rule` on typed values: calendar values as instants, numbers numerically, else text.
    private func compare(_ a: JSONValue, _ b: JSONValue, kind: FieldKind, _ rule: Validations.CompareRule) -> Bool {
        let order: ComparisonResult
        if let ck = kind.calendarKind, let x = a.stringValue, let y = b.stringValue,
            let c = CalendarValue.compare(x, y, as: ck)
        {
            order = c
        } else if let x = a.numericReading, let y = b.numericReading {
            order = x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        } else if let x = a.textForChecks, let y = b.textForChecks {
            order = x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        } else {
            return true
        }
        switch rule {
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order != .orderedAscending
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order != .orderedDescending
        case .equal: return order == .orderedSame
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
        _ subject: FormError.Subject, _ code: ErrorCode, params: [(key: String, value: JSONValue)], label: String,
        fieldMessages: MessageTable?
    ) -> FormError {
        let texts = params.map { p -> (name: String, text: String) in
            switch p.value {
            case .string(let s): (p.key, s)
            case .number(let n): (p.key, n.text)
            case .array(let items): (p.key, items.compactMap(\.stringValue).joined(separator: ", "))
            default: (p.key, "")
            }
        }
        let message = MessageCatalog.builtIn.message(
            for: code, locale: options.locale, field: fieldMessages, form: plan.formMessages, label: label, params: texts)
        return FormError(subject: subject, code: code, params: params, message: message)
    }
}
