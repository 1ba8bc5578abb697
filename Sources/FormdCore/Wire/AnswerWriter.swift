/// What a validate or evaluate answer is written from: the engine's `Evaluation` (the server's
/// path, written straight from its per-slot arrays) or a typed `FormState` (an app's, or one read
/// from the wire). Both conform; `AnswerWriter` is the one place that knows the answer's keys and
/// their order (API reference §4-§5). The writer is generic, so each conformance is specialized
/// and its closures inlined: no intermediate tree, no boxing.
protocol AnswerContent {
    var answerMode: AnswerMode { get }
    var answerIsValid: Bool { get }
    /// `values`: visible fields with a value, in definition order (secret fields never).
    func forEachValue(_ body: (_ id: String, _ value: JSONValue) -> Void)
    /// `labels`: each visible multiple choice's chosen titles, in the order of `values`.
    func forEachLabelList(_ body: (_ id: String, _ labels: [String]) -> Void)
    /// `fields` (evaluate): every field in definition order.
    func forEachField(_ body: (_ id: String, _ visible: Bool, _ enabled: Bool, _ required: Bool) -> Void)
    /// `sections` (evaluate): every section with an id.
    func forEachSection(_ body: (_ id: String, _ visible: Bool) -> Void)
    /// `actions` (evaluate): the value targets that ran, then the structural ones in force.
    /// `value` is non-nil exactly for `update` (null when it cleared).
    func forEachAction(_ body: (_ id: String, _ type: String, _ action: String, _ value: JSONValue?) -> Void)
    /// `errors`, in order.
    func forEachError(_ body: (AnswerError) -> Void)
    /// Whether the answer has a `warnings` list: forms that declare a `warnings` block.
    var answerHasWarnings: Bool { get }
    /// `warnings` (SEMANTICS §6.1): the same entries as `errors`, in the same order.
    func forEachWarning(_ body: (AnswerError) -> Void)
    /// `dropped`: submitted keys not in `values` as sent, with their reason.
    func forEachDropped(_ body: (_ key: String, _ reason: String) -> Void)
    /// `hidden` and `disabled` (validate): ids in definition order.
    func forEachHidden(_ body: (String) -> Void)
    func forEachDisabled(_ body: (String) -> Void)
}

enum AnswerMode { case validate, evaluate }

/// One entry of `errors` as written: `field` or `section` (neither for a form-level error).
struct AnswerError {
    var field: String?
    var section: String?
    var code: String
    var message: String
    var params: [(key: String, value: JSONValue)]
    var messageKey: String?
}

enum AnswerWriter {
    /// Validate: `{"form", "version", "valid", "values", ["labels",] "errors", ["warnings",]
    /// "dropped", "hidden", "disabled"}`. Evaluate: `{"form", "version", "values", ["labels",]
    /// "fields", "sections", "actions", "errors", ["warnings",] "dropped"}`, then whatever `tail`
    /// adds (`state` and `changes`). `warnings` is there exactly for forms that declare one.
    @inline(__always)
    static func write(
        _ c: some AnswerContent, form: String, version: String, into w: inout JSONWriter,
        tail: (inout JSONWriter) -> Void = { _ in }
    ) {
        let validate = c.answerMode == .validate
        w.beginObject()
        w.key("form")
        w.string(form)
        w.key("version")
        w.string(version)
        if validate {
            w.key("valid")
            w.bool(c.answerIsValid)
        }
        w.key("values")
        w.beginObject()
        c.forEachValue { id, value in
            w.key(id)
            w.writeValue(value)
        }
        w.endObject()
        var labelsOpen = false
        c.forEachLabelList { id, labels in
            if !labelsOpen {
                w.key("labels")
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
            w.key("fields")
            w.beginObject()
            c.forEachField { id, visible, enabled, required in
                w.key(id)
                w.beginObject()
                w.key("visible")
                w.bool(visible)
                w.key("enabled")
                w.bool(enabled)
                w.key("required")
                w.bool(required)
                w.endObject()
            }
            w.endObject()
            w.key("sections")
            w.beginObject()
            c.forEachSection { id, visible in
                w.key(id)
                w.beginObject()
                w.key("visible")
                w.bool(visible)
                w.endObject()
            }
            w.endObject()
            w.key("actions")
            w.beginArray()
            c.forEachAction { id, type, action, value in
                w.beginObject()
                w.key("id")
                w.string(id)
                w.key("type")
                w.string(type)
                w.key("action")
                w.string(action)
                if let value {
                    w.key("value")
                    w.writeValue(value)
                }
                w.endObject()
            }
            w.endArray()
        }
        w.key("errors")
        w.beginArray()
        c.forEachError { w.errorEntry($0) }
        w.endArray()
        if c.answerHasWarnings {
            w.key("warnings")
            w.beginArray()
            c.forEachWarning { w.errorEntry($0) }
            w.endArray()
        }
        w.key("dropped")
        w.beginArray()
        c.forEachDropped { key, reason in
            w.beginObject()
            w.key("field")
            w.string(key)
            w.key("reason")
            w.string(reason)
            w.endObject()
        }
        w.endArray()
        if validate {
            w.key("hidden")
            w.beginArray()
            c.forEachHidden { w.string($0) }
            w.endArray()
            w.key("disabled")
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
        w.key("errors")
        w.beginArray()
        for e in errors { w.errorEntry(AnswerError(e)) }
        w.endArray()
    }
}

extension AnswerError {
    init(_ e: FormError) {
        switch e.subject {
        case .field(let id): field = id
        case .section(let id): section = id
        case .form: break
        }
        code = e.codeText
        message = e.message
        params = e.params
        messageKey = e.messageKey
    }
}

extension JSONWriter {
    /// One entry of `errors`: `field` or `section` (neither for a form-level error), `code`,
    /// `message`, `params` in order, and `message_key` for PureForm inputs (SEMANTICS §12).
    @inline(__always)
    mutating func errorEntry(_ e: AnswerError) {
        beginObject()
        if let field = e.field {
            key("field")
            string(field)
        } else if let section = e.section {
            key("section")
            string(section)
        }
        key("code")
        string(e.code)
        key("message")
        string(e.message)
        key("params")
        beginObject()
        for p in e.params {
            key(p.key)
            writeValue(p.value)
        }
        endObject()
        if let messageKey = e.messageKey {
            key("message_key")
            string(messageKey)
        }
        endObject()
    }
}
