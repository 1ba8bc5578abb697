extension JSONValue {
    /// Compact JSON text, for messages.
    var compactText: String { String(decoding: JSONWriter.encode(self), as: UTF8.self) }
}
