@testable import FormdService
import FormdTestSupport
import Testing

/// `multipart/form-data` bodies (RFC 7578, text fields only), read in one linear pass.
@Suite struct MultipartTests {
    /// 200 when the body decodes, else the problem's status.
    static func decode(_ body: String, boundary: String = "XyZ") -> Int {
        switch MultipartFormData.decode(Array(body.utf8), contentType: "multipart/form-data; boundary=\(boundary)") {
        case .success: 200
        case .failure(let problem): problem.status
        }
    }

    static func pairs(_ body: String, boundary: String = "XyZ") -> [String]? {
        guard case .success(let p) = MultipartFormData.decode(Array(body.utf8), contentType: "multipart/form-data; boundary=\(boundary)")
        else { return nil }
        return p.map { "\($0.key)=\($0.value)" }
    }

    @Test func partsInOrderWithAnyHeaderCase() {
        let body = "preamble\r\n--XyZ\r\ncontent-DISPOSITION: form-data; name=\"a\"\r\n\r\n1\r\n"
            + "--XyZ\r\nContent-Type: text/plain; charset=utf-8\r\n Content-Disposition :form-data; name=b\r\n\r\nline one\r\nline two\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"q\\\"uoted\"\r\n\r\n\r\n--XyZ--\r\nepilogue"
        #expect(Self.pairs(body) == ["a=1", "b=line one\r\nline two", "q\"uoted="])
    }

    @Test func filesAndMalformedBodiesAreRefused() {
        #expect(Self.decode("--XyZ\r\nContent-Disposition: form-data; name=f; filename=a.txt\r\n\r\nx\r\n--XyZ--") == 415)
        #expect(Self.decode("--XyZ\r\nContent-Disposition: form-data; name=f; FILENAME*=utf-8''a\r\n\r\nx\r\n--XyZ--") == 415)
        #expect(Self.decode("first_name=Ola") == 400, "no boundary")
        #expect(Self.decode("--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n1") == 400, "no closing boundary")
        #expect(Self.decode("--XyZ\r\nContent-Disposition: form-data; name=a\r\n1\r\n--XyZ--") == 400, "head never ends")
        #expect(Self.decode("--XyZ\r\nContent-Type: text/plain\r\n\r\n1\r\n--XyZ--") == 400, "no name")
        #expect(Self.decode("--XyZx\r\n") == 400, "boundary not followed by a line break")
        #expect(Self.decode("--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n\u{FF}\r\n--XyZ--") == 200)
        let invalidUTF8: [UInt8] = Array("--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n".utf8) + [0xFF] + Array("\r\n--XyZ--".utf8)
        if case .success = MultipartFormData.decode(invalidUTF8, contentType: "multipart/form-data; boundary=XyZ") {
            Issue.record("a value that is not UTF-8 was accepted")
        }
    }

    /// A part head is bounded: before round three a head of any length (up to the body limit) was
    /// split into lines with Foundation, 270 ms for 1 MiB of near-miss line breaks.
    @Test func aPartHeadPastItsBoundIsRefused() {
        let filler = String(repeating: "X-Pad: \r\r\n", count: MultipartFormData.maxHeadBytes / 10 + 1)
        let body = "--XyZ\r\nContent-Disposition: form-data; name=a\r\n\(filler)\r\n1\r\n--XyZ--"
        #expect(Self.decode(body) == 400)
        let small = "--XyZ\r\nContent-Disposition: form-data; name=a\r\nX-Pad: \r\r\n\r\n1\r\n--XyZ--"
        #expect(Self.pairs(small) == ["a=1"])
    }

    @Test func nearMissBoundariesInsideAValueAreText() {
        let nearMiss = String(repeating: "\r\n--XyY", count: 1000) + "\r\n-XyZ" + "--XyZ"
        let body = "--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n\(nearMiss)\r\n--XyZ--"
        #expect(Self.pairs(body) == ["a=\(nearMiss)"])
    }

    /// The linear search against the obvious quadratic one, on random bytes from a small alphabet
    /// (so that partial matches are everywhere).
    @Test func theSearchAgreesWithANaiveOne() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let needle = (0..<Int.random(in: 1...6, using: &rng)).map { _ in UInt8.random(in: 97...99, using: &rng) }
            let hay = (0..<Int.random(in: 0...60, using: &rng)).map { _ in UInt8.random(in: 97...99, using: &rng) }
            let start = Int.random(in: 0...hay.count, using: &rng)
            var naive: Int?
            if needle.count <= hay.count {
                for i in stride(from: start, through: hay.count - needle.count, by: 1) where Array(hay[i..<i + needle.count]) == needle {
                    naive = i
                    break
                }
            }
            let found = hay.withUnsafeBufferPointer { MultipartFormData.Needle(needle).first(in: $0, from: start) }
            #expect(found == naive, "\(needle) in \(hay) from \(start)")
        }
    }

    /// Parameter names in any case, escapes only where there are some, `filename` in any case,
    /// the first `name` kept, a lone CR inside a head line, and values past ASCII.
    @Test func namesAndValuesAsBytes() {
        let body = "--XyZ\r\nContent-Disposition: form-data; NAME=\"a\\\\b\\\"c\"; name=\"second\"\r\n\r\ncaf\u{E9}\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; Name= spaced \r\n\r\n\u{20AC}\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"cr\r\"\r\n\r\nx\r\n--XyZ--"
        #expect(Self.pairs(body) == ["a\\b\"c=caf\u{E9}", "spaced=\u{20AC}", "cr\r=x"])
        #expect(Self.decode("--XyZ\r\nContent-Disposition: form-data; name=f; FileName=\"a\"\r\n\r\nx\r\n--XyZ--") == 415)
        #expect(Self.decode("--XyZ\r\nContent-Disposition: form-data; filenames=a; name=f\r\n\r\nx\r\n--XyZ--") == 200, "only filename and filename* are files")
        #expect(Self.pairs("--XyZ\r\nContent-Disposition: form-data; name=f; filename=\"a\r\n\r\nx\r\n--XyZ--") == ["f=x"],
                "a quoted value that never closes ends the list, its parameter unread")
        let cut: [UInt8] = Array("--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n".utf8) + [0xE2, 0x82] + Array("\r\n--XyZ--".utf8)
        if case .success = MultipartFormData.decode(cut, contentType: "multipart/form-data; boundary=XyZ") {
            Issue.record("a value cut inside a character was accepted")
        }
    }

    /// One needle, searched again and again from every start, as the decoder does with the
    /// tables it makes once per body.
    @Test func oneNeedleSearchedManyTimes() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 1...6, using: &rng)).map { _ in UInt8.random(in: 97...99, using: &rng) }
            let needle = MultipartFormData.Needle(bytes)
            let hay = (0..<Int.random(in: 0...60, using: &rng)).map { _ in UInt8.random(in: 97...99, using: &rng) }
            for start in 0...hay.count {
                var naive: Int?
                if bytes.count <= hay.count {
                    for i in stride(from: start, through: hay.count - bytes.count, by: 1) where Array(hay[i..<i + bytes.count]) == bytes {
                        naive = i
                        break
                    }
                }
                #expect(hay.withUnsafeBufferPointer { needle.first(in: $0, from: start) } == naive, "\(bytes) in \(hay) from \(start)")
            }
        }
    }
}
