import FormdTestSupport
import Testing
@testable import FormdCore

/// `Form.values(json:)` takes keys written as the form's field ids from the form instead of
/// decoding them, and does not compare them with each other (ids matched in increasing order
/// are distinct). It must decode exactly
/// what `FormValues(json:)` decodes and refuse exactly what it refuses, with the same message:
/// these tests hold the two together on random submissions made of the form's ids (in and out
/// of order, repeated, escaped, unknown, nested), past 64 ids and past the 16 keys from which
/// duplicates are checked with an index.
@Suite struct FormValuesDecodeTests {
    /// 70 text fields `f0`…`f69`, one with an id that needs escaping in JSON, one non-ASCII.
    static let form: Form = {
        var fields: [String] = []
        for i in 0..<70 { fields.append(#"{"id": "f\#(i)", "title": "F", "type": "text"}"#) }
        fields.append(#"{"id": "q\"uote", "title": "Q", "type": "text"}"#)
        fields.append(#"{"id": "é", "title": "E", "type": "text"}"#)
        let json = #"{"title": "T", "groups": [{"title": "G", "sections": [{"id": "s", "fields": ["#
            + fields.joined(separator: ",") + "]}]}]}"
        return try! Form(id: "wide", json: Array(json.utf8))
    }()

    /// A key as a client may write it: the id plainly, or with an escape, or an unknown one.
    static func key(_ rng: inout SplitMix64) -> String {
        switch Int.random(in: 0..<40, using: &rng) {
        case 0: return #""\u0066\#(Int.random(in: 0..<70, using: &rng))""#  // f, escaped
        case 1: return #""q\"uote""#
        case 2: return #""q\u0022uote""#
        case 3: return #""é""#
        case 4: return #""e\u0301""#  // canonically equal to é
        case 5: return #""unknown""#
        case 6 where Int.random(in: 0..<10, using: &rng) == 0: return #""f1"#  // unterminated
        default: return #""f\#(Int.random(in: 0..<70, using: &rng))""#
        }
    }

    static func value(_ rng: inout SplitMix64) -> String {
        if Int.random(in: 0..<200, using: &rng) == 0 { return "{\"f3\":1,\"f3\":2}" }  // refused inside
        return ["\"text\"", "1.50", "true", "null", "[1,{\"f1\":2}]", "{\"f2\":1}", "\"\\u00e9\""].randomElement(using: &rng)!
    }

    static func submission(_ rng: inout SplitMix64) -> [UInt8] {
        let count = Int.random(in: 0..<3, using: &rng) == 0 ? Int.random(in: 0...80, using: &rng) : Int.random(in: 0...20, using: &rng)
        var next = Int.random(in: 0..<3, using: &rng)
        var members: [String] = []
        for _ in 0..<count {
            // Mostly in form order, as clients send them, so the expected id is tried first.
            let k: String
            if Int.random(in: 0..<4, using: &rng) != 0 && next < 70 {
                k = "\"f\(next)\""
                next += Int.random(in: 1...2, using: &rng)
            } else {
                k = key(&rng)
            }
            members.append(k + ":" + value(&rng))
        }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    static func generic(_ bytes: [UInt8]) -> Result<FormValues, JSONParseError> {
        Result { () throws(JSONParseError) in try FormValues(json: bytes) }
    }

    static func hinted(_ bytes: [UInt8]) -> Result<FormValues, JSONParseError> {
        Result { () throws(JSONParseError) in try form.values(json: bytes) }
    }

    @Test func decodesAndRefusesAsTheGenericDecoder() {
        var rng = SplitMix64(seed: 36)
        var refused = 0
        var duplicates = 0
        for _ in 0..<20_000 {
            let bytes = Self.submission(&rng)
            let a = Self.generic(bytes)
            let b = Self.hinted(bytes)
            switch (a, b) {
            case (.success(let x), .success(let y)):
                #expect(x == y, "\(String(decoding: bytes, as: UTF8.self))")
            case (.failure(let x), .failure(let y)):
                #expect(x.description == y.description, "\(String(decoding: bytes, as: UTF8.self))")
                refused += 1
                if x.message.hasPrefix("duplicate key") { duplicates += 1 }
            default:
                Issue.record("\(a) vs \(b) for \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // The generator reaches both paths: accepted submissions and refused ones, many of them
        // for duplicate keys.
        #expect(refused > 1_000 && refused < 19_000)
        #expect(duplicates > 500)
    }

    @Test func duplicatesAmongIdsAreRefused() {
        for json in [#"{"f0":1,"f0":2}"#, #"{"f0":1,"f1":1,"f0":2}"#, #"{"f0":1,"\u0066\u0030":2}"#, #"{"\u0066\u0030":1,"f0":2}"#,
                     #"{"é":1,"e\u0301":2}"#, #"{"q\"uote":1,"q\u0022uote":2}"#] {
            #expect(throws: JSONParseError.self, "\(json)") { _ = try Self.form.values(json: Array(json.utf8)) }
        }
        let ok = try? Self.form.values(json: Array(#"{"f0":"a","f2":"b","f1":"c"}"#.utf8))
        #expect(ok.map { $0.members.map(\.key) } == ["f0", "f2", "f1"])
    }

    /// The same 70 ids in reverse order, and one of them missing: a member's hint (the index of
    /// the id the parser matched, here in `form`) names another slot, or none, in this form.
    static let reversed: Form = {
        var fields: [String] = []
        for i in (1..<70).reversed() { fields.append(#"{"id": "f\#(i)", "title": "F", "type": "text", "validations": {"max_length": 3}}"#) }
        fields.append(#"{"id": "é", "title": "E", "type": "text"}"#)
        let json = #"{"title": "T", "groups": [{"title": "G", "sections": [{"id": "s", "fields": ["#
            + fields.joined(separator: ",") + "]}]}]}"
        return try! Form(id: "reversed", json: Array(json.utf8))
    }()

    /// Keys placed from the parser's hints answer as keys placed by name: for the form that
    /// decoded them, and for another form (hints are checked before use).
    @Test func hintedValuesAnswerAsDecodedOnesOnAnyForm() throws {
        var rng = SplitMix64(seed: 3636)
        var compared = 0
        var placedByHint = 0
        for _ in 0..<3_000 {
            let bytes = Self.submission(&rng)
            guard case .success(let plain) = Self.generic(bytes), case .success(let hinted) = Self.hinted(bytes) else { continue }
            placedByHint += hinted.members.filter { $0.hint >= 0 }.count
            #expect(plain.members.allSatisfy { $0.hint < 0 })
            for form in [Self.form, Self.reversed] {
                let a = try form.validateAnswer(plain)
                let b = try form.validateAnswer(hinted)
                #expect(String(decoding: a.json, as: UTF8.self) == String(decoding: b.json, as: UTF8.self),
                        "\(form.id): \(String(decoding: bytes, as: UTF8.self))")
            }
            compared += 1
        }
        #expect(compared > 1_000)
        #expect(placedByHint > 5_000)
    }

    @Test func notAnObjectIsRefused() {
        #expect(throws: JSONParseError.self) { _ = try Self.form.values(json: Array("[1]".utf8)) }
        #expect(throws: JSONParseError.self) { _ = try Self.form.values(json: Array("".utf8)) }
    }
}
