/// A submission's members read where they are in its bytes (`JSONParserCore.scanSubmission`):
/// the form's static ids as keys (by position in its `KeyHints`; a few other keys decoded), and
/// each value the span of its
/// text when it is a string without escapes, a number, `true`, `false` or `null`; other values
/// (arrays, objects, strings with escapes) decoded. No `String` is made for a key or a plain
/// value until something reads it as one, and the members hold no reference to release.
///
/// `object(ids:bytes:)` gives the `JSONObject` that decoding the same bytes gives.
package struct SentMembers: Sendable {
    package enum Kind: UInt8, Sendable {
        case asciiString, string, number, `true`, `false`, null
        /// Decoded, in `decoded[Int(Member.decoded)]`.
        case other
    }

    package struct Member: Sendable {
        /// The index of the member's key among the form's static ids, or -1: then the key is
        /// `keys[Int(key)]` (a key that is no static id, or one spelled with escapes).
        var id: Int32
        var key: Int32
        /// Where the value's text starts in the bytes (a string's opening quote) and its length:
        /// `JSONObject.Member.textStart` and `textCount`. -1 for `.other` values.
        var textStart: Int32
        var textCount: Int32
        /// The index in `decoded` of an `.other` value.
        var decoded: Int32
        var kind: Kind
    }

    var members: [Member] = []
    var decoded: [JSONValue] = []
    var keys: [String] = []

    /// `member`'s value, made from `bytes` (the bytes scanned) unless in `decoded`.
    @inline(__always)
    static func value(_ member: Member, decoded: UnsafeBufferPointer<JSONValue>, bytes: UnsafeBufferPointer<UInt8>) -> JSONValue {
        let start = Int(member.textStart)
        let count = Int(member.textCount)
        switch member.kind {
        case .asciiString:
            return .string(String(ascii: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(start + count - 1)])))
        case .string:
            return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(start + count - 1)]), as: UTF8.self))
        case .number:
            return .number(JSONNumber(literal: String(ascii: UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]))))
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null: return .null
        case .other: return decoded[Int(member.decoded)]
        }
    }

    /// The object decoding the bytes gives (`Form.values(json:)`), with `ids` the keys' ids.
    static func object(
        _ members: UnsafeBufferPointer<Member>, decoded: UnsafeBufferPointer<JSONValue>, keys: UnsafeBufferPointer<String>, ids: KeyHints.View,
        bytes: UnsafeBufferPointer<UInt8>
    ) -> JSONObject {
        var out: [JSONObject.Member] = []
        out.reserveCapacity(members.count)
        for member in members {
            out.append(
                JSONObject.Member(
                    key: member.id >= 0 ? ids.id(Int(member.id)) : keys[Int(member.key)],
                    value: value(member, decoded: decoded, bytes: bytes), hint: member.id,
                    textStart: member.kind == .other ? -1 : member.textStart, textCount: member.textCount))
        }
        return JSONObject(out)
    }
}
