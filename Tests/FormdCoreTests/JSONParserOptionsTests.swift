import Testing
@testable import FormdCore

private func parseError(
    _ text: String, _ options: JSONParser.Options = .init()
) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(text, options: options)
        return nil
    } catch {
        return error
    }
}

private let trailing = JSONParser.Options(allowTrailingCommas: true)

@Suite struct JSONParserOptionsTests {
    // MARK: Trailing commas

    @Test func trailingCommasRejectedByDefault() {
        #expect(parseError("[1,]")?.message == "trailing comma")
        #expect(parseError("{\"a\":[1],}")?.offset == 8)
    }

    @Test(arguments: [
        ("[1,2,]", [4], "[1,2]"),
        ("{\"a\":1,}", [6], "{\"a\":1}"),
        ("{\"a\":[1,],}", [7, 9], "{\"a\":[1]}"),
        ("[1,2 , ]", [5], "[1,2  ]"),
        ("[\n  {\"x\": [\"é\",],\n  },\n]\n", [15, 17, 22], "[\n  {\"x\": [\"é\"]\n  }\n]\n"),
        ("[[[],],]", [4, 6], "[[[]]]"),
        ("[1,2]", [], "[1,2]"),
    ])
    func trailingCommasAcceptedWithOption(text: String, offsets: [Int], strict: String) throws {
        let bytes = Array(text.utf8)
        let doc = try JSONParser.parse(bytes, options: trailing)
        #expect(doc.trailingCommaOffsets == offsets)
        for o in offsets { #expect(bytes[o] == UInt8(ascii: ",")) }
        let served = doc.strictBytes(from: bytes)
        #expect(String(decoding: served, as: UTF8.self) == strict)
        // The served bytes are strict JSON with the same value.
        let reparsed = try JSONParser.parse(served)
        #expect(reparsed.root == doc.root)
        #expect(reparsed.trailingCommaOffsets.isEmpty)
    }

    @Test(arguments: ["[,]", "{,}", "[1,,]", "{\"a\":1,,}", "[1,]]", ",", "[1],"])
    func onlyOneTrailingCommaAfterAValue(text: String) {
        #expect(parseError(text, trailing) != nil)
    }

    @Test func strictBytesWithoutCommasIsIdentity() throws {
        let bytes = Array("{ \"a\" : [ 1 ] }".utf8)
        #expect(try JSONParser.parse(bytes, options: trailing).strictBytes(from: bytes) == bytes)
    }

    // MARK: Depth

    @Test func depth64Accepted65Rejected() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let e = try #require(parseError(deep))
        #expect(e.message == "nesting deeper than 64")
        #expect(e.offset == 64)
        #expect(e.column == 65)
    }

    @Test func depthCountsObjectsAndArraysAlike() throws {
        let ok = String(repeating: "{\"a\":[", count: 32) + String(repeating: "]}", count: 32)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = "[" + ok + "]"
        #expect(parseError(deep)?.message == "nesting deeper than 64")
        // Scalars inside the deepest container do not add a level.
        let scalars = String(repeating: "[", count: 64) + "1,\"x\",null" + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(scalars) }
    }

    @Test func customDepth() {
        let o = JSONParser.Options(maxDepth: 2)
        #expect(parseError("[[1]]", o) == nil)
        #expect(parseError("[[[1]]]", o)?.message == "nesting deeper than 2")
        #expect(parseError("{\"a\":{\"b\":{}}}", o)?.column == 11)
    }

    @Test func hostileNestingFailsFastWithoutStackOverflow() {
        let huge = String(repeating: "[", count: 200_000)
        #expect(parseError(huge)?.message == "nesting deeper than 64")
        // maxDepth is clamped so that a careless option cannot blow the stack.
        let o = JSONParser.Options(maxDepth: 1_000_000)
        #expect(parseError(huge, o)?.message == "nesting deeper than 512")
    }

    // MARK: Numbers and strings

    @Test func numberLength() throws {
        let n64 = "-1." + String(repeating: "5", count: 57) + "e+12"
        #expect(n64.utf8.count == 64)
        #expect(try JSONValue(parsing: n64).numberText == n64)
        let e = try #require(parseError("[-1" + n64.dropFirst() + "]"))
        #expect(e.message == "number longer than 64 characters")
        #expect(e.column == 2)
        #expect(parseError("123456", .init(maxNumberLength: 5))?.message == "number longer than 5 characters")
        #expect(parseError("12345", .init(maxNumberLength: 5)) == nil)
    }

    @Test func maxStringBytes() {
        let o = JSONParser.Options(maxStringBytes: 4)
        #expect(parseError("\"abcd\"", o) == nil)
        #expect(parseError("\"\\n\\t\"", o) == nil)
        #expect(parseError("\"abcde\"", o)?.message == "string longer than 4 bytes")
        #expect(parseError("[\"\\nabc\"]", o)?.column == 2)  // escapes count as written
        #expect(parseError("{\"abcde\":1}", o)?.message == "string longer than 4 bytes")  // keys too
        #expect(parseError("\"éé\"", o) == nil)
        #expect(parseError("\"ééé\"", o) != nil)
    }

    // MARK: Duplicate keys

    @Test func duplicateKeysNamed() throws {
        let e = try #require(parseError("{\n  \"id\": 1,\n  \"x\": {\"id\": 2},\n  \"id\": 3\n}"))
        #expect(e.message == "duplicate key \"id\"")
        #expect((e.line, e.column) == (4, 3))
        // Same key in different objects is fine.
        #expect(parseError("[{\"id\":1},{\"id\":1}]") == nil)
        // Also with trailing commas allowed (definitions).
        #expect(parseError("{\"a\":1,\"a\":1,}", trailing)?.message == "duplicate key \"a\"")
    }

    @Test func duplicateKeysInLargeObjectsUseTheSetPath() throws {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }
        #expect(parseError("{" + members.joined(separator: ",") + "}") == nil)
        for dup in [0, 15, 16, 17, 39] {
            let text = "{" + members.joined(separator: ",") + ",\"k\(dup)\":0}"
            let e = try #require(parseError(text))
            #expect(e.message == "duplicate key \"k\(dup)\"")
            #expect(e.offset == text.utf8.count - "\"k\(dup)\":0}".utf8.count)
        }
    }

    @Test func duplicateKeysInObjectsThatGrowTheIndex() throws {
        // Past the linear limit the keys go to a `KeyIndex`, which grows (64 buckets, then
        // doubling): a duplicate is found whichever member it repeats, after any growth.
        let members = (0..<5000).map { "\"key-\($0)\":\($0)" }
        #expect(parseError("{" + members.joined(separator: ",") + "}") == nil)
        for dup in [0, 16, 31, 32, 63, 64, 1000, 4095, 4999] {
            let text = "{" + members.joined(separator: ",") + ",\"key-\(dup)\":0}"
            #expect(parseError(text)?.message == "duplicate key \"key-\(dup)\"", "key-\(dup)")
        }
        // Canonically equivalent keys (equal as Swift strings, equal hashes) are duplicates too.
        let many = (0..<100).map { "\"k\($0)\":0" }.joined(separator: ",")
        #expect(parseError("{" + many + ",\"\u{E9}\":1,\"e\u{301}\":2}")?.message.hasPrefix("duplicate key") == true)
    }

    @Test func escapedAndCanonicallyEquivalentKeysAreDuplicates() {
        #expect(parseError("{\"a\":1,\"\\u0061\":2}")?.message == "duplicate key \"a\"")
        // Swift String equality (used by JSONObject lookup) is canonical equivalence.
        #expect(parseError("{\"\u{E9}\":1,\"e\u{301}\":2}")?.message.hasPrefix("duplicate key") == true)
    }

    @Test func duplicateKeyMessageIsEscapedAndShort() throws {
        let long = String(repeating: "x", count: 1000)
        let e = try #require(parseError("{\"\(long)\":1,\"\(long)\":2}"))
        #expect(e.message == "duplicate key \"" + String(repeating: "x", count: 64) + "…\"")
        #expect(parseError("{\"a\\nb\":1,\"a\\nb\":2}")?.message == "duplicate key \"a\\u000Ab\"")
    }

    // MARK: Surrogates and strings

    @Test func pairedSurrogatesDecode() throws {
        #expect(try JSONValue(parsing: "\"\\ud834\\udd1e\"").stringValue == "𝄞")
        #expect(try JSONValue(parsing: "\"\\udbff\\udfff\"").stringValue == "\u{10FFFF}")
        #expect(try JSONValue(parsing: "\"a\\u0000b\"").stringValue == "a\u{0}b")
    }

    @Test func hostileInputsDoNotHang() throws {
        let manyMembers = "{" + (0..<50_000).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
        #expect(try JSONValue(parsing: manyMembers).objectValue?.count == 50_000)
        let longString = "\"" + String(repeating: "a", count: 1_000_000)
        #expect(parseError(longString)?.message == "unterminated string")
        let longNumber = String(repeating: "9", count: 1_000_000)
        #expect(parseError(longNumber)?.message == "number longer than 64 characters")
    }

    /// Objects' members start in room on the stack and move to memory of their own past it:
    /// objects below, at and past that room, nested, and errors thrown with members in either.
    @Test(arguments: [1, MemberStack.lentCapacity - 1, MemberStack.lentCapacity, MemberStack.lentCapacity + 1, 300])
    func membersInLentRoomAndPastIt(count: Int) throws {
        let inner = (0..<count).map { "\"k\($0)\":{\"x\":[\($0)],\"y\":\"v\($0)\"}" }.joined(separator: ",")
        let text = "{\"a\":1,\"o\":{\(inner)},\"z\":\"end\"}"
        let value = try JSONValue(parsing: Array(text.utf8))
        #expect(value.jsonText == text)
        #expect(value["o"]?.objectValue?.count == count)
        // Cut short inside the last member, and a duplicate key at the end.
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(text.dropLast(8).utf8)) }
        let duplicate = "{\"o\":{\(inner),\"k0\":1}}"
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(duplicate.utf8)) }
    }
}
