import Testing
@testable import FormdCore

@Suite struct JSONWriterTests {
    @Test(arguments: [
        "null", "true", "false", "0", "-0.0e-0", "1E+2", "123456789012345678901234567890",
        "\"\"", "\"plain ascii\"", "\"\\\"\\\\\"", "\"\\b\\f\\n\\r\\t\"", "\"\\u0000\\u0001\\u001f\"",
        "\"é😀\u{2028}\u{7F}/\"", "[]", "{}", "[[],{},[{}]]",
        "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"x\"},\"\":\"\"}",
        "{\"z\":1,\"a\":2,\"m\":3}",
    ])
    func roundTripCanonicalCompactInput(text: String) throws {
        let bytes = Array(text.utf8)
        let value = try JSONValue(parsing: bytes)
        #expect(JSONWriter.encode(value) == bytes)
        #expect(value.jsonText == text)
    }

    @Test func escapesEveryControlCharacter() throws {
        let all = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let out = JSONValue.string(all).jsonText
        #expect(out.hasPrefix("\"\\u0000\\u0001\\u0002"))
        #expect(out.contains("\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e"))
        #expect(out.hasSuffix("\\u001f\""))
        #expect(try JSONValue(parsing: out).stringValue == all)
    }

    @Test func streamingWithCommaHandling() {
        var w = JSONWriter()
        w.beginObject()
        w.key("ok"); w.bool(false)
        w.key("errors"); w.beginArray()
        w.beginObject(); w.key("field"); w.string("a\"b"); w.key("n"); w.number(-42); w.endObject()
        w.beginObject(); w.endObject()
        w.number(text: "4.0"); w.null(); w.rawValue(Array("{\"x\":[1]}".utf8))
        w.beginArray(); w.endArray()
        w.endArray()
        w.key("v"); w.number(JSONNumber(literal: "1e3"))
        w.key("s"); w.string("é")
        w.endObject()
        #expect(
            String(decoding: w.bytes, as: UTF8.self)
                == "{\"ok\":false,\"errors\":[{\"field\":\"a\\\"b\",\"n\":-42},{},4.0,null,{\"x\":[1]},[]],\"v\":1e3,\"s\":\"é\"}"
        )
    }

    @Test func integers() {
        func text(_ n: Int) -> String {
            var w = JSONWriter()
            w.number(n)
            return String(decoding: w.bytes, as: UTF8.self)
        }
        for n in [0, 7, -7, 10, 1_000_000, Int.max, Int.min] { #expect(text(n) == String(n)) }
    }

    @Test func streamedTopLevelSequenceAndAppending() {
        var w = JSONWriter(appendingTo: Array("data: ".utf8))
        w.string("x")
        #expect(String(decoding: w.bytes, as: UTF8.self) == "data: \"x\"")
    }

    @Test func deterministicAndOrderPreserving() throws {
        var o = JSONObject()
        o.append("b", .number(JSONNumber(literal: "2")))
        o.append("a", .array([.string("x"), .null]))
        let v = JSONValue.object(o)
        #expect(JSONWriter.encode(v) == JSONWriter.encode(v))
        #expect(v.jsonText == "{\"b\":2,\"a\":[\"x\",null]}")
    }

    @Test func accessors() throws {
        let v = try JSONValue(parsing: "{\"s\":\"x\",\"n\":4.0,\"b\":true,\"z\":null,\"a\":[1],\"o\":{}}")
        #expect(v["s"]?.stringValue == "x")
        #expect(v["n"]?.numberText == "4.0")
        #expect(v["b"]?.boolValue == true)
        #expect(v["z"]?.isNull == true)
        #expect(v["a"]?.arrayValue?.count == 1)
        #expect(v["a"]?[0]?.numberText == "1")
        #expect(v["a"]?[1] == nil)
        #expect(v["o"]?.objectValue?.isEmpty == true)
        #expect(v["s"]?.numberText == nil)
        #expect(v.stringValue == nil)
        #expect(v["missing"] == nil)
        #expect(v.jsonBytes == JSONWriter.encode(v))
    }

    /// `array(reservingCapacity:_:)` gives the bytes `bytes` would, on each of its paths: on
    /// the stack up to 1 KiB, straight into the array past it, and moved to the writer's own
    /// buffer (then copied) when the writing outgrows the capacity reserved.
    @Test(arguments: [(16, 10), (16, 40), (1024, 900), (1024, 5000), (1025, 1000), (2048, 1500), (2048, 9000)])
    func arrayIsWhatBytesGives(capacity: Int, strings: Int) {
        func write(_ w: inout JSONWriter) {
            w.beginArray()
            for k in 0..<strings / 10 { w.string("s\(k)\"q\n") }
            w.endArray()
        }
        var plain = JSONWriter(reservingCapacity: 16)
        write(&plain)
        let direct = JSONWriter.array(reservingCapacity: capacity) { write(&$0) }
        #expect(direct == plain.bytes)
        #expect(direct.count > 2 || strings < 10)
        #expect((try? JSONValue(parsing: direct)) != nil)
    }
}
