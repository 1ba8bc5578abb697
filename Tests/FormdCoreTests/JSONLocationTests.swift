import Testing
@testable import FormdCore

@Suite struct JSONLocationTests {
    // Line 1 has multi-byte scalars (ë, Cyrillic) before later keys and values;
    // line 2 has strings with escapes. Columns below are counted by hand in scalars.
    static let text =
        "{\"name\": \"Zo\u{EB}\", \"list\": [1, {\"ключ\": \"знач\", \"b\": true}],\n"
        + "  \"f\": \"ab\\ncd\", \"g\": \"\\u00e9x\"}"

    static func doc() throws -> JSONDocument {
        try JSONParser.parse(text, options: .init(recordLocations: true))
    }

    static func at(_ loc: FormdCore.SourceLocation?) -> String { loc.map { "\($0.line):\($0.column)" } ?? "nil" }

    @Test(arguments: [
        ("", "1:1", "nil"),
        ("name", "1:10", "1:2"),
        ("list", "1:25", "1:17"),
        ("list[0]", "1:26", "nil"),
        ("list[1]", "1:29", "nil"),
        ("list[1].ключ", "1:38", "1:30"),
        ("list[1].b", "1:51", "1:46"),
        ("f", "2:8", "2:3"),
        ("g", "2:23", "2:18"),
    ])
    func valueAndKeyLocations(path: String, value: String, key: String) throws {
        let doc = try Self.doc()
        #expect(Self.at(doc.location(of: path)) == value)
        #expect(Self.at(doc.keyLocation(of: path)) == key)
        // Byte offsets point at the value's first byte / the key's quote.
        let bytes = Array(Self.text.utf8)
        let first = try #require(doc.location(of: path)).offset
        #expect(bytes[first] == Array(JSONWriter.encode(try #require(pathValue(doc.root, path))))[0])
        if let k = doc.keyLocation(of: path) { #expect(bytes[k.offset] == UInt8(ascii: "\"")) }
    }

    /// Resolves the few path shapes used here, independently of the parser.
    func pathValue(_ root: JSONValue, _ path: String) -> JSONValue? {
        switch path {
        case "": return root
        case "list[0]": return root["list"]?[0]
        case "list[1]": return root["list"]?[1]
        case "list[1].ключ": return root["list"]?[1]?["ключ"]
        case "list[1].b": return root["list"]?[1]?["b"]
        default: return root[path]
        }
    }

    @Test func unknownPathsAndDisabledRecording() throws {
        let doc = try Self.doc()
        #expect(doc.location(of: "nope") == nil)
        #expect(doc.location(of: "list[2]") == nil)
        #expect(doc.hasLocations)
        let plain = try JSONParser.parse(Self.text)
        #expect(!plain.hasLocations)
        #expect(plain.location(of: "") == nil)
        #expect(plain.stringContentLocation(of: "f") == nil)
    }

    @Test func stringContentMapping() throws {
        let doc = try Self.doc()
        // "Zoë": content starts at 1:11; ë is two bytes.
        #expect(Self.at(doc.stringContentLocation(of: "name")) == "1:11")
        let endOfName = try #require(doc.stringContentLocation(of: "name", scalarOffset: 3))
        #expect(Self.at(endOfName) == "1:14")
        #expect(Array(Self.text.utf8)[endOfName.offset] == UInt8(ascii: "\""))
        #expect(doc.stringContentLocation(of: "name", scalarOffset: 4) == nil)
        #expect(doc.stringContentLocation(of: "name", scalarOffset: -1) == nil)
        // "ab\ncd": the escape is two columns wide in the file.
        let f = (0...5).map { Self.at(doc.stringContentLocation(of: "f", scalarOffset: $0)) }
        #expect(f == ["2:9", "2:10", "2:11", "2:13", "2:14", "2:15"])
        // "\u00e9x": the escape is six columns wide.
        let g = (0...2).map { Self.at(doc.stringContentLocation(of: "g", scalarOffset: $0)) }
        #expect(g == ["2:24", "2:30", "2:31"])
        let gEnd = try #require(doc.stringContentLocation(of: "g", scalarOffset: 2))
        #expect(Array(Self.text.utf8)[gEnd.offset] == UInt8(ascii: "\""))
        // Not a string.
        #expect(doc.stringContentLocation(of: "list") == nil)
    }

    @Test func surrogatePairEscapeIsTwelveColumns() throws {
        let doc = try JSONParser.parse(
            "[\"é\\ud83d\\ude00é\\tz\"]", options: .init(recordLocations: true))
        let cols = (0...5).map { doc.stringContentLocation(of: "[0]", scalarOffset: $0)?.column }
        // [ " é \ud83d\ude00 é \t z "
        // 1 2 3 4            16 17 19 20
        #expect(cols == [3, 4, 16, 17, 19, 20])
    }

    @Test func nestedPathsTopLevelArray() throws {
        let text = "[{\"a\":[0,[1]]},\n {\"groups\":[{\"sections\":[{\"fields\":[{},{\"formula\":\"x+1\"}]}]}]}]"
        let doc = try JSONParser.parse(text, options: .init(recordLocations: true))
        #expect(Self.at(doc.location(of: "[0].a[1][0]")) == "1:11")
        #expect(Self.at(doc.location(of: "[1]")) == "2:2")
        let path = "[1].groups[0].sections[0].fields[1].formula"
        #expect(Self.at(doc.keyLocation(of: path)) == "2:41")
        #expect(Self.at(doc.location(of: path)) == "2:51")
        #expect(Self.at(doc.stringContentLocation(of: path, scalarOffset: 2)) == "2:54")
        #expect(JSONDocument.memberPath(JSONDocument.elementPath("", 1), "groups") == "[1].groups")
        #expect(JSONDocument.memberPath("", "a") == "a")
    }

    @Test func locationsAreLinearOnOneHugeLine() throws {
        // 20k values on one line: the incremental tracker keeps this fast.
        let text = "[" + Array(repeating: "\"é\"", count: 20_000).joined(separator: ",") + "]"
        let doc = try JSONParser.parse(text, options: .init(recordLocations: true))
        #expect(doc.location(of: "[19999]")?.column == 2 + 19_999 * 4)
    }

    @Test func crlfLines() throws {
        let doc = try JSONParser.parse("{\r\n\"a\":\r\n 1}", options: .init(recordLocations: true))
        #expect(Self.at(doc.keyLocation(of: "a")) == "2:1")
        #expect(Self.at(doc.location(of: "a")) == "3:2")
    }
}
