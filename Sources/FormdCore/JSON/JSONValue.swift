/// A JSON value as formd reads and writes it.
///
/// Numbers keep the literal text they were written with (`4.0` stays `4.0`), so that
/// definitions are served back unchanged and coercion (SEMANTICS §2) can decide exactly.
/// Objects keep their members in document order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON number literal, kept exactly as written (validated against the JSON grammar).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, e.g. `"4.0"`.
    public let text: String
    /// `text` must already be a valid JSON number literal.
    public init(literal text: String) { self.text = text }
    /// The literal.
    public var description: String { text }
}

/// A JSON object with its members in document order.
public struct JSONObject: Sendable, Hashable {
    /// One `"key": value` pair.
    public struct Member: Sendable, Hashable {
        /// The member name.
        public var key: String
        /// Its value.
        public var value: JSONValue
        /// For a submission's member: the index of the form's static id the parser matched the
        /// key with (`KeyHints`), else -1. A hint, checked before use (the values may be
        /// validated against another form): it spares placing the key a search of the ids.
        /// Not part of the member's value (`==`, `hash`); it fits the member's padding.
        package var hint: Int32 = -1
        /// For a member of a parsed object whose value's text is exactly what `JSONWriter`
        /// writes for the value (a number, `true`, `false`, `null`, a string without escapes):
        /// where that text starts in the bytes parsed, and its length; else `textStart` is -1
        /// (and `textCount` is not to be read). An answer that sends the value back as it was
        /// sent copies it (`FormSubmission`). Not part of the member's value.
        package var textStart: Int32 = -1
        package var textCount: Int32 = 0

        /// A member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }

        init(key: String, value: JSONValue, hint: Int32, textStart: Int32, textCount: Int32) {
            self.key = key
            self.value = value
            self.hint = hint
            self.textStart = textStart
            self.textCount = textCount
        }

        public static func == (a: Member, b: Member) -> Bool { a.key == b.key && a.value == b.value }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(value)
        }
    }

    /// The members, in order (a name may repeat: the first one counts for lookups).
    public var members: [Member]

    /// An object of these members.
    public init(_ members: [Member] = []) { self.members = members }

    /// No members.
    public var isEmpty: Bool { members.isEmpty }
    /// The number of members.
    public var count: Int { members.count }


    /// Adds a member at the end (even if the name is already there).
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }
}
