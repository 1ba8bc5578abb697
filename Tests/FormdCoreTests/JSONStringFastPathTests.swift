import FormdTestSupport
import Testing
@testable import FormdCore

/// The string scan reads 8 bytes at a time and builds all-ASCII strings without re-validating
/// them; strings with a backslash take the byte-by-byte decoding path. These tests hold the
/// fast path to the slow one (the same string behind a `\u0041` escape) and to the standard
/// library's UTF-8 validation, on random strings of ASCII, multi-byte scalars, invalid UTF-8,
/// control characters, quotes and escapes, at every length around the word boundaries.
@Suite struct JSONStringFastPathTests {
    static let pieces: [[UInt8]] = [
        Array("a".utf8), Array("Z".utf8), Array("0".utf8), Array(" ".utf8), Array("~".utf8),
        [0x7F],  // DEL is not a control character for JSON
        Array("é".utf8), Array("€".utf8), Array("😀".utf8),
        [0x80], [0xBF], [0xC0, 0x80], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF],
        [0x00], [0x01], [0x1F], [0x0A],
        Array("\"".utf8), Array("\\n".utf8), Array("\\\"".utf8), Array("\\u00e9".utf8), Array("\\".utf8),
    ]

    /// Mostly ASCII, so that long clean runs (whole words) occur.
    static func randomContent(_ rng: inout SplitMix64) -> [UInt8] {
        let length = Int.random(in: 0...40, using: &rng)
        var out: [UInt8] = []
        while out.count < length {
            if Int.random(in: 0..<8, using: &rng) == 0 {
                out += pieces.randomElement(using: &rng)!
            } else {
                out.append(UInt8.random(in: 0x20...0x7E, using: &rng))
            }
        }
        return out
    }

    static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONParseError> {
        Result { () throws(JSONParseError) in try JSONParser.parse(bytes).root }
    }

    static func string(_ value: JSONValue, wrapped: Bool) -> String? {
        if wrapped {
            guard case .object(let o) = value, case .string(let s)? = o["k"] else { return nil }
            return s
        }
        guard case .string(let s) = value else { return nil }
        return s
    }

    @Test func fastPathAgreesWithEscapedPath() {
        var rng = SplitMix64(seed: 0xA5C11)
        let escape = Array("\\u0041".utf8)
        var accepted = 0
        var refused = 0
        for iteration in 0..<30_000 {
            let content = Self.randomContent(&rng)
            let shape = iteration % 3
            let prefix: [UInt8] = shape == 1 ? Array("{\"k\":\"".utf8) : Array("\"".utf8)
            let suffix: [UInt8] =
                switch shape {
                case 0: Array("\"".utf8)
                case 1: Array("\",\"x\":[1,\"yy\"]}".utf8)
                default: []  // unterminated
                }
            let quoteOffset = prefix.count - 1
            let fast = Self.parse(prefix + content + suffix)
            let slow = Self.parse(prefix + escape + content + suffix)
            switch (fast, slow) {
            case (.success(let a), .success(let b)):
                accepted += 1
                let s = Self.string(a, wrapped: shape == 1)
                let t = Self.string(b, wrapped: shape == 1)
                #expect(s != nil && t == "A" + s!, "\(content)")
                if !content.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) {
                    #expect(s == String(validating: content, as: UTF8.self), "\(content)")
                    #expect(s.map { Array($0.utf8) } == content, "\(content)")
                }
            case (.failure(let e), .failure(let f)):
                refused += 1
                #expect(e.message == f.message, "\(content)")
                #expect(f.offset == (e.offset <= quoteOffset ? e.offset : e.offset + 6), "\(content)")
                #expect(e.line == f.line, "\(content)")
            default:
                Issue.record("fast \(fast) vs slow \(slow) on \(content)")
            }
        }
        #expect(accepted > 3_000 && refused > 3_000)
    }

    /// Every length from 0 to 40, ASCII and not, with the string last in the input (the scan's
    /// tail of fewer than 8 bytes) and followed by more input (whole words past the quote).
    @Test func everyLengthRoundTrips() throws {
        for length in 0...40 {
            for filler in ["x", "é", "\u{7F}", "😀"] {
                let text = String(repeating: "a", count: length) + filler
                for doc in ["\"\(text)\"", "[\"\(text)\",\"\(text)\",12345678901234567890]"] {
                    let root = try JSONParser.parse(doc).root
                    switch root {
                    case .string(let s): #expect(s == text)
                    case .array(let a):
                        #expect(a.count == 3)
                        #expect(a[0] == .string(text) && a[1] == .string(text))
                    default: Issue.record("unexpected \(root)")
                    }
                }
            }
        }
    }

    @Test func errorsInsideAWordAreAtTheirByte() {
        // The first offending byte of an 8-byte word, wherever it is in the word.
        for k in 0..<20 {
            let ascii = String(repeating: "b", count: k)
            var bytes = Array("{\"key\":\"\(ascii)".utf8)
            let at = bytes.count
            bytes += [0x01] + Array("cccccccccccccccc\"}".utf8)
            #expect(Self.parseFailure(bytes)?.offset == at)
            #expect(Self.parseFailure(bytes)?.message == "unescaped control character U+0001 in string")
            bytes[at] = 0xC0
            #expect(Self.parseFailure(bytes)?.offset == at)
            #expect(Self.parseFailure(bytes)?.message == "invalid UTF-8")
        }
    }

    static func parseFailure(_ bytes: [UInt8]) -> JSONParseError? {
        if case .failure(let e) = parse(bytes) { return e }
        return nil
    }
}
