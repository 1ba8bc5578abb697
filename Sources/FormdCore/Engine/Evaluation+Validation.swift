/// SEMANTICS §6: every visible field is checked; `required` and `type` stop a field's checks.
extension Evaluation {
    mutating func validate() {
        var next = 0  // next field slot
        for (ss, sectionSlot) in layout.sections.enumerated() {
            if sectionSlot.instance < 0 && plan.sections[sectionSlot.section].template != nil {
                validateInstances(sectionSlot: ss)
            }
            while next < layout.fields.count && layout.fields[next].sectionSlot == ss {
                if isVisible(next) { validateField(next) }
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
        let label = slot.instance >= 0 ? spec.label.replacingOccurrences(of: ":index", with: String(slot.instance)) : spec.label
        let subject = FormError.Subject.field(slot.id)
        if invalid[s] {
            errors.append(
                makeError(subject, .type, params: [("expected", .string(spec.kind.expectedName))], label: label, fieldMessages: rules?.messageTable))
            return
        }
        guard let v = value[s] else {
            if rules?.required == true, mode == .validate || changedIDs.contains(slot.id) {
                errors.append(makeError(subject, .required, params: [], label: label, fieldMessages: rules?.messageTable))
            }
            return
        }
        let checksText = !spec.hasOptions && spec.kind != .switch
        let text = checksText ? v.textForChecks : nil
        if let rules {
            if let text {
                let length = text.utf16.count
                if let min = rules.minLength, length < min {
                    errors.append(makeError(subject, .minLength, params: [("min", .int(min))], label: label, fieldMessages: rules?.messageTable))
                }
                if let max = rules.maxLength, length > max {
                    errors.append(makeError(subject, .maxLength, params: [("max", .int(max))], label: label, fieldMessages: rules?.messageTable))
                }
            }
            if rules.minValue != nil || rules.maxValue != nil, checksText, let x = v.numericReading {
                if let (t, min) = rules.minValue, x < min {
                    errors.append(
                        makeError(subject, .minValue, params: [("min", .number(JSONNumber(literal: t)))], label: label, fieldMessages: rules?.messageTable))
                }
                if let (t, max) = rules.maxValue, x > max {
                    errors.append(
                        makeError(subject, .maxValue, params: [("max", .number(JSONNumber(literal: t)))], label: label, fieldMessages: rules?.messageTable))
                }
            }
            if let pattern = rules.format, let text, !pattern.matches(text) {
                errors.append(
                    makeError(subject, .format, params: [("pattern", .string(pattern.source))], label: label, fieldMessages: rules?.messageTable))
            }
            if let ref = rules.compareTo,
                let o = layout.slot(of: ref, contextTemplate: Int(slot.spec.template), contextOrdinal: slot.ordinal),
                let other = effectiveValue(o), !compare(v, other, rules.compareRule)
            {
                errors.append(
                    makeError(
                        subject, .compare,
                        params: [("other", .string(layout.fields[o].id)), ("rule", .string(rules.compareRule.rawValue))],
                        label: label, fieldMessages: rules?.messageTable))
            }
        }
        if let check = spec.idCheck, let text = v.textForChecks {
            switch check {
            case .ssn:
                if !NorwegianSSN.isValid(text) {
                    errors.append(makeError(subject, .ssn, params: [], label: label, fieldMessages: rules?.messageTable))
                }
            case .bankAccount:
                if !NorwegianBankAccount.isValid(text) {
                    errors.append(makeError(subject, .bankAccount, params: [], label: label, fieldMessages: rules?.messageTable))
                }
            case .postalCode:
                if let table = options.postalCodes, !table.contains(text) {
                    errors.append(makeError(subject, .postalCode, params: [], label: label, fieldMessages: rules?.messageTable))
                }
            }
        }
    }

    /// `compare_rule` on typed values: calendar values as instants, numbers numerically, else text.
    private func compare(_ a: JSONValue, _ b: JSONValue, _ rule: Validations.CompareRule) -> Bool {
        let order: Int
        if let x = a.numericReading, let y = b.numericReading, !a.isCalendarText, !b.isCalendarText {
            order = x < y ? -1 : x > y ? 1 : 0
        } else if let x = a.textForChecks, let y = b.textForChecks {
            let kx = CalendarOrder.key(x)
            let ky = CalendarOrder.key(y)
            order = kx < ky ? -1 : kx > ky ? 1 : 0
        } else {
            return true
        }
        switch rule {
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .equal: return order == 0
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

    /// A number, or a string that reads as one; nil otherwise.
    var numericReading: FormNumber? {
        switch self {
        case .number(let n): FormNumber(literal: n.text)
        case .string(let s): FormNumber(literal: s)
        default: nil
        }
    }

    var isCalendarText: Bool {
        guard case .string(let s) = self else { return false }
        return CalendarOrder.looksCalendar(s)
    }

    static func int(_ i: Int) -> JSONValue { .number(JSONNumber(literal: String(i))) }
}

/// Orders canonical date, date-time and time texts as instants: a missing fraction sorts as `.000`.
enum CalendarOrder {
    static func looksCalendar(_ s: String) -> Bool {
        let u = Array(s.utf8)
        if u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-") { return true }
        if u.count == 8, u[2] == UInt8(ascii: ":"), u[5] == UInt8(ascii: ":") { return true }
        return u.count >= 20 && u[4] == UInt8(ascii: "-") && u[10] == UInt8(ascii: "T") && u.last == UInt8(ascii: "Z")
    }

    static func key(_ s: String) -> String {
        guard looksCalendar(s), s.hasSuffix("Z") else { return s }
        var body = String(s.dropLast())
        if !body.contains(".") { body += ".000" }
        return body
    }
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
