import Testing

@testable import FormdCore

/// The writer escapes eight bytes at a time when none needs it: every byte that needs escaping,
/// at every offset and alignment within and across the eight-byte words, beside non-ASCII text,
/// is escaped as the byte-by-byte rule says.
@Suite("JSON writer: string escaping")
struct JSONWriterEscapeTests {
    /// The rule, one byte at a time (RFC 8259 minimal escaping, as the writer documents).
    static func reference(_ s: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        let hex = Array("0123456789abcdef".utf8)
        for b in s {
            switch b {
            case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0..<0x20: out += Array(#"\u00"#.utf8) + [hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    static func written(_ s: String) -> [UInt8] {
        var w = JSONWriter()
        w.string(s)
        return w.bytes
    }

    @Test func everySpecialByteAtEveryOffset() {
        let specials: [UInt8] = Array(0..<0x20) + [0x22, 0x5C, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x1F, 0x20]
        for length in [1, 7, 8, 9, 15, 16, 17, 24, 33] {
            for offset in 0..<length {
                for special in specials {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes[offset] = special
                    let s = String(decoding: bytes, as: UTF8.self)
                    #expect(Self.written(s) == Self.reference(Array(s.utf8)), "length \(length), byte \(special) at \(offset)")
                }
            }
        }
    }

    @Test func nonASCIIAndMixedText() {
        let samples = [
            "", "plain ascii text that is longer than eight bytes", "Åse Ødegård – «sitat» 😀 \"quoted\" \\ back",
            "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{9}\u{A}", "ééééééééé\"ééééé\nééé", "\u{2028}\u{2029}\u{7F}\u{80}",
            String(repeating: "\"", count: 40), String(repeating: "x", count: 1000) + "\n",
        ]
        for s in samples {
            #expect(Self.written(s) == Self.reference(Array(s.utf8)), "\(s.debugDescription)")
        }
        // Random bytes (valid UTF-8 after decoding), a fixed seed.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 40) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: state >> 33) & 0x7F)
            }
            let s = String(decoding: bytes, as: UTF8.self)
            #expect(Self.written(s) == Self.reference(Array(s.utf8)))
        }
    }

    /// Text is copied first and checked where it landed, reading whole words past its end: at
    /// every fill of a small buffer (where that read comes nearest the end of the allocation),
    /// string values and message pieces come out as the rule says.
    @Test func piecesAtEveryFillOfASmallBuffer() {
        var state: UInt64 = 42
        for _ in 0..<300 {
            var w = JSONWriter(reservingCapacity: 16)
            var want: [UInt8] = [UInt8(ascii: "[")]
            w.beginArray()
            for i in 0..<12 {
                var bytes: [UInt8] = []
                for _ in 0..<Int(state % 19) {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let r = UInt8(truncatingIfNeeded: state >> 33)
                    bytes.append(r % 9 == 0 ? [0x22, 0x5C, 0x0A, 0x01][Int(r) % 4] : 0x61 + r % 26)
                }
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let s = String(decoding: bytes, as: UTF8.self)
                if i > 0 { want.append(UInt8(ascii: ",")) }
                if i % 2 == 0 {
                    w.string(s)
                    want += Self.reference(bytes)
                } else {
                    w.separator()
                    w.append(byte: UInt8(ascii: "\""))
                    w.appendEscaped(s)
                    w.appendEscaped(s)
                    w.append(byte: UInt8(ascii: "\""))
                    w.needsComma = true
                    let r = Self.reference(bytes)
                    want += r.dropLast() + r.dropFirst()
                }
            }
            w.endArray()
            want.append(UInt8(ascii: "]"))
            #expect(w.bytes == want)
        }
    }
}
