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

    /// `Evaluation.utf16Count` counts the UTF-16 units of the string valid UTF-8 bytes are.
    @Test func utf16CountOfBytesIsTheStrings() {
        var rng = SplitMix64(seed: 9)
        let scalars: [Unicode.Scalar] = ["a", "~", "\u{7F}", "é", "\u{7FF}", "\u{800}", "€", "\u{FFFF}", "\u{10000}", "😀", "\u{10FFFF}"]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &rng) { text.unicodeScalars.append(scalars.randomElement(using: &rng)!) }
            let count = Array(text.utf8).withUnsafeBufferPointer { Evaluation.utf16Count($0) }
            #expect(count == text.utf16.count, "\(text)")
        }
    }
}
