import FormdTestSupport
import Testing
@testable import FormdHTTP

/// What a connection would answer for a byte stream delivered in `chunks`, driving the parser
/// the way `Connection` does (keep unconsumed bytes, stop after a closing answer).
struct Answer: Equatable, CustomStringConvertible {
    var status: Int
    var close: Bool
    var body: [UInt8]? = nil
    var description: String { "\(status)\(close ? " close" : "")" }
}

/// `streams`: every head is taken as a stream (`HTTPStreamingHandler`); its body parts are
/// gathered and answered at its end as a whole request's body would be.
func simulate(_ chunks: [ArraySlice<UInt8>], maxBody: Int = vectorMaxBody, maxHeader: Int = vectorMaxHeader, streams: Bool = false)
    -> [Answer]
{
    let claimAll: @Sendable (HTTPRequest) -> Bool = { _ in true }
    var parser = HTTPParser(maxBodyBytes: maxBody, maxHeaderBytes: maxHeader, claims: streams ? claimAll : nil)
    var pending: [UInt8] = []
    var answers: [Answer] = []
    var streamed: [UInt8]? = nil
    var streamKeepAlive = true
    for chunk in chunks {
        pending.append(contentsOf: chunk)
        while true {
            let (event, used) = pending.withUnsafeBufferPointer { parser.next($0) }
            if case .bodyPart(let range) = event { streamed! += pending[range] }
            pending.removeFirst(used)
            switch event {
            case .streamHead(_, let keepAlive, _, _):
                streamed = []
                streamKeepAlive = keepAlive
                continue
            case .bodyPart:
                continue
            case .bodyEnd:
                answers.append(Answer(status: 200, close: !streamKeepAlive, body: streamed))
                streamed = nil
                if !streamKeepAlive { return answers }
                continue
            case .needMore:
                if used == 0 || pending.isEmpty { break }
                continue
            case .sendContinue:
                continue
            case .request(let r, let keepAlive):
                answers.append(Answer(status: 200, close: !keepAlive, body: r.body))
                if !keepAlive { return answers }
                continue
            case .error(let e, let close):
                answers.append(Answer(status: e.status, close: close))
                if close { return answers }
                continue
            }
            break
        }
    }
    return answers
}

func randomSplits(_ bytes: [UInt8], seed: UInt64) -> [ArraySlice<UInt8>] {
    var rng = SplitMix64(seed: seed)  // deterministic, so failures reproduce
    var out: [ArraySlice<UInt8>] = []
    var i = 0
    while i < bytes.count {
        let n = Int.random(in: 1...max(1, min(64, bytes.count - i)), using: &rng)
        out.append(bytes[i..<(i + n)])
        i += n
    }
    return out
}

let validPrefix = Array("GET /first HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
let followUp = Array("GET /after HTTP/1.1\r\nHost: a\r\n\r\n".utf8)

func expected(_ v: Vector) -> [Answer] {
    var a = [Answer(status: v.status, close: v.close, body: v.status == 200 ? v.body : nil)]
    // a request after a keep-alive answer is answered; after a closing one, nothing follows
    if !v.close { a.append(Answer(status: 200, close: false, body: [])) }
    return a
}

func normalize(_ answers: [Answer], _ v: Vector) -> [Answer] {
    // only compare bodies the vector specifies
    answers.enumerated().map { i, a in
        var a = a
        if i == 0 && (v.body == nil || a.status != 200) { a.body = nil }
        return a
    }
}

@Suite struct ParserVectorTests {
    @Test func vectorCount() { #expect(parserVectors.count >= 80) }

    @Test(arguments: parserVectors)
    func whole(_ v: Vector) {
        let bytes = v.raw + followUp
        #expect(normalize(simulate([bytes[...]]), v) == expected(v), "\(v.name)")
    }

    @Test(arguments: parserVectors)
    func byteByByte(_ v: Vector) {
        let bytes = v.raw + followUp
        #expect(normalize(simulate(bytes.indices.map { bytes[$0...$0] }), v) == expected(v), "\(v.name)")
    }

    @Test(arguments: parserVectors)
    func randomSplitPoints(_ v: Vector) {
        let bytes = v.raw + followUp
        for seed in [1, 7, 42, 1234, 99_999] as [UInt64] {
            #expect(normalize(simulate(randomSplits(bytes, seed: seed)), v) == expected(v), "\(v.name) seed \(seed)")
        }
    }

    /// A streamed request's body parts add up to the body a whole request gets, and framing errors
    /// are the same, however the bytes are split (not for bodies over the limit, which streams do
    /// not have, nor gzip, which the connection inflates for streams).
    @Test(arguments: parserVectors.filter { v in
        v.status != 413 && !String(decoding: v.raw, as: UTF8.self).lowercased().contains("content-encoding")
    })
    func streamedBodiesMatchWholeOnes(_ v: Vector) {
        let bytes = v.raw + followUp
        #expect(normalize(simulate([bytes[...]], streams: true), v) == expected(v), "\(v.name)")
        for seed in [1, 42] as [UInt64] {
            #expect(normalize(simulate(randomSplits(bytes, seed: seed), streams: true), v) == expected(v), "\(v.name) seed \(seed)")
        }
    }

    @Test(arguments: parserVectors)
    func afterPipelinedRequest(_ v: Vector) {
        let bytes = validPrefix + v.raw + followUp
        let got = simulate([bytes[...]])
        #expect(got.first == Answer(status: 200, close: false, body: []), "\(v.name)")
        #expect(normalize(Array(got.dropFirst()), v) == expected(v), "\(v.name)")
        let split = simulate(randomSplits(bytes, seed: 3))
        #expect(normalize(Array(split.dropFirst()), v) == expected(v), "\(v.name) split")
    }
}

@Suite struct ParserUnitTests {
    /// Fuzz finding (corpus `Fuzz/corpus/http-parser/trailer-limit-vs-bare-lf`): an over-long
    /// trailer line ending in a bare LF or CR got 400 when it arrived whole, 431 when a read
    /// ended before the bad byte. The answer no longer depends on the split.
    @Test(arguments: ["\n", "\rX", "\r\n"])
    func overlongTrailerLineSameAnswerEverySplit(_ ending: String) {
        for (len, status) in [(1100, 431), (500, ending == "\r\n" ? 200 : 400)] {
            let bytes = Array(("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n0\r\nT: " + String(repeating: "a", count: len) + ending
                + "\r\n").utf8)
            let whole = simulate([bytes[...]])
            #expect(whole.first?.status == status, "\(len) \(ending.debugDescription)")
            for cut in 1..<bytes.count {
                let split = simulate([bytes[..<cut], bytes[cut...]])
                #expect(split.map(\.status) == whole.map(\.status), "cut at \(cut)")
                if split.map(\.status) != whole.map(\.status) { break }
            }
        }
    }

    @Test func requestFields() throws {
        var p = HTTPParser(maxBodyBytes: 100, maxHeaderBytes: 1000)
        let raw = Array("POST /a/b?x=1&y HTTP/1.1\r\nHost: h\r\nX-Thing:  v  \r\nContent-Length: 2\r\n\r\nhi".utf8)
        let (ev, used) = raw.withUnsafeBufferPointer { p.next($0) }
        #expect(used == raw.count)
        guard case .request(let r, let ka) = ev else { Issue.record("no request"); return }
        #expect(ka)
        #expect(r.method == "POST")
        #expect(r.target == "/a/b?x=1&y")
        #expect(r.path == "/a/b")
        #expect(r.query == "x=1&y")
        #expect(r.versionMinor == 1)
        #expect(r.headers["x-thing"] == "v")
        #expect(r.headers["X-THING"] == "v")
        #expect(r.body == Array("hi".utf8))
    }

    @Test func expectContinueOnlyWhenBodyMissing() {
        var p = HTTPParser(maxBodyBytes: 100, maxHeaderBytes: 1000)
        let head = Array("POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8)
        let (ev, used) = head.withUnsafeBufferPointer { p.next($0) }
        guard case .sendContinue = ev else { Issue.record("expected 100-continue, got \(ev)"); return }
        #expect(used == head.count)
        let body = Array("ok".utf8)
        let (ev2, _) = body.withUnsafeBufferPointer { p.next($0) }
        guard case .request(let r, _) = ev2 else { Issue.record("no request"); return }
        #expect(r.body == body)
    }

    @Test func noContinueWhenTooLarge() {
        var p = HTTPParser(maxBodyBytes: 10, maxHeaderBytes: 1000)
        let head = Array("POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n".utf8)
        let (ev, _) = head.withUnsafeBufferPointer { p.next($0) }
        guard case .error(let e, true) = ev else { Issue.record("expected 413, got \(ev)"); return }
        #expect(e.status == 413)
    }

    @Test func deadParserStaysDead() {
        var p = HTTPParser(maxBodyBytes: 10, maxHeaderBytes: 1000)
        let bad = Array("GET / HTTP/1.1\r\nHost : h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        let (ev, _) = bad.withUnsafeBufferPointer { p.next($0) }
        guard case .error(_, true) = ev else { Issue.record("expected error"); return }
        let (ev2, used2) = bad.withUnsafeBufferPointer { p.next($0) }
        guard case .needMore = ev2, used2 == 0 else { Issue.record("dead parser answered"); return }
    }

    @Test func acceptEncoding() {
        #expect(AcceptEncoding.allowsGzip("gzip"))
        #expect(AcceptEncoding.allowsGzip("deflate, gzip;q=0.5"))
        #expect(AcceptEncoding.allowsGzip("*"))
        #expect(AcceptEncoding.allowsGzip("br;q=1, *;q=0.1"))
        #expect(!AcceptEncoding.allowsGzip("gzip;q=0"))
        #expect(!AcceptEncoding.allowsGzip("gzip;q=0.000"))
        #expect(!AcceptEncoding.allowsGzip("*;q=0"))
        #expect(!AcceptEncoding.allowsGzip("*, gzip;q=0"))
        #expect(!AcceptEncoding.allowsGzip("identity"))
        #expect(!AcceptEncoding.allowsGzip("br, deflate"))
        #expect(AcceptEncoding.allowsGzip("GZIP ; q=0.8"))
    }

    @Test func headersCaseInsensitive() {
        var h: HTTPHeaders = ["Content-Type": "a", "X-A": "1"]
        h.add("x-a", "2")
        #expect(h["content-type"] == "a")
        #expect(h.values(for: "X-a") == ["1", "2"])
        h.set("X-A", "3")
        #expect(h.values(for: "x-a") == ["3"])
        h.remove("CONTENT-TYPE")
        #expect(h["content-type"] == nil)
        #expect(HTTPHeaders([("Connection", "keep-alive, Close")]).hasToken("close", in: "connection"))
    }

    @Test func problemJSON() {
        let r = HTTPResponse.problem(status: 413, slug: "body-too-large", detail: "too \"big\"")
        #expect(r.headers["content-type"] == "application/problem+json")
        #expect(String(decoding: r.body, as: UTF8.self) ==
            #"{"type":"/problems/body-too-large","title":"Content Too Large","status":413,"detail":"too \"big\""}"#)
    }

    @Test func gzipRoundTripAndCap() throws {
        let data = Array(String(repeating: "formd ", count: 1000).utf8)
        let z = try #require(Gzip.compress(data))
        #expect(try Gzip.inflate(z, limit: data.count).get() == data)
        #expect(throws: HTTPError.self) { try Gzip.inflate(z, limit: data.count - 1).get() }
    }
}
