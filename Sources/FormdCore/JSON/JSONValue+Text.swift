extension JSONValue {
    /// Compact JSON text, for messages.
    var compactText: String { String(decoding: JSONWriter.encode(self), as: UTF8.self) }
}

extension JSONValue {
    /// An option id as text templates write it: a string as is, a number canonically, a boolean
    /// as `true`/`false`.
    var choiceText: String {
        switch self {
        case .string(let s): s
        case .number(let n): DecimalText.canonical(literal: n.text)
        case .bool(let b): b ? "true" : "false"
        default: compactText
        }
    }
}
