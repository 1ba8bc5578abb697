/// The validate and evaluate response bodies of API.md, written straight from the evaluation's
/// arrays (no intermediate tree): same input, same bytes.
extension Evaluation {
    public var isValid: Bool { errors.isEmpty }

    /// `{"form", "version", "valid", "values", "errors", "dropped", "hidden", "disabled"}`.
    public func validateResponse(form: String, version: String, into w: inout JSONWriter) {
        w.beginObject()
        w.key("form")
        w.string(form)
        w.key("version")
        w.string(version)
        w.key("valid")
        w.bool(isValid)
        writeValues(&w)
        if plan.hasMultipleChoice { writeLabels(&w) }
        writeErrors(&w)
        writeDropped(&w)
        w.key("hidden")
        w.beginArray()
        for s in layout.outputOrder where !isVisible(s) { w.string(layout.ids[s]) }
        w.endArray()
        w.key("disabled")
        w.beginArray()
        for s in layout.outputOrder where disabled[s] { w.string(layout.ids[s]) }
        w.endArray()
        w.endObject()
    }

    /// `{"form", "version", "values", "fields", "sections", "actions", "errors", "dropped"}`, and
    /// with `previous` (a client that sent `state`) `"state"` and `"changes"` (API.md §5.1).
    public func evaluateResponse(form: String, version: String, previous: StateSnapshot? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.key("form")
        w.string(form)
        w.key("version")
        w.string(version)
        writeValues(&w)
        if plan.hasMultipleChoice { writeLabels(&w) }
        w.key("fields")
        w.beginObject()
        for s in layout.outputOrder {
            let visible = isVisible(s)
            w.key(layout.ids[s])
            w.beginObject()
            w.key("visible")
            w.bool(visible)
            w.key("enabled")
            w.bool(!disabled[s])
            w.key("required")
            w.bool(visible && plan.spec(layout.fields[s].spec).validations?.required == true)
            w.endObject()
        }
        w.endObject()
        w.key("sections")
        w.beginObject()
        for o in layout.sectionOrder {
            let ss = Int(o)
            guard let id = layout.sections[ss].id else { continue }
            w.key(id)
            w.beginObject()
            w.key("visible")
            w.bool(!sectionHidden[ss])
            w.endObject()
        }
        w.endObject()
        w.key("actions")
        w.beginArray()
        for a in actions + structuralActions {
            w.beginObject()
            w.key("id")
            w.string(a.id)
            w.key("type")
            w.string(a.type)
            w.key("action")
            w.string(a.action.rawValue)
            if a.action == .update {
                w.key("value")
                w.writeValue(a.value ?? .null)
            }
            w.endObject()
        }
        w.endArray()
        writeErrors(&w)
        writeDropped(&w)
        if let previous { writeStateChanges(previous: previous, form: form, version: version, into: &w) }
        w.endObject()
    }

    private func writeValues(_ w: inout JSONWriter) {
        w.key("values")
        w.beginObject()
        for s in layout.outputOrder where isVisible(s) && !layout.fields[s].flags.contains(.secret) {
            // Visible fields with their canonical value, or the value as sent when their kind
            // cannot hold it; submitted values are written from where they are, not copied.
            if origin[s] != .stored {
                let m = Int(sentMember[s])
                guard m >= 0 else { continue }
                w.key(layout.ids[s])
                w.writeValue(submission.members[m].value)
            } else if let v = stored[s] {
                w.key(layout.ids[s])
                w.writeValue(v)
            }
        }
        w.endObject()
    }

    /// `labels`: each visible multiple choice's chosen options' titles in the request's locale,
    /// in the order of its value; left out when there are none (API.md §4).
    private func writeLabels(_ w: inout JSONWriter) {
        var open = false
        for s in layout.outputOrder {
            guard let labels = choiceLabels(s) else { continue }
            if !open {
                w.key("labels")
                w.beginObject()
                open = true
            }
            w.key(layout.ids[s])
            w.beginArray()
            for l in labels { w.string(l) }
            w.endArray()
        }
        if open { w.endObject() }
    }

    /// The titles of the options a visible multiple choice in slot `s` has chosen; nil for any
    /// other field, and for one without a value or with a value it cannot hold.
    func choiceLabels(_ s: Int) -> [String]? {
        guard layout.fields[s].flags.contains(.hasOptions), isVisible(s), origin[s] == .stored,
            case .array(let chosen)? = stored[s]
        else { return nil }
        let spec = plan.spec(layout.fields[s].spec)
        guard spec.kind == .multiSelect else { return nil }
        return chosen.compactMap { spec.option(for: $0)?.label(for: options.locale) }
    }

    private func writeErrors(_ w: inout JSONWriter) {
        w.key("errors")
        w.beginArray()
        for e in errors {
            switch e.subject {
            case .field(let id): w.errorEntry(field: id, section: nil, code: e.code.rawValue, message: e.message, params: e.params, messageKey: e.messageKey)
            case .section(let id): w.errorEntry(field: nil, section: id, code: e.code.rawValue, message: e.message, params: e.params, messageKey: e.messageKey)
            case .form: w.errorEntry(field: nil, section: nil, code: e.code.rawValue, message: e.message, params: e.params, messageKey: e.messageKey)
            }
        }
        w.endArray()
    }

    /// Every submitted key that carried a value and is not in `values` as sent, with the first
    /// reason that applies (SEMANTICS §8).
    public var dropped: [(field: String, reason: DropReason)] {
        var out: [(String, DropReason)] = []
        // By index, and from the slot flags: copying each member and visiting each field's spec
        // cost two memory accesses per submitted key on large submissions, for a list that is
        // usually short.
        let members = submission.members
        for m in members.indices {
            let slot = Int(memberSlot[m])
            guard slot >= 0 else {
                if members[m].value.isPresentForDropping {
                    out.append((members[m].key, slot == Self.overLimitMember ? .overLimit : .unknown))
                }
                continue
            }
            let flags = layout.fields[slot].flags
            let reason: DropReason?
            if !flags.contains(.holdsValue) {
                reason = .notInput
            } else if !isVisible(slot) {
                reason = .hidden
            } else if flags.contains(.hasFormula) {
                let spec = plan.spec(layout.fields[slot].spec)
                reason = Self.sameValue(sent: members[m].value, computed: stored[slot], spec: spec) ? nil : .computed
            } else if cleared[slot] && !hasValue(slot) {
                reason = .cleared
            } else {
                reason = nil
            }
            if let reason, members[m].value.isPresentForDropping { out.append((members[m].key, reason)) }
        }
        return out
    }

    /// Whether a formula field's submitted value is the computed one, compared by value: the
    /// submission is coerced to the field's kind first, so `300.0` and `"300"` match `300`.
    static func sameValue(sent: JSONValue, computed: JSONValue?, spec: FieldSpec) -> Bool {
        guard let computed else { return false }
        guard let c = spec.coercer.coerce(sent).canonical(of: sent) else { return false }
        if c == computed { return true }
        if case .number(let a) = c, case .number(let b) = computed { return OptionMatch.numericEqual(a.text, b.text) }
        return false
    }

    private func writeDropped(_ w: inout JSONWriter) {
        w.key("dropped")
        w.beginArray()
        for d in dropped { w.droppedEntry(key: d.field, reason: d.reason.rawValue) }
        w.endArray()
    }
}

extension JSONValue {
    /// A submitted value `dropped` can report: not `null`, not a blank string (SEMANTICS §8).
    @inline(__always) var isPresentForDropping: Bool {
        switch self {
        case .null: false
        case .string(let s): !s.isBlank
        default: true
        }
    }
}
