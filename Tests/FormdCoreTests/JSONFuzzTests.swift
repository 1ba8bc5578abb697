import FormdTestSupport
import Testing
@testable import FormdCore

/// Deterministic mutation fuzzing: hostile bytes must only ever produce a value or a
/// `JSONParseError` (never a trap), and whatever parses must survive write → parse.
@Suite struct JSONFuzzTests {

    static let seeds: [String] = [
        "{\"a\":[1,2.5e-3,{\"b\":\"\\u00e9\\ud83d\\ude00\"}],\"c\":null,\"d\":true}",
        "[\"é😀\",\"\\\\\\\"\\n\",-0,1E+9,{},[],[[{}]]]",
        "{\n  \"id\": \"x\",\n  \"fields\": [ {\"formula\": \"a + b\"}, ],\n}",
    ]
    static let interesting: [UInt8] = Array("{}[]\",:\\u0123456789-+.eE tfn\n".utf8)
        + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]

    @Test func mutatedInputsNeverTrap() throws {
        var rng = SplitMix64(state: 0x5EED)
        let options: [JSONParser.Options] = [
            .init(), .init(allowTrailingCommas: true, maxDepth: 3, recordLocations: true),
        ]
        var parsed = 0
        for iteration in 0..<20_000 {
            var bytes = Array(Self.seeds[iteration % Self.seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let pos = Int.random(in: 0...bytes.count, using: &rng)
                let b = Self.interesting.randomElement(using: &rng) ?? 0
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where pos < bytes.count: bytes[pos] = b
                case 1 where pos < bytes.count: bytes.remove(at: pos)
                default: bytes.insert(b, at: pos)
                }
            }
            for o in options {
                do {
                    let doc = try JSONParser.parse(bytes, options: o)
                    parsed += 1
                    let written = JSONWriter.encode(doc.root)
                    #expect(try JSONParser.parse(written).root == doc.root)
                    _ = doc.strictBytes(from: bytes)
                    _ = doc.stringContentLocation(of: "a", scalarOffset: 1)
                } catch {
                    #expect(error.offset >= 0 && error.offset <= bytes.count)
                    #expect(error.line >= 1 && error.column >= 1)
                }
            }
        }
        #expect(parsed > 100)  // the mutations are not all fatal
    }
}
