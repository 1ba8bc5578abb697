// Codable needs existentials of non-class protocols (`any Decoder`), which Embedded Swift
// (WebAssembly) does not have: native builds only.
#if !hasFeature(Embedded)
extension JSONValue: Codable {
    /// Decodes any JSON value. Through `JSONDecoder` numbers pass as `Double` (or `Int`) and
    /// object members come in the decoder's order; ``JSONValue/init(json:)`` keeps both exactly.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .number(JSONNumber(literal: String(i)))
        } else if let d = try? c.decode(Double.self) {
            self = JSONValue(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            let keyed = try decoder.container(keyedBy: AnyKey.self)
            var o = JSONObject()
            for k in keyed.allKeys { o.append(k.stringValue, try keyed.decode(JSONValue.self, forKey: k)) }
            self = .object(o)
        }
    }

    /// Encodes the value; numbers as `Int64` when they are whole, else as `Double`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if let i = Int64(n.text) { try c.encode(i) } else { try c.encode(Double(n.text) ?? 0) }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let o):
            var c = encoder.container(keyedBy: AnyKey.self)
            for m in o.members { try c.encode(m.value, forKey: AnyKey(m.key)) }
        }
    }
}

extension JSONObject: Codable {
    /// Decodes a JSON object (members in the decoder's order).
    public init(from decoder: any Decoder) throws {
        guard case .object(let o) = try JSONValue(from: decoder) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected an object"))
        }
        self = o
    }

    /// Encodes the members as a JSON object.
    public func encode(to encoder: any Encoder) throws { try JSONValue.object(self).encode(to: encoder) }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
#endif
