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
    public let text: String
    /// `text` must already be a valid JSON number literal.
    public init(literal text: String) { self.text = text }
    public var description: String { text }
}

/// A JSON object with its members in document order.
public struct JSONObject: Sendable, Hashable {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    public var isEmpty: Bool { members.isEmpty }
    public var count: Int { members.count }


    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }
}
