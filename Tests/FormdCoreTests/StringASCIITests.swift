import FormdTestSupport
import Testing
@testable import FormdCore

/// `String(ascii:)` makes short strings by laying out the standard library's small-string words
/// itself on 64-bit platforms: they must be the library's own strings in every respect.
@Suite struct StringASCIITests {
    @Test func theLibrarysStringsOfEveryLength() {
        var rng = SplitMix64(seed: 5)
        for length in 0...40 {
            for round in 0..<50 {
                // Every ASCII byte, control characters and NUL included.
                let bytes = (0..<length).map { _ in UInt8.random(in: round == 0 ? 0x61...0x7A : 0...0x7F, using: &rng) }
                let made = bytes.withUnsafeBufferPointer { String(ascii: $0) }
                let decoded = String(decoding: bytes, as: UTF8.self)
                #expect(made == decoded)
                #expect(Array(made.utf8) == bytes)
                #expect(made.utf8.count == length && made.count == decoded.count && made.utf16.count == length)
                #expect(made.hashValue == decoded.hashValue)
                #expect(made.utf8.withContiguousStorageIfAvailable { Array($0) } == bytes)
                #expect(made + "é" == decoded + "é" && (made + "é").utf8.count == length + 2)
                var grown = made
                grown.append("x")
                #expect(grown == decoded + "x")
                #expect(Set([made, decoded]).count == 1)
                #expect(made.unicodeScalars.map(\.value) == bytes.map(UInt32.init))
            }
        }
    }

    /// `coerceSent` decides only what `coerce` would, from the bytes alone.
    @Test func coercionFromBytesIsTheValuesCoercion() {
        let kinds: [FieldKind] = [.text, .name, .password, .custom, .email, .date, .select, .float, .number, .count, .switch, .time]
        let formatters: [InputFormatter?] = [nil] + InputFormatter.allCases
        let texts = [
            "", " ", "  \t", "\n", "Ada", " Ada", "Ada ", "a@b.no", "a@b", "@b.no", "a b@c.no", "a,b@c.no", "2025-02-28", "2025-02-30",
            "2025-2-28", "0000-01-01", "12 34", "12.34", "1.234,5", "true", "x\u{7F}", "\u{7F}", "~", "!",
        ]
        var decided = 0
        for kind in kinds {
            for formatter in formatters {
                let rule = CoercionRule(kind: kind, formatter: formatter)
                for text in texts {
                    let fromBytes = Array(text.utf8).withUnsafeBufferPointer { rule.coerceSent(utf8: $0) }
                    guard let fromBytes else { continue }
                    decided += 1
                    #expect(fromBytes == rule.coerce(.string(text), options: []), "\(kind) \(String(describing: formatter)) \(text)")
                }
            }
        }
        #expect(decided > 300)
    }
}
