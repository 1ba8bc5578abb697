@testable import FormdService
import FormdTestSupport
import Testing

/// `application/x-www-form-urlencoded` bodies, read in one pass over the bytes.
@Suite struct FormURLEncodingTests {
    static func pairs(_ body: [UInt8]) -> [String]? {
        guard case .success(let p) = FormURLEncoding.decode(body) else { return nil }
        return p.map { "\($0.key)=\($0.value)" }
    }

    @Test func pairsInOrder() {
        #expect(Self.pairs(Array("a=1&&b=x+y&c&=v&d=%41%c3%A9&e==".utf8)) == ["a=1", "b=x y", "c=", "=v", "d=Aé", "e=="])
        #expect(Self.pairs(Array("&&".utf8)) == [])
        #expect(Self.pairs(Array("k=caf\u{E9}".utf8)) == ["k=café"], "raw UTF-8 needs no escape")
        #expect(Self.pairs(Array("a=%4".utf8)) == nil, "an escape cut short")
        #expect(Self.pairs(Array("a=%zz".utf8)) == nil)
        #expect(Self.pairs(Array("a=%FF".utf8)) == nil, "an escape that is not UTF-8")
        #expect(Self.pairs(Array("a=".utf8) + [0xC3]) == nil, "raw bytes that are not UTF-8")
    }

    /// The obvious decoder: split the body, then each key and value byte by byte.
    static func naive(_ body: [UInt8]) -> [String]? {
        func hex(_ c: UInt8) -> UInt8? { c < 0x80 ? Character(Unicode.Scalar(c)).hexDigitValue.map(UInt8.init) : nil }
        func decode(_ bytes: ArraySlice<UInt8>) -> String? {
            var out: [UInt8] = []
            var i = bytes.startIndex
            while i < bytes.endIndex {
                if bytes[i] == UInt8(ascii: "+") {
                    out.append(0x20)
                } else if bytes[i] == UInt8(ascii: "%") {
                    guard i + 2 < bytes.endIndex, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) else { return nil }
                    out.append(h * 16 + l)
                    i += 2
                } else {
                    out.append(bytes[i])
                }
                i += 1
            }
            return String(validating: out, as: UTF8.self)
        }
        var result: [String] = []
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let k = decode(parts[0]), let v = decode(parts.count > 1 ? parts[1] : []) else { return nil }
            result.append("\(k)=\(v)")
        }
        return result
    }

    /// Random bodies from an alphabet of separators, escapes and multi-byte UTF-8 pieces.
    @Test func agreesWithTheObviousDecoder() {
        let alphabet: [[UInt8]] = ["a", "=", "&", "+", "%", "4", "1", "F", "f", "z", "%C3", "%a9", "\u{E9}", "%E2%82%AC"].map { Array($0.utf8) } + [[0xC3], [0xA9], [0xFF]]
        var rng = SplitMix64(seed: 36)
        var decoded = 0
        for _ in 0..<5000 {
            var body: [UInt8] = []
            for _ in 0..<Int.random(in: 0...16, using: &rng) { body += alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            let expected = Self.naive(body)
            #expect(Self.pairs(body) == expected, "\(body)")
            if expected != nil { decoded += 1 }
        }
        #expect(decoded > 500 && decoded < 4500, "both outcomes are exercised: \(decoded) of 5000 decoded")
    }
}
