/// A value of a form: a JSON value that keeps numbers exactly as written (`4.0` stays `4.0`,
/// `12345678901234567890.5` loses no digit) and objects in order. Build it from Swift literals
/// (`"Ola"`, `42`, `2.5`, `true`, `[1, 2]`, `["a": 1]`, `.null`) or decode it from JSON.
public typealias FormValue = JSONValue

/// The values of a submission, keyed by field id, in order. A dictionary literal builds it:
/// `["email": "ola@example.com", "items[1].amount": 12.5, "terms": true]`.
public typealias FormValues = JSONObject

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `"text"`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42`.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(literal: String(value))) }
    /// The shortest decimal text that reads back as the same `Double` (`2.5`, `0.1`).
    public init(floatLiteral value: Double) { self = JSONValue(value) }
    /// `true`, `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, "a"]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `["key": value]`, members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    /// A number from a `Double`; a value JSON cannot hold (NaN, infinity) becomes `null`.
    public init(_ value: Double) {
        guard value.isFinite else { self = .null; return }
        if value == value.rounded(), abs(value) < 1e15 {
            self = .number(JSONNumber(literal: String(Int64(value))))
        } else {
            self = .number(JSONNumber(literal: "\(value)".replacingText("e+", with: "e")))
        }
    }

    /// Parses one JSON document (strict JSON, numbers kept exactly).
    public init(json bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser.parse(Array(bytes), options: .submission).root
    }

    /// The number as a `Double` (which may round it), if this is a number.
    public var doubleValue: Double? { if case .number(let n) = self { Double(n.text) } else { nil } }
    /// The number as an `Int`, if this is a number that is a whole `Int`.
    public var intValue: Int? {
        guard case .number(let n) = self else { return nil }
        if let i = Int(n.text) { return i }
        guard let d = Double(n.text), d == d.rounded(), abs(d) < 9.2e18 else { return nil }
        return Int(d)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// `["email": "ola@example.com", "age": 42]`, members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { Member(key: $0.0, value: $0.1) })
    }

    /// Parses a JSON object (strict JSON, numbers kept exactly); anything else is an error.
    public init(json bytes: some Collection<UInt8>) throws(JSONParseError) {
        guard case .object(let o) = try JSONValue(json: bytes) else {
            throw JSONParseError(message: "expected a JSON object", line: 1, column: 1, offset: 0)
        }
        self = o
    }

    /// The value of the first member named `key`. Setting replaces it, or appends a member;
    /// setting nil removes every member of that name.
    public subscript(key: String) -> JSONValue? {
        get {
            for m in members where m.key == key { return m.value }
            return nil
        }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let i = members.firstIndex(where: { $0.key == key }) {
                members[i].value = newValue
            } else {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// The member names, in order.
    public var keys: [String] { members.map({ $0.key }) }
}
