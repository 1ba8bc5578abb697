// Convenience accessors: each returns nil (or false) when the value has another type.
extension JSONValue {
    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The number literal exactly as written, e.g. `"4.0"`.
    public var numberText: String? { numberValue?.text }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Member `key` of an object (first one with that name); nil otherwise.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// Element `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }

    /// Parses strict JSON (default `JSONParser.Options`); mainly for tests.
    package init(parsing text: String, options: JSONParser.Options = .init()) throws(JSONParseError) {
        self = try JSONParser.parse(text, options: options).root
    }

    /// Parses strict JSON bytes (default `JSONParser.Options`).
    package init(parsing bytes: [UInt8], options: JSONParser.Options = .init()) throws(JSONParseError) {
        self = try JSONParser.parse(bytes, options: options).root
    }

    /// Compact JSON text (see `JSONWriter`).
    public var jsonText: String { String(decoding: JSONWriter.encode(self), as: UTF8.self) }

    /// Compact JSON bytes (see `JSONWriter`).
    public var jsonBytes: [UInt8] { JSONWriter.encode(self) }
}
