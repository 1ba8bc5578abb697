/// The state in the server's wire format (API.md §4, §5), both ways: a client reads formd's
/// answer into a ``FormState``, and a state computed in-process can be written as formd would
/// answer it.
extension FormState {
    /// Reads a validate answer (it has `valid`) or an evaluate answer (it has `fields`).
    public init(answer bytes: some Collection<UInt8>) throws(FormAnswerError) {
        let root: JSONValue
        do { root = try JSONValue(json: bytes) } catch { throw FormAnswerError("not JSON: \(error)") }
        guard case .object(let o) = root else { throw FormAnswerError("not an object") }
        func string(_ v: JSONValue?, _ what: String) throws(FormAnswerError) -> String {
            guard let s = v?.stringValue else { throw FormAnswerError("\(what) is not a string") }
            return s
        }
        func bool(_ v: JSONValue?, _ what: String) throws(FormAnswerError) -> Bool {
            guard let b = v?.boolValue else { throw FormAnswerError("\(what) is not a boolean") }
            return b
        }
        let isValidate = o["valid"] != nil
        mode = isValidate ? .validate : .evaluate
        form = try string(o["form"], "form")
        version = try string(o["version"], "version")
        guard let values = o["values"]?.objectValue else { throw FormAnswerError("values is not an object") }
        self.values = values
        var labels: [String: [String]] = [:]
        for member in o["labels"]?.objectValue?.members ?? [] {
            guard let items = member.value.arrayValue else { throw FormAnswerError("labels.\(member.key) is not an array") }
            labels[member.key] = try items.map { (item) throws(FormAnswerError) -> String in try string(item, "a label") }
        }
        self.labels = labels
        var errors: [Error] = []
        for e in o["errors"]?.arrayValue ?? [] {
            let subject: Error.Subject
            if let f = e["field"]?.stringValue { subject = .field(f) } else if let s = e["section"]?.stringValue { subject = .section(s) } else { subject = .form }
            let params = (e["params"]?.objectValue?.members ?? []).map { (key: $0.key, value: $0.value) }
            errors.append(
                Error(
                    subject: subject, code: try string(e["code"], "code"), message: try string(e["message"], "message"), params: params,
                    messageKey: e["message_key"]?.stringValue))
        }
        self.errors = errors
        var dropped: [Dropped] = []
        for d in o["dropped"]?.arrayValue ?? [] {
            guard let reason = Dropped.Reason(rawValue: try string(d["reason"], "reason")) else { throw FormAnswerError("unknown dropped reason") }
            dropped.append(Dropped(key: try string(d["field"], "dropped field"), reason: reason))
        }
        self.dropped = dropped
        if isValidate {
            // Validate names the hidden and disabled fields only: the others are visible and enabled.
            let hidden = Set((o["hidden"]?.arrayValue ?? []).compactMap(\.stringValue))
            let disabled = Set((o["disabled"]?.arrayValue ?? []).compactMap(\.stringValue))
            var ids = (o["hidden"]?.arrayValue ?? []).compactMap(\.stringValue)
            for d in (o["disabled"]?.arrayValue ?? []).compactMap(\.stringValue) where !hidden.contains(d) { ids.append(d) }
            fields = ids.map { Field(id: $0, isVisible: !hidden.contains($0), isEnabled: !disabled.contains($0), isRequired: false) }
            sections = []
            actions = []
        } else {
            var fields: [Field] = []
            for m in o["fields"]?.objectValue?.members ?? [] {
                fields.append(Field(id: m.key, isVisible: try bool(m.value["visible"], "visible"),
                                    isEnabled: try bool(m.value["enabled"], "enabled"), isRequired: try bool(m.value["required"], "required")))
            }
            self.fields = fields
            sections = try (o["sections"]?.objectValue?.members ?? []).map { m throws(FormAnswerError) in
                Section(id: m.key, isVisible: try bool(m.value["visible"], "visible"))
            }
            var actions: [Action] = []
            for a in o["actions"]?.arrayValue ?? [] {
                guard let kind = Action.Kind(rawValue: try string(a["action"], "action")) else { throw FormAnswerError("unknown action") }
                actions.append(Action(id: try string(a["id"], "action id"), type: try string(a["type"], "action type"), action: kind, value: a["value"]))
            }
            self.actions = actions
        }
    }

    /// The answer formd gives for this state, as compact JSON: validate's shape for a validate
    /// state, evaluate's for an evaluate state.
    public var answerJSON: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("form")
        w.string(form)
        w.key("version")
        w.string(version)
        if mode == .validate {
            w.key("valid")
            w.bool(isValid)
        }
        w.key("values")
        w.writeValue(.object(values))
        if !labels.isEmpty {
            // In the order of `values`, as formd writes them.
            w.key("labels")
            w.beginObject()
            for member in values.members {
                guard let l = labels[member.key] else { continue }
                w.key(member.key)
                w.beginArray()
                for text in l { w.string(text) }
                w.endArray()
            }
            w.endObject()
        }
        if mode == .evaluate {
            w.key("fields")
            w.beginObject()
            for f in fields {
                w.key(f.id)
                w.beginObject()
                w.key("visible")
                w.bool(f.isVisible)
                w.key("enabled")
                w.bool(f.isEnabled)
                w.key("required")
                w.bool(f.isRequired)
                w.endObject()
            }
            w.endObject()
            w.key("sections")
            w.beginObject()
            for s in sections {
                w.key(s.id)
                w.beginObject()
                w.key("visible")
                w.bool(s.isVisible)
                w.endObject()
            }
            w.endObject()
            w.key("actions")
            w.beginArray()
            for a in actions {
                w.beginObject()
                w.key("id")
                w.string(a.id)
                w.key("type")
                w.string(a.type)
                w.key("action")
                w.string(a.action.rawValue)
                if let v = a.value {
                    w.key("value")
                    w.writeValue(v)
                }
                w.endObject()
            }
            w.endArray()
        }
        w.key("errors")
        w.beginArray()
        for e in errors {
            w.errorEntry(field: e.field, section: e.section, code: e.code, message: e.message, params: e.params, messageKey: e.messageKey)
        }
        w.endArray()
        w.key("dropped")
        w.beginArray()
        for d in dropped { w.droppedEntry(key: d.key, reason: d.reason.rawValue) }
        w.endArray()
        if mode == .validate {
            w.key("hidden")
            w.writeValue(.array(hidden.map { .string($0) }))
            w.key("disabled")
            w.writeValue(.array(disabled.map { .string($0) }))
        }
        w.endObject()
        return w.bytes
    }
}

/// An answer that is not one formd gives.
public struct FormAnswerError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the answer.
    public let description: String
    init(_ description: String) { self.description = description }
}
