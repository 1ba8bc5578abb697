import Foundation
import FormdTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// API.md §4.2 against the real binary: `POST /forms/{id}/validate/batch` is streamed (chunked
/// answer, counts in a trailer), never bounded by `limits.max_body_bytes`, in order, with bad lines
/// isolated and the limits ending the answer with one problem line.
@Suite("batch validation, streamed by formd serve", .serialized, .timeLimit(.minutes(3)))
struct BatchStreamingTests {
    static let ndjson = [("Content-Type", "application/x-ndjson")]

    static func serve(_ environment: [String: String] = [:]) throws -> FormdServerProcess {
        try FormdServerProcess(
            forms: URL(fileURLWithPath: RouteTests.forms), environment: environment, directory: FileManager.default.temporaryDirectory)
    }

    /// Sends `body` from another thread (a streaming client writes while it reads), reads the answer.
    static func batch(_ c: HTTPTestClient, form: String = "signup", headers: [(String, String)] = ndjson, body: [UInt8]) throws
        -> TestResponse
    {
        let wire = HTTPTestClient.encode("POST", "/forms/\(form)/validate/batch", headers: headers, body: body)
        let sender = Thread { try? c.send(wire) }
        sender.start()
        return try c.readResponse()
    }

    static func lines(_ r: TestResponse) -> [[String: Any]] {
        r.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? ["unparsable": String($0)]
        }
    }

    @Test func aLargeBatchIsStreamedInOrderWithBadLinesIsolated() throws {
        // A body limit of 64 KiB for single submissions; the batch is ten times that.
        let server = try Self.serve(["FORMD_LIMITS_MAX_BODY_BYTES": "65536", "FORMD_LIMITS_MAX_BATCH_LINE_BYTES": "4096"])
        defer { _ = server.stop() }
        var body: [UInt8] = []
        var kinds: [String] = []
        for i in 0..<20_000 {
            switch i % 10 {
            case 3: body += Array("[1, 2]\n".utf8); kinds.append("not-an-object")
            case 5: body += Array(#"{"email": "#.utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8); kinds.append("invalid-json")
            case 7 where i % 1000 == 7:
                body += Array((#"{"email": ""# + String(repeating: "x", count: 5000) + "\"}\n").utf8); kinds.append("line-too-long")
            default: body += Array(#"{"email": "user\#(i)@example.com"}"#.utf8) + [0x0A]; kinds.append("user\(i)@example.com")
            }
        }
        #expect(body.count > 10 * 65536)
        let c = try server.connect(timeout: 30)
        let r = try Self.batch(c, body: body)
        #expect(r.status == 200)
        #expect(r.header("Transfer-Encoding") == "chunked" && r.header("Content-Length") == nil)
        #expect(r.header("Content-Type") == "application/x-ndjson")
        let out = Self.lines(r)
        #expect(out.count == kinds.count)
        var problems = 0
        for (i, (answer, kind)) in zip(out, kinds).enumerated() {
            if kind.contains("@") {
                let email = (answer["values"] as? [String: Any])?["email"] as? String
                if email != kind { Issue.record("line \(i + 1): \(answer) for \(kind)"); break }
            } else {
                problems += 1
                if answer["type"] as? String != "/problems/\(kind)" || answer["line"] as? Int != i + 1 {
                    Issue.record("line \(i + 1): \(answer) for \(kind)")
                    break
                }
            }
        }
        #expect(r.trailers["Formd-Batch-Counts"] == "valid=0, invalid=\(kinds.count - problems), problems=\(problems)")
        // The connection goes on: an ordinary request, still bound by the single-submission limit.
        #expect(try c.exchange("GET", "/healthz").status == 200)
        let big = try c.exchange("POST", "/forms/signup/validate", headers: [("Content-Type", "application/json")],
                                 body: Array((#"{"email": ""# + String(repeating: "x", count: 70_000) + "\"}").utf8))
        #expect(big.status == 413)
    }

    @Test func limitsEndTheAnswerWithOneProblemLine() throws {
        let server = try Self.serve(["FORMD_LIMITS_MAX_BATCH_LINES": "5"])
        defer { _ = server.stop() }
        let c = try server.connect()
        let r = try Self.batch(c, body: Array(String(repeating: "{}\n", count: 50_000).utf8))
        let out = Self.lines(r)
        #expect(out.count == 6)
        #expect(out[5]["line"] as? Int == 6 && out[5]["type"] as? String == "/problems/batch-too-large" && out[5]["status"] as? Int == 413)
        #expect(r.trailers["Formd-Batch-Counts"] == "valid=0, invalid=5, problems=1")
        #expect(c.isClosedByServer(), "the rest of the body is not read: the connection closes")

        // Refusals before any line are ordinary answers.
        #expect(try server.request("POST", "/forms/nope/validate/batch", headers: Self.ndjson, body: Array("{}\n".utf8)).status == 404)
        #expect(try server.request("POST", "/forms/signup/validate/batch", headers: [("Content-Type", "text/plain")], body: Array("{}\n".utf8)).status == 415)
        #expect(try server.request("POST", "/forms/signup/validate/batch", headers: Self.ndjson + [("If-Match", "\"nope\"")], body: Array("{}\n".utf8)).status == 412)
    }

    @Test func memoryStaysFlatAndHealthChecksAreServedDuringALargeBatch() throws {
        let server = try Self.serve()
        defer { _ = server.stop() }
        let pid = server.child.process.processIdentifier
        #expect(try server.request("GET", "/healthz").status == 200)
        let before = Self.rss(pid)
        // 48 MiB of 8 KiB lines, generated as it is sent; the answers are read and dropped.
        let c = try server.connect(timeout: 30)
        let line = Array((#"{"email": ""# + String(repeating: "a", count: 8180) + "\"}\n").utf8)
        let count = (48 << 20) / line.count
        try c.send("POST /forms/signup/validate/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(count * line.count)\r\n\r\n")
        let sender = Thread {
            var block: [UInt8] = []
            for _ in 0..<64 { block += line }
            var sent = 0
            while sent < count {
                let n = min(64, count - sent)
                if (try? c.send(n == 64 ? block : Array(block[0..<(n * line.count)]))) == nil { return }
                sent += n
            }
        }
        sender.start()
        let head = try c.readHead()
        #expect(head.status == 200)
        var trailers = TestHeaders()
        var answered = 0
        var peak = before
        var healthMax = 0.0
        let probe = try server.connect()
        while let chunk = try c.readChunk(trailers: &trailers) {
            answered += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            if answered % 500 < 20 {
                peak = max(peak, Self.rss(pid))
                let t0 = Date()
                _ = try probe.exchange("GET", "/healthz")
                healthMax = max(healthMax, Date().timeIntervalSince(t0))
            }
        }
        peak = max(peak, Self.rss(pid))
        #expect(answered == count)
        #expect(trailers["Formd-Batch-Counts"] == "valid=0, invalid=\(count), problems=0")
        // 48 MiB in, more out: the server's memory must not follow it.
        #expect(peak - before < 24 << 20, "RSS went from \(before >> 20) MiB to \(peak >> 20) MiB")
        #expect(healthMax < 0.5, "a /healthz took \(healthMax) s during the batch")
    }

    /// The `formd validate FORM file.ndjson` bytes and the server's are the same.
    @Test func theCommandLineAndTheServerAnswerTheSameBytes() throws {
        let folder = try TempFolder()
        var text = ""
        for i in 0..<3_000 { text += i % 3 == 0 ? #"{"email": "a@b.co"}"# + "\n" : i % 3 == 1 ? "nope\n" : "{}\r\n" }
        let file = try folder.write("batch.ndjson", text)
        let cli = try FormdProcess.run(["validate", "--forms", RouteTests.forms, "signup", file.path], directory: folder.url)
        let server = try Self.serve()
        defer { _ = server.stop() }
        let r = try Self.batch(server.connect(), body: Array(text.utf8))
        #expect(r.body == Array(cli.stdout.utf8))
    }

    static func rss(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb << 10
    }
}
