import Foundation
import FormdHTTP
import FormdService
import Logging
import Testing

/// API.md §4.2: `POST /forms/{id}/validate/batch`, and `formd validate FORM file.ndjson` (§10).
@Suite("batch validation", .timeLimit(.minutes(3)))
struct BatchValidationTests {
    static func service(
        maxLines: Int = FormRoutes.defaultMaxBatchLines, maxLineBytes: Int = FormRoutes.defaultMaxBatchLineBytes,
        maxBytes: Int = FormRoutes.defaultMaxBatchBytes, seconds: Double = 30
    ) -> FormRoutes {
        let logger = Logger(label: "batch-tests", factory: { _ in SwiftLogNoOpLogHandler() })
        let metrics = ServiceMetrics()
        let registry = FormRegistry(directory: RouteTests.forms, logger: logger, metrics: metrics)
        _ = registry.loadAll()
        let s = FormRoutes(
            registry: registry, metrics: metrics, logger: logger, maxBatchLines: maxLines, maxBatchLineBytes: maxLineBytes,
            maxBatchBytes: maxBytes, batchSeconds: seconds)
        s.isReady = true
        return s
    }

    static let ndjson: HTTPHeaders = ["Content-Type": "application/x-ndjson"]

    static func lines(_ r: HTTPResponse) -> [[String: Any]] {
        String(decoding: r.body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? ["unparsable": String($0)]
        }
    }

    @Test func oneAnswerPerLineInOrderProblemsInPlace() throws {
        let s = Self.service()
        let body = [
            #"{"email": "ada@example.com", "username": "ada_l", "password": "secret123", "password_confirmation": "secret123", "terms": true}"#,
            #"{"email": "nope"}"#,
            "[1, 2]",
            #"{"email": "#,
            "",
            "{\"email\": \"\u{FFFD}\"}",
        ].joined(separator: "\n") + "\n"
        let r = s.handle(RouteTests.request("POST", "/forms/signup/validate/batch", Self.ndjson, body: body))
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "application/x-ndjson")
        #expect(r.headers["Formd-Batch-Counts"] == "valid=1, invalid=2, problems=3")
        let out = Self.lines(r)
        #expect(out.count == 6)
        #expect(out[0]["valid"] as? Bool == true)
        #expect(out[1]["valid"] as? Bool == false)
        #expect(out[2]["line"] as? Int == 3 && out[2]["type"] as? String == "/problems/not-an-object")
        #expect(out[3]["line"] as? Int == 4 && out[3]["type"] as? String == "/problems/invalid-json")
        #expect(out[4]["line"] as? Int == 5 && out[4]["type"] as? String == "/problems/not-an-object")
        #expect(out[5]["form"] as? String == "signup")
        // Each answer line is exactly what POST /validate answers for that line.
        let single = s.handle(RouteTests.request("POST", "/forms/signup/validate", ["Content-Type": "application/json"], body: #"{"email": "nope"}"#))
        let second = String(decoding: r.body, as: UTF8.self).split(separator: "\n")[1]
        #expect(Array(second.utf8) == single.body)
    }

    @Test func invalidUTF8AndCRLFLinesAreAnsweredInPlace() throws {
        let s = Self.service()
        var body = Array(#"{"email": "a@b.co"}"#.utf8) + [0x0D, 0x0A]
        body += Array(#"{"email": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8) + [0x0A]
        body += Array("{}".utf8)
        let r = s.handle(HTTPRequest(method: "POST", target: "/forms/signup/validate/batch", headers: Self.ndjson, body: body))
        let out = Self.lines(r)
        #expect(out.count == 3)
        #expect(out[0]["form"] as? String == "signup")
        #expect(out[1]["type"] as? String == "/problems/invalid-json")
        #expect(out[2]["form"] as? String == "signup")
    }

    /// Past a limit the answer ends with one problem line naming the first line not validated
    /// (the stream stops reading there); a long line is answered in place.
    @Test func limitsAreEnforcedAndDocumentedSlugs() throws {
        let s = Self.service(maxLines: 3)
        let four = s.handle(RouteTests.request("POST", "/forms/signup/validate/batch", Self.ndjson, body: "{}\n{}\n{}\n{}\n{}\n"))
        #expect(four.status == 200)
        let cut = Self.lines(four)
        #expect(cut.count == 4)
        #expect(cut[2]["form"] as? String == "signup")
        #expect(cut[3]["line"] as? Int == 4 && cut[3]["type"] as? String == "/problems/batch-too-large" && cut[3]["status"] as? Int == 413)
        #expect((cut[3]["detail"] as? String)?.contains("limits.max_batch_lines (3)") == true)
        #expect(four.headers["Formd-Batch-Counts"] == "valid=0, invalid=3, problems=1")
        let three = s.handle(RouteTests.request("POST", "/forms/signup/validate/batch", Self.ndjson, body: "{}\n{}\n{}"))
        #expect(three.status == 200)
        #expect(Self.lines(three).count == 3)

        let bytes = Self.service(maxBytes: 10)
        let over = Self.lines(bytes.handle(RouteTests.request("POST", "/forms/signup/validate/batch", Self.ndjson, body: "{}\n{}\n{}\n{}\n")))
        #expect(over.count == 4)  // 9 bytes of lines, then the 4th line passes 10
        #expect(over[3]["line"] as? Int == 4 && (over[3]["detail"] as? String)?.contains("limits.max_batch_bytes (10)") == true)

        let long = Self.service(maxLineBytes: 100)
        let body = "{}\n" + #"{"email": ""# + String(repeating: "x", count: 200) + "\"}\n{}\n"
        let out = Self.lines(long.handle(RouteTests.request("POST", "/forms/signup/validate/batch", Self.ndjson, body: body)))
        #expect(out.count == 3)
        #expect(out[1]["line"] as? Int == 2 && out[1]["type"] as? String == "/problems/line-too-long")
        #expect(out[2]["form"] as? String == "signup")

        let media = s.handle(RouteTests.request("POST", "/forms/signup/validate/batch", ["Content-Type": "application/json"], body: "{}"))
        #expect(media.status == 415)
        #expect(s.handle(RouteTests.request("GET", "/forms/signup/validate/batch")).status == 405)
        #expect(s.handle(RouteTests.request("POST", "/forms/nope/validate/batch", Self.ndjson, body: "{}")).status == 404)
        let empty = s.handle(RouteTests.request("POST", "/forms/signup/validate/batch", Self.ndjson, body: ""))
        #expect(empty.status == 200 && empty.body.isEmpty)
    }

    @Test func theTimeBudgetEndsTheAnswerWithOneProblem() throws {
        let s = Self.service(seconds: 0.001)
        let body = String(repeating: #"{"email": "x"}"# + "\n", count: 20_000)
        let r = s.handle(RouteTests.request("POST", "/forms/signup/validate/batch", Self.ndjson, body: body))
        let out = Self.lines(r)
        #expect(out.count < 20_000)
        #expect(out.last?["type"] as? String == "/problems/batch-timeout")
        #expect(out.last?["line"] as? Int == out.count)
        #expect(out.dropLast().allSatisfy { $0["form"] as? String == "signup" })
    }

    @Test func warningsAndRuleCodesComeThroughTheBatch() throws {
        let s = Self.service()
        let r = s.handle(RouteTests.request("POST", "/forms/feedback-i18n/validate/batch", Self.ndjson, body: #"{"visited_at": "2024-05-01T12:00:00Z", "rating": 4, "party_size": 12}"# + "\n"))
        let out = Self.lines(r)
        #expect(out.first?["valid"] as? Bool == true)
        let warnings = out.first?["warnings"] as? [[String: Any]]
        #expect(warnings?.first?["code"] as? String == "max_value")
    }

    @Test func theCommandLineStreamsTheSameLines() throws {
        let folder = try TempFolder()
        var text = ""
        for i in 0..<2_000 { text += i % 2 == 0 ? #"{"email": "a@b.co"}"# + "\n" : "nope\n" }
        let file = try folder.write("batch.ndjson", text)
        let r = try FormdProcess.run(["validate", "--forms", RouteTests.forms, "signup", file.path], directory: folder.url)
        #expect(r.status == 1)
        #expect(r.stderr.contains("formd validate: 2000 lines, 0 valid, 1000 invalid, 1000 problems"), "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2_000)
        let s = Self.service()
        let served = s.handle(RouteTests.request("POST", "/forms/signup/validate/batch", Self.ndjson, body: text))
        #expect(Array(r.stdout.utf8) == served.body, "the CLI and the server write the same bytes")
        let longLine = try folder.write("long.ndjson", "{\"email\": \"" + String(repeating: "x", count: 300_000) + "\"}\n{}\n")
        let cut = try FormdProcess.run(
            ["validate", "--forms", RouteTests.forms, "--max-line-bytes", "100000", "signup", longLine.path], directory: folder.url)
        let cutLines = cut.stdout.split(separator: "\n")
        #expect(cutLines.count == 2)
        #expect(cutLines.first?.contains("/problems/line-too-long") == true)
        #expect(cutLines.last?.contains("\"form\":\"signup\"") == true)
    }
}
