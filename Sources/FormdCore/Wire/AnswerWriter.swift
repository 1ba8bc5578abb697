/// What a validate or evaluate answer is written from: the engine's `Evaluation` (the server's
/// path, written straight from its per-slot arrays) or a typed `FormState` (an app's, or one read
/// from the wire). Both conform; `AnswerWriter` is the one place that knows the answer's keys and
/// their order (API reference §4-§5). The writer is generic, so each conformance is specialized
/// and its closures inlined: no intermediate tree, no boxing.
protocol AnswerContent: ~Copyable {
    var answerMode: AnswerMode { get }
    var answerIsValid: Bool { get }
    /// `values`: visible fields with a value, in definition order (secret fields never), each
    /// as its value or, when known, as its JSON text (`AnswerValue`).
    func forEachValue(_ body: (_ id: AnswerKey, _ value: AnswerValue) -> Void)
    /// `labels`: each visible multiple choice's chosen titles, in the order of `values`.
    func forEachLabelList(_ body: (_ id: String, _ labels: [String]) -> Void)
    /// `fields` (evaluate): every field in definition order.
    func forEachField(_ body: (_ id: String, _ visible: Bool, _ enabled: Bool, _ required: Bool) -> Void)
    /// `sections` (evaluate): every section with an id.
    func forEachSection(_ body: (_ id: String, _ visible: Bool) -> Void)
    /// `actions` (evaluate): the value targets that ran, then the structural ones in force.
    /// `value` is non-nil exactly for `update` (null when it cleared).
    func forEachAction(_ body: (_ id: String, _ type: String, _ action: String, _ value: JSONValue?) -> Void)
    /// `errors`, in order: `field` or `section` (neither for a form-level error), `code`,
    /// `message`, `params`, `message_key`. Passed as arguments, not as a struct: building one per
    /// error cost the invalid answer ~4,000 instructions (callgrind, employment-invalid).
    func forEachError(
        _ body: (_ field: AnswerString?, _ section: String?, _ code: AnswerString, _ message: MessageText,
                 _ params: ParamList, _ messageKey: String?) -> Void)
    /// Whether the answer has a `warnings` list: forms that declare a `warnings` block.
    var answerHasWarnings: Bool { get }
    /// `warnings` (SEMANTICS §6.1): entries shaped as those of `errors`, in the same order.
    func forEachWarning(
        _ body: (_ field: AnswerString?, _ section: String?, _ code: AnswerString, _ message: MessageText,
                 _ params: ParamList, _ messageKey: String?) -> Void)
    /// `dropped`: submitted keys not in `values` as sent, with their reason.
    func forEachDropped(_ body: (_ key: String, _ reason: String) -> Void)
    /// `hidden` and `disabled` (validate): ids in definition order.
    func forEachHidden(_ body: (String) -> Void)
    func forEachDisabled(_ body: (String) -> Void)
}

enum AnswerMode { case validate, evaluate }


enum AnswerWriter {
    /// Validate: `{"form", "version", "valid", "values", ["labels",] "errors", ["warnings",]
    /// "dropped", "hidden", "disabled"}`. Evaluate: `{"form", "version", "values", ["labels",]
    /// "fields", "sections", "actions", "errors", ["warnings",] "dropped"}`, then whatever `tail`
    /// adds (`state` and `changes`). `warnings` is there exactly for forms that declare one.
    /// `{"form":…,"version":…`: how every answer of a form version starts (`LoadedForm` keeps it).
    static func head(form: String, version: String) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: form.utf8.count + version.utf8.count + 32)
        w.beginObject()
        w.fixedKey("form")
        w.string(form)
        w.fixedKey("version")
        w.string(version)
        return w.bytes
    }

    @inline(__always)
    static func write(
        _ c: borrowing some AnswerContent & ~Copyable, head: [UInt8], into w: inout JSONWriter,
        tail: (inout JSONWriter) -> Void = { _ in }
    ) {
        let validate = c.answerMode == .validate
        w.objectHead(head)
        if validate {
            w.fixedKey("valid")
            w.bool(c.answerIsValid)
        }
        w.fixedKey("values")
        w.beginObject()
        c.forEachValue { id, value in
            w.key(id)
            w.answerValue(value)
        }
        w.endObject()
        var labelsOpen = false
        c.forEachLabelList { id, labels in
            if !labelsOpen {
                w.fixedKey("labels")
                w.beginObject()
                labelsOpen = true
            }
            w.key(id)
            w.beginArray()
            for l in labels { w.string(l) }
            w.endArray()
        }
        if labelsOpen { w.endObject() }
        if !validate {
            w.fixedKey("fields")
            w.beginObject()
            c.forEachField { id, visible, enabled, required in
                w.key(id)
                w.beginObject()
                w.fixedKey("visible")
                w.bool(visible)
                w.fixedKey("enabled")
                w.bool(enabled)
                w.fixedKey("required")
                w.bool(required)
                w.endObject()
            }
            w.endObject()
            w.fixedKey("sections")
            w.beginObject()
            c.forEachSection { id, visible in
                w.key(id)
                w.beginObject()
                w.fixedKey("visible")
                w.bool(visible)
                w.endObject()
            }
            w.endObject()
            w.fixedKey("actions")
            w.beginArray()
            c.forEachAction { id, type, action, value in
                w.beginObject()
                w.fixedKey("id")
                w.string(id)
                w.fixedKey("type")
                w.string(type)
                w.fixedKey("action")
                w.string(action)
                if let value {
                    w.fixedKey("value")
                    w.writeValue(value)
                }
                w.endObject()
            }
            w.endArray()
        }
        w.fixedKey("errors")
        w.beginArray()
        c.forEachError { field, section, code, message, params, messageKey in
            w.errorEntry(field: field, section: section, code: code, message: message, params: params, messageKey: messageKey)
        }
        w.endArray()
        if c.answerHasWarnings {
            w.fixedKey("warnings")
            w.beginArray()
            c.forEachWarning { field, section, code, message, params, messageKey in
                w.errorEntry(field: field, section: section, code: code, message: message, params: params, messageKey: messageKey)
            }
            w.endArray()
        }
        w.fixedKey("dropped")
        w.beginArray()
        c.forEachDropped { key, reason in
            w.beginObject()
            w.fixedKey("field")
            w.string(key)
            w.fixedKey("reason")
            w.string(reason)
            w.endObject()
        }
        w.endArray()
        if validate {
            w.fixedKey("hidden")
            w.beginArray()
            c.forEachHidden { w.string($0) }
            w.endArray()
            w.fixedKey("disabled")
            w.beginArray()
            c.forEachDisabled { w.string($0) }
            w.endArray()
        }
        tail(&w)
        w.endObject()
    }

    /// `"errors": [...]` of a list of engine errors: the entries of `errors` above, also used by
    /// evaluate's `changes` (API reference §5.1).
    static func writeErrors(_ errors: [FormError], into w: inout JSONWriter) {
        w.fixedKey("errors")
        w.beginArray()
        for e in errors { w.errorEntry(e) }
        w.endArray()
    }
}

extension JSONWriter {
    /// One entry of `errors`: `field` or `section` (neither for a form-level error), `code`,
    /// `message`, `params` in order, and `message_key` for PureForm inputs (SEMANTICS §12).
    @inline(__always)
    mutating func errorEntry(
        field: AnswerString?, section: String?, code: AnswerString, message: MessageText, params: ParamList,
        messageKey: String?
    ) {
        beginObject()
        if let field {
            fixedKey("field")
            string(field)
        } else if let section {
            fixedKey("section")
            string(section)
        }
        fixedKey("code")
        string(code)
        fixedKey("message")
        self.message(message, params: params.list)
        fixedKey("params")
        if !params.json.isEmpty {
            rawValue(params.json)
        } else if params.list.isEmpty {
            separator()
            appendStatic("{}")
            needsComma = true
        } else {
            self.params(params.list)
        }
        if let messageKey {
            fixedKey("message_key")
            string(messageKey)
        }
        endObject()
    }

    /// An error's `params` object.
    mutating func params(_ list: [(key: String, value: JSONValue)]) {
        beginObject()
        for p in list {
            key(p.key)
            writeValue(p.value)
        }
        endObject()
    }

    /// A message, rendered from its template straight into the buffer when it has one.
    @inline(__always)
    mutating func message(_ text: MessageText, params: [(key: String, value: JSONValue)]) {
        switch text {
        case .plain(let s):
            string(s)
        case .template(let t, let label, let locale):
            separator()
            append(byte: UInt8(ascii: "\""))
            t.write(label: label, params: params, locale: locale, into: &self)
            append(byte: UInt8(ascii: "\""))
            needsComma = true
        }
    }

    /// An engine error's entry.
    @inline(__always)
    mutating func errorEntry(_ e: FormError, withSubject: Bool = true) {
        var field: AnswerString?
        var section: String?
        if withSubject {
            switch e.subject {
            case .field(let id): field = .text(id)
            case .section(let id): section = id
            case .form: break
            }
        }
        errorEntry(field: field, section: section, code: e.answerCode, message: e.text, params: e.paramList, messageKey: e.messageKey)
    }
}

// MARK: - Evaluate's `state` and `changes` (API reference §5.1)

extension ListDiff {
    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.fixedKey("removed")
        w.beginArray()
        for r in removed {
            w.beginObject()
            w.fixedKey("id")
            w.string(r.id)
            w.fixedKey("from")
            w.number(r.from)
            w.endObject()
        }
        w.endArray()
        w.fixedKey("inserted")
        w.beginArray()
        for i in inserted {
            w.beginObject()
            w.fixedKey("id")
            w.string(i.id)
            w.fixedKey("at")
            w.number(i.at)
            w.endObject()
        }
        w.endArray()
        w.fixedKey("moved")
        w.beginArray()
        for m in moved {
            w.beginObject()
            w.fixedKey("id")
            w.string(m.id)
            w.fixedKey("from")
            w.number(m.from)
            w.fixedKey("to")
            w.number(m.to)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}

extension Evaluation {
    /// `"state"` (the token of this answer, or null when it is too large to carry) and
    /// `"changes"` from `previous` to this state (API.md §5.1).
    func writeStateChanges(previous: StateSnapshot, form: String, version: String, into w: inout JSONWriter) {
        let (current, errorsByID, formErrors) = snapshot()
        w.fixedKey("state")
        if let token = current.token(form: form, version: version) { w.string(token) } else { w.null() }
        w.fixedKey("changes")
        w.beginObject()

        // The visible order: sections, then each section's fields.
        func visibleSections(_ s: StateSnapshot) -> [String] {
            s.sections.filter { $0.flags.contains(.visible) }.map { plan.sectionKey($0) }
        }
        func visibleFields(_ s: StateSnapshot) -> [String: [String]] {
            var out: [String: [String]] = [:]
            for section in s.sections {
                out[plan.sectionKey(section)] = section.fields.filter { $0.flags.contains(.visible) }
                    .map { plan.fieldID($0, instance: section.instance) }
            }
            return out
        }
        w.fixedKey("order")
        w.beginObject()
        w.fixedKey("sections")
        ListDiff(from: visibleSections(previous), to: visibleSections(current)).write(&w)
        w.fixedKey("fields")
        w.beginObject()
        let oldFields = visibleFields(previous)
        let newFields = visibleFields(current)
        var keys = current.sections.map { plan.sectionKey($0) }
        for s in previous.sections where newFields[plan.sectionKey(s)] == nil { keys.append(plan.sectionKey(s)) }
        for key in keys {
            let diff = ListDiff(from: oldFields[key] ?? [], to: newFields[key] ?? [])
            guard !diff.isEmpty else { continue }
            w.key(key)
            diff.write(&w)
        }
        w.endObject()
        w.endObject()

        // Attributes of fields and sections that are new or changed.
        var oldFieldByID: [String: StateSnapshot.Field] = [:]
        var oldSectionByID: [String: StateSnapshot.Section] = [:]
        for s in previous.sections {
            oldSectionByID[plan.sectionKey(s)] = s
            for f in s.fields { oldFieldByID[plan.fieldID(f, instance: s.instance)] = f }
        }
        var newFieldIDs = Set<String>()
        var newSectionIDs = Set<String>()
        w.fixedKey("fields")
        w.beginObject()
        // The snapshot's sections are the slotMap's, in the same order, fields and all.
        for (k, o) in slotMap.sectionOrder.enumerated() {
            let range = slotMap.sectionFields[Int(o)]
            for (j, s) in (Int(range.lowerBound)..<Int(range.upperBound)).enumerated() {
                let id = slotMap.ids[s]
                newFieldIDs.insert(id)
                let now = current.sections[k].fields[j]
                let before = oldFieldByID[id]
                let value = before == nil || before!.value != now.value || before!.flags.contains(.hasValue) != now.flags.contains(.hasValue)
                let visible = before == nil || before!.flags.contains(.visible) != now.flags.contains(.visible)
                let enabled = before == nil || before!.flags.contains(.enabled) != now.flags.contains(.enabled)
                let required = before == nil || before!.flags.contains(.required) != now.flags.contains(.required)
                let errors = before == nil || before!.errors != now.errors
                guard value || visible || enabled || required || errors else { continue }
                w.key(id)
                w.beginObject()
                if value {
                    w.fixedKey("value")
                    if let v = outputValue(s) { w.writeValue(v) } else { w.null() }
                }
                if visible {
                    w.fixedKey("visible")
                    w.bool(now.flags.contains(.visible))
                }
                if enabled {
                    w.fixedKey("enabled")
                    w.bool(now.flags.contains(.enabled))
                }
                if required {
                    w.fixedKey("required")
                    w.bool(now.flags.contains(.required))
                }
                if errors { AnswerWriter.writeErrors(errorsByID[id] ?? [], into: &w) }
                w.endObject()
            }
        }
        w.endObject()
        w.fixedKey("sections")
        w.beginObject()
        for s in current.sections {
            let id = plan.sectionKey(s)
            newSectionIDs.insert(id)
            let before = oldSectionByID[id]
            let visible = before == nil || before!.flags.contains(.visible) != s.flags.contains(.visible)
            let errors = before == nil || before!.errors != s.errors
            guard visible || errors else { continue }
            w.key(id)
            w.beginObject()
            if visible {
                w.fixedKey("visible")
                w.bool(s.flags.contains(.visible))
            }
            if errors { AnswerWriter.writeErrors(errorsByID[id] ?? [], into: &w) }
            w.endObject()
        }
        w.endObject()
        w.fixedKey("removed")
        w.beginObject()
        w.fixedKey("fields")
        w.beginArray()
        for s in previous.sections {
            for f in s.fields {
                let id = plan.fieldID(f, instance: s.instance)
                if !newFieldIDs.contains(id) { w.string(id) }
            }
        }
        w.endArray()
        w.fixedKey("sections")
        w.beginArray()
        for s in previous.sections where !newSectionIDs.contains(plan.sectionKey(s)) { w.string(plan.sectionKey(s)) }
        w.endArray()
        w.endObject()
        if previous.formErrors != current.formErrors { AnswerWriter.writeErrors(formErrors, into: &w) }
        w.endObject()
    }
}
