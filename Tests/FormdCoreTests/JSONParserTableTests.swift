import Testing
@testable import FormdCore

/// One row of the table: input bytes and either the compact re-encoding of the parsed
/// value or the expected error message and `line:column`.
struct JSONTableCase: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable { case value(String), error(String, String) }
    let input: [UInt8]
    let expected: Expected
    var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }

    static func ok(_ text: String, _ compact: String? = nil) -> Self {
        .init(input: Array(text.utf8), expected: .value(compact ?? text))
    }
    static func fail(_ text: String, _ message: String, _ at: String) -> Self {
        .init(input: Array(text.utf8), expected: .error(message, at))
    }
    static func fail(bytes: [UInt8], _ message: String, _ at: String) -> Self {
        .init(input: bytes, expected: .error(message, at))
    }
}

let jsonTable: [JSONTableCase] = [
    // Valid
    .ok("null"), .ok("true"), .ok("false"), .ok("0"), .ok("-0"), .ok("1.5e10"),
    .ok("-1.25E-3"), .ok("1e+2"), .ok("4.0"), .ok("1E400"), .ok("-0.0e-0"),
    .ok("\"abc\""), .ok("\"\""), .ok("[]"), .ok("{}"), .ok("[1,2,3]"),
    .ok(" \t\r\n[ 1 , {\"a\" : null} ]\n", "[1,{\"a\":null}]"),
    .ok("\"\\u00e9\"", "\"é\""),
    .ok("\"\\ud83d\\ude00\"", "\"😀\""),
    .ok("\"\\uD83D\\uDE00\"", "\"😀\""),
    .ok("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\\"\\\\/\\b\\f\\n\\r\\t\""),
    .ok("\"é😀\""),
    .ok("{\"a\":{\"b\":[{}]}}"),
    .ok("\"\\u0000\""),
    .ok("\"\\u001F\"", "\"\\u001f\""),
    .ok("\"\\u2028\\u2029\"", "\"\u{2028}\u{2029}\""),
    .ok("{\"é\":1,\"e\":2}"),
    .ok("\"\u{7F}\""),
    .ok("[[[[[]]]]]"),
    .ok("{\"a\":1,\"b\":[true,false,null],\"c\":\"x\"}"),
    // Invalid
    .fail("", "empty input", "1:1"),
    .fail("   ", "empty input", "1:4"),
    .fail("\n\n", "empty input", "3:1"),
    .fail("[1,2,]", "trailing comma", "1:5"),
    .fail("{\"a\":1,}", "trailing comma", "1:7"),
    .fail("{\"a\":1 \"b\":2}", "unexpected '\"', expected ',' or '}' after object member", "1:8"),
    .fail("{\"a\":1,\"a\":2}", "duplicate key \"a\"", "1:8"),
    .fail("01", "leading zeros are not allowed", "1:1"),
    .fail("-01", "leading zeros are not allowed", "1:1"),
    .fail("[00]", "leading zeros are not allowed", "1:2"),
    .fail("+1", "unexpected '+', expected a value", "1:1"),
    .fail(".5", "unexpected '.', expected a value", "1:1"),
    .fail("1.", "expected digit after '.'", "1:3"),
    .fail("1.e5", "expected digit after '.'", "1:3"),
    .fail("1e", "expected digit in exponent", "1:3"),
    .fail("1e+", "expected digit in exponent", "1:4"),
    .fail("-", "expected digit after '-'", "1:2"),
    .fail("-a", "expected digit after '-'", "1:2"),
    .fail("NaN", "unexpected 'N', expected a value", "1:1"),
    .fail("Infinity", "unexpected 'I', expected a value", "1:1"),
    .fail("tru", "invalid literal, expected 'true'", "1:1"),
    .fail("nul", "invalid literal, expected 'null'", "1:1"),
    .fail("fals", "invalid literal, expected 'false'", "1:1"),
    .fail("True", "unexpected 'T', expected a value", "1:1"),
    .fail("[1 2]", "unexpected '2', expected ',' or ']' after array element", "1:4"),
    .fail("[1,,2]", "unexpected ',', expected a value", "1:4"),
    .fail("[,1]", "unexpected ',', expected a value", "1:2"),
    .fail("{,}", "unexpected ',', expected string key", "1:2"),
    .fail("{\"a\" 1}", "unexpected '1', expected ':' after object key", "1:6"),
    .fail("{a:1}", "unexpected 'a', expected string key", "1:2"),
    .fail("{\"a\":}", "unexpected '}', expected a value", "1:6"),
    .fail("{1:2}", "unexpected '1', expected string key", "1:2"),
    .fail("[1]x", "unexpected 'x' after JSON value", "1:4"),
    .fail("1 2", "unexpected '2' after JSON value", "1:3"),
    .fail("{} {}", "unexpected '{' after JSON value", "1:4"),
    .fail("\"abc", "unterminated string", "1:1"),
    .fail("[\"a\\", "unterminated string", "1:2"),
    .fail("[", "unexpected end of input, expected a value", "1:2"),
    .fail("[1", "unexpected end of input, expected ',' or ']' after array element", "1:3"),
    .fail("{\"a\":1", "unexpected end of input, expected ',' or '}' after object member", "1:7"),
    .fail("{\"a\"", "unexpected end of input, expected ':' after object key", "1:5"),
    .fail("{", "unexpected end of input, expected string key", "1:2"),
    .fail("\"a\tb\"", "unescaped control character U+0009 in string", "1:3"),
    .fail("\"a\nb\"", "unescaped control character U+000A in string", "1:3"),
    .fail("\"\\n\u{1}\"", "unescaped control character U+0001 in string", "1:4"),
    .fail("\"\\x\"", "invalid escape '\\x'", "1:2"),
    .fail("\"\\u12\"", "invalid \\u escape", "1:2"),
    .fail("\"\\u12G4\"", "invalid \\u escape", "1:2"),
    .fail("\"\\ud800\"", "lone surrogate \\ud800", "1:2"),
    .fail("\"\\uDBFF\"", "lone surrogate \\udbff", "1:2"),
    .fail("\"\\udc00\"", "lone surrogate \\udc00", "1:2"),
    .fail("\"ab\\ud800\\u0041\"", "lone surrogate \\ud800", "1:4"),
    .fail("\"\\ud800\\ud800\"", "lone surrogate \\ud800", "1:2"),
    .fail("\"\\ud800x\"", "lone surrogate \\ud800", "1:2"),
    .fail("\"\\ude00\\ud83d\"", "lone surrogate \\ude00", "1:2"),
    .fail("'a'", "unexpected ''', expected a value", "1:1"),
    .fail("\u{1}", "unexpected character U+0001, expected a value", "1:1"),
    .fail("é", "unexpected character U+00E9, expected a value", "1:1"),
    .fail("[1,\u{A0}2]", "unexpected character U+00A0, expected a value", "1:4"),
    .fail("{\"a\":1}\n}", "unexpected '}' after JSON value", "2:1"),
    .fail("[\n  1,\n  2 3]", "unexpected '3', expected ',' or ']' after array element", "3:5"),
    .fail("[\"é\", x]", "unexpected 'x', expected a value", "1:7"),
    .fail("{\"😀\":1,\"😀\":2}", "duplicate key \"😀\"", "1:8"),
    .fail("{\"a\\\"b\":1,\"a\\\"b\":2}", "duplicate key \"a\\\"b\"", "1:11"),
    .fail("\r\n  [ 1,\r\n\"é\" :", "unexpected ':', expected ',' or ']' after array element", "3:5"),
    // Byte order mark: rejected, not skipped.
    .fail(bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], "byte order mark not allowed", "1:1"),
    // Invalid UTF-8
    .fail(bytes: [0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8", "1:2"),  // overlong '/'
    .fail(bytes: [0x22, 0xC1, 0xBF, 0x22], "invalid UTF-8", "1:2"),  // overlong
    .fail(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], "invalid UTF-8", "1:2"),  // overlong 3-byte
    .fail(bytes: [0x22, 0xE0, 0x9F, 0xBF, 0x22], "invalid UTF-8", "1:2"),  // overlong U+07FF
    .fail(bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], "invalid UTF-8", "1:2"),  // overlong 4-byte
    .fail(bytes: [0x22, 0xF0, 0x8F, 0xBF, 0xBF, 0x22], "invalid UTF-8", "1:2"),  // overlong U+FFFF
    .fail(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8", "1:2"),  // U+D800 encoded
    .fail(bytes: [0x22, 0xED, 0xBF, 0xBF, 0x22], "invalid UTF-8", "1:2"),  // U+DFFF encoded
    .fail(bytes: [0x22, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 0x22], "invalid UTF-8", "1:2"),  // CESU pair
    .fail(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8", "1:2"),  // > U+10FFFF
    .fail(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], "invalid UTF-8", "1:2"),
    .fail(bytes: [0x22, 0x61, 0xE2, 0x82, 0x22], "invalid UTF-8", "1:3"),  // truncated
    .fail(bytes: [0x22, 0xE2, 0x82], "invalid UTF-8", "1:2"),  // truncated at end
    .fail(bytes: [0x22, 0xF0, 0x9F, 0x98], "invalid UTF-8", "1:2"),
    .fail(bytes: [0x22, 0x80, 0x22], "invalid UTF-8", "1:2"),  // lone continuation
    .fail(bytes: [0x22, 0xC3, 0xA9, 0xA9, 0x22], "invalid UTF-8", "1:3"),  // extra continuation
    .fail(bytes: [0x22, 0xFF, 0x22], "invalid UTF-8", "1:2"),
    .fail(bytes: [0x22, 0x5C, 0x6E, 0xC0, 0x80, 0x22], "invalid UTF-8", "1:4"),  // after an escape
    .fail(bytes: [0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D], "invalid UTF-8", "1:3"),  // in a key
    .fail(bytes: [0x5B, 0xC3], "invalid UTF-8", "1:2"),  // outside a string
    .fail(bytes: [0x31, 0x20, 0xFF], "invalid UTF-8", "1:3"),  // after the value
    // Boundary scalars that are valid
    .init(input: [0x22, 0xED, 0x9F, 0xBF, 0x22], expected: .value("\"\u{D7FF}\"")),
    .init(input: [0x22, 0xEE, 0x80, 0x80, 0x22], expected: .value("\"\u{E000}\"")),
    .init(input: [0x22, 0xEF, 0xBF, 0xBF, 0x22], expected: .value("\"\u{FFFF}\"")),
    .init(input: [0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22], expected: .value("\"\u{10FFFF}\"")),
    .init(input: [0x22, 0xC2, 0x80, 0x22], expected: .value("\"\u{80}\"")),
]

@Suite struct JSONParserTableTests {
    @Test func tableIsLarge() { #expect(jsonTable.count >= 60) }

    @Test(arguments: jsonTable)
    func row(_ c: JSONTableCase) {
        let result = Result { () throws(JSONParseError) in try JSONParser.parse(c.input) }
        switch (c.expected, result) {
        case (.value(let compact), .success(let doc)):
            #expect(String(decoding: JSONWriter.encode(doc.root), as: UTF8.self) == compact)
        case (.error(let message, let at), .failure(let e)):
            #expect(e.message == message)
            #expect("\(e.line):\(e.column)" == at)
            #expect(e.description == "\(at): \(message)")
        case (.value, .failure(let e)):
            Issue.record("unexpected error \(e)")
        case (.error, .success(let doc)):
            Issue.record("expected an error, got \(doc.root)")
        }
    }

    /// The same rows through the slice, raw-pointer and String entry points.
    @Test(arguments: jsonTable)
    func entryPointsAgree(_ c: JSONTableCase) throws {
        func outcome(_ body: () throws(JSONParseError) -> JSONDocument) -> String {
            do { return try body().root.jsonText } catch { return error.description }
        }
        let base = outcome { () throws(JSONParseError) in try JSONParser.parse(c.input) }
        var padded = [0x20, 0x20] + c.input + [0x78]
        padded.removeLast()
        let slice = padded[2...]
        let fromSlice = outcome { () throws(JSONParseError) in try JSONParser.parse(slice) }
        // Offsets and columns are relative to the slice, so outcomes must be identical.
        #expect(fromSlice == base)
        let fromRaw = c.input.withUnsafeBytes { raw in
            outcome { () throws(JSONParseError) in try JSONParser.parse(raw) }
        }
        #expect(fromRaw == base)
        if let text = String(validating: c.input, as: UTF8.self) {
            #expect(outcome { () throws(JSONParseError) in try JSONParser.parse(text) } == base)
        }
    }
}
