/// The state in the server's wire format (API.md §4, §5), both ways: the one reader of formd's
/// answers (`FormState(answer:)`, which the Swift client uses), and a state computed in-process
/// written as formd would answer it, by the same `AnswerWriter` the server uses.
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
        func entries(_ list: [JSONValue]) throws(FormAnswerError) -> [ValidationError] {
            var errors: [ValidationError] = []
            for e in list {
                let subject: ValidationError.Subject
                if let f = e["field"]?.stringValue { subject = .field(f) } else if let s = e["section"]?.stringValue { subject = .section(s) } else { subject = .form }
                let params = (e["params"]?.objectValue?.members ?? []).map { (key: $0.key, value: $0.value) }
                errors.append(
                    ValidationError(
                        subject: subject, code: try string(e["code"], "code"), message: try string(e["message"], "message"), params: params,
                        messageKey: e["message_key"]?.stringValue))
            }
            return errors
        }
        self.errors = try entries(o["errors"]?.arrayValue ?? [])
        self.warnings = try entries(o["warnings"]?.arrayValue ?? [])
        self.hasWarnings = o["warnings"] != nil
        var dropped: [Dropped] = []
        for d in o["dropped"]?.arrayValue ?? [] {
            guard let reason = Dropped.Reason(rawValue: try string(d["reason"], "reason")) else { throw FormAnswerError("unknown dropped reason") }
            dropped.append(Dropped(key: try string(d["field"], "dropped field"), reason: reason))
        }
        self.dropped = dropped
        if isValidate {
            // Validate names the hidden and disabled fields only: the others are visible and enabled.
            let hidden = Set((o["hidden"]?.arrayValue ?? []).compactMap({ $0.stringValue }))
            let disabled = Set((o["disabled"]?.arrayValue ?? []).compactMap({ $0.stringValue }))
            var ids = (o["hidden"]?.arrayValue ?? []).compactMap({ $0.stringValue })
            for d in (o["disabled"]?.arrayValue ?? []).compactMap({ $0.stringValue }) where !hidden.contains(d) { ids.append(d) }
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
    /// state, evaluate's for an evaluate state. Written by the server's own `AnswerWriter`.
    public var answerJSON: [UInt8] {
        var w = JSONWriter()
        AnswerWriter.write(self, head: AnswerWriter.head(form: form, version: version), into: &w)
        return w.bytes
    }
}

extension FormState: AnswerContent {
    var answerMode: AnswerMode { mode == .validate ? .validate : .evaluate }
    var answerIsValid: Bool { isValid }

    func forEachValue(_ body: (AnswerKey, AnswerValue) -> Void) {
        for m in values.members { body(.text(m.key), .value(m.value)) }
    }

    func forEachLabelList(_ body: (String, [String]) -> Void) {
        guard !labels.isEmpty else { return }
        // In the order of `values`, as formd writes them.
        for m in values.members { if let l = labels[m.key] { body(m.key, l) } }
    }

    func forEachField(_ body: (String, Bool, Bool, Bool) -> Void) {
        for f in fields { body(f.id, f.isVisible, f.isEnabled, f.isRequired) }
    }

    func forEachSection(_ body: (String, Bool) -> Void) {
        for s in sections { body(s.id, s.isVisible) }
    }

    func forEachAction(_ body: (String, String, String, JSONValue?) -> Void) {
        for a in actions { body(a.id, a.type, a.action.rawValue, a.value) }
    }

    func forEachError(_ body: (AnswerString?, String?, AnswerString, MessageText, ParamList, String?) -> Void) {
        for e in errors { body(e.field.map { .text($0) }, e.section, .text(e.code), .plain(e.message), ParamList(e.params), e.messageKey) }
    }

    func forEachDropped(_ body: (String, String) -> Void) {
        for d in dropped { body(d.key, d.reason.rawValue) }
    }

    var answerHasWarnings: Bool { hasWarnings }

    func forEachWarning(_ body: (AnswerString?, String?, AnswerString, MessageText, ParamList, String?) -> Void) {
        for e in warnings { body(e.field.map { .text($0) }, e.section, .text(e.code), .plain(e.message), ParamList(e.params), e.messageKey) }
    }

    func forEachHidden(_ body: (String) -> Void) {
        for f in fields where !f.isVisible { body(f.id) }
    }

    func forEachDisabled(_ body: (String) -> Void) {
        for f in fields where !f.isEnabled { body(f.id) }
    }
}

/// An answer that is not one formd gives.
public struct FormAnswerError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the answer.
    public let description: String
    init(_ description: String) { self.description = description }
}
