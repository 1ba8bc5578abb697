/// The members of validate and evaluate answers that both writers produce: the service's (from
/// the engine's arrays, `Evaluation+Response.swift`) and the typed state's
/// (`FormState+Wire.swift`). One definition of their shape (API.md §4).
extension JSONWriter {
    /// One entry of `errors`: `field` or `section` (neither for a form-level error), `code`,
    /// `message`, `params` in order, and `message_key` for PureForm inputs (SEMANTICS §12).
    @inline(__always)
    mutating func errorEntry(
        field: String?, section: String?, code: String, message: String, params: [(key: String, value: JSONValue)],
        messageKey: String? = nil
    ) {
        beginObject()
        if let field {
            key("field")
            string(field)
        } else if let section {
            key("section")
            string(section)
        }
        key("code")
        string(code)
        key("message")
        string(message)
        key("params")
        beginObject()
        for p in params {
            key(p.key)
            writeValue(p.value)
        }
        endObject()
        if let messageKey {
            key("message_key")
            string(messageKey)
        }
        endObject()
    }

    /// One entry of `dropped`: the submitted key and the reason (SEMANTICS §8).
    @inline(__always)
    mutating func droppedEntry(key field: String, reason: String) {
        beginObject()
        key("field")
        string(field)
        key("reason")
        string(reason)
        endObject()
    }
}
