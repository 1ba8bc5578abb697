import Foundation
import FormdTestSupport
import Testing
@testable import FormdHTTP

/// Large answers are gzipped off the I/O loops: a worker's answer on that worker, a body served
/// from memory once per `compressionKey`. The loops' encoders count what they deflate themselves.
@Suite(.serialized) struct CompressionPlacementTests {
    struct Handler: HTTPHandler {
        static let big = Array(String(repeating: "{\"field\":\"value\"},", count: 2000).utf8)
        func handle(_ r: HTTPRequest) -> HTTPResponse {
            var response = HTTPResponse.json(Self.big)
            if r.path == "/keyed" { response.compressionKey = "\"v1\"" }
            return response
        }
        func runsOnIOLoop(_ r: HTTPRequest) -> Bool { r.method == "GET" }
    }

    private func loopDeflates(_ s: HTTPServer) -> Int {
        s.withStateLock { $0.loops }.reduce(0) { $0 + $1.encoder.loopDeflates.load(ordering: .relaxed) }
    }

    @Test func workerAnswersAreCompressedOnTheWorker() throws {
        let (s, port) = try makeServer(handler: Handler()) { $0.handlerMode = .pool(width: 2) }
        defer { stop(s) }
        let c = try HTTPTestClient(port: port)
        for _ in 0..<5 {
            try c.send("POST /work HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nContent-Length: 0\r\n\r\n")
            let r = try #require(c.read())
            #expect(r.headers["content-encoding"] == "gzip")
            #expect(r.headers["vary"] == "Accept-Encoding")
            #expect(try Gzip.inflate(r.body, limit: 1 << 20).get() == Handler.big)
        }
        #expect(loopDeflates(s) == 0, "the loop compressed none of the worker's answers")
        // A client that does not accept gzip gets the plain body.
        try c.send("POST /work HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let plain = try #require(c.read())
        #expect(plain.headers["content-encoding"] == nil && plain.body == Handler.big)
    }

    @Test func keyedBodiesAreCompressedOnce() throws {
        let (s, port) = try makeServer(handler: Handler()) { $0.handlerMode = .pool(width: 2) }
        defer { stop(s) }
        let c = try HTTPTestClient(port: port)
        for _ in 0..<10 {
            try c.send("GET /keyed HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
            let r = try #require(c.read())
            #expect(r.headers["content-encoding"] == "gzip")
            #expect(try Gzip.inflate(r.body, limit: 1 << 20).get() == Handler.big)
        }
        #expect(loopDeflates(s) == 1, "ten answers, one deflate")
        try c.send("GET /unkeyed HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        #expect(try #require(c.read()).headers["content-encoding"] == "gzip")
        #expect(loopDeflates(s) == 2, "a body without a key is compressed where it is served")
    }
}
