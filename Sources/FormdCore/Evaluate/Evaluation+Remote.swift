/// SEMANTICS §6.2: a field's remote rule, after its local checks passed. The engine asks
/// nothing: it applies the caller's verdict, or records the question.
extension Evaluation {
    mutating func remoteCheck(_ s: Int) {
        let id = slotMap.ids[s]
        // Evaluate asks only for the fields the user just changed.
        guard mode == .validate || changedIDs.contains(id) else { return }
        guard cells[s].origin != .invalid, let v = value(s), v != .array([]) else { return }  // nothing to ask
        let spec = plan.spec(slotMap.fields[s].spec)
        guard let validations = spec.validations, let rule = validations.remote else { return }
        switch options.remoteVerdicts?[id] {
        case nil:
            remoteQuestions.append(RemoteQuestion(field: id, validator: rule.validator, value: String(decoding: JSONWriter.encode(v), as: UTF8.self)))
        case .valid?:
            break
        case .unchecked?:
            outcomes().warnings.append(
                makeError(
                    .field(id), .remoteUnchecked, params: [("validator", .string(rule.validator))], label: label(s),
                    fieldMessages: validations.messageTable, slot: s))
        case .invalid(let r)?:
            errors.append(remoteError(s, r, validations))
        }
    }

    private func label(_ s: Int) -> String {
        let slot = slotMap.fields[s]
        let spec = plan.spec(slot.spec)
        return slot.instance >= 0
            ? IndexPlaceholder.substitute(spec.label(for: options.locale), slot.instance) : spec.label(for: options.locale)
    }

    /// The refusal as an error: the validator's code when it is a valid one (else `remote`); the
    /// message from the definition's `messages` for that code (field, then form), else the
    /// validator's, else the `remote` message (overridable as any code's).
    private func remoteError(_ s: Int, _ r: RemoteRejection, _ validations: ValidationSpec) -> FormError {
        let code = r.code.flatMap { ValidationRule.isValidCode($0) && $0 != ErrorCode.remote.rawValue ? $0 : nil }
        var params: [(key: String, value: JSONValue)] = []
        if let text = r.params, let doc = try? JSONParser.parse(text), case .object(let o) = doc.root {
            for m in o.members { params.append((m.key, m.value)) }
        }
        let label = label(s)
        var error = makeError(
            .field(slotMap.ids[s]), .remote, params: ParamList(params), label: label, fieldMessages: validations.messageTable, slot: s)
        error.customCode = code
        let locale = options.locale
        func text(_ v: JSONValue?) -> String? {
            switch v {
            case .string(let s)?: return s
            case .object(let o)?:
                for m in o.members where SupportedLocale(rawValue: m.key) == locale { return m.value.stringValue }
                return nil
            default: return nil
            }
        }
        var override: String?
        if let code {
            override = text(validations.remoteMessages?[code])
            if override == nil, let forms = plan.definition.messages {
                for m in forms.members where SupportedLocale(rawValue: m.key) == locale {
                    override = m.value.objectValue?[code]?.stringValue
                }
            }
        }
        if let override {
            let texts = params.map { p -> (name: String, text: String) in (p.key, p.value.stringValue ?? "") }
            error.message = MessageTemplate(override).render(label: label, params: texts, locale: locale)
        } else if let m = r.message, !m.isEmpty {
            error.message = m
        }
        return error
    }
}
