import FormdCore
import FormdHTTP

/// `POST /forms/{id}/validate/batch` (API.md §4.2): NDJSON in, one validate answer per line out.
///
/// formd's HTTP server hands a handler whole request bodies (at most `limits.max_body_bytes`)
/// and sends whole answers with `Content-Length`, so a batch is bounded, not streamed: the
/// request is at most `limits.max_body_bytes` and `limits.max_batch_lines` lines, the answer at
/// most `limits.max_batch_answer_bytes` (lines past it are answered with a short problem), and
/// the work at most `timeouts.batch_seconds` (likewise). Between the two buffers, each line is
/// parsed, validated, written and forgotten, so the working memory is one validate's.
struct BatchLimits: Sendable {
    var maxLines: Int
    var maxAnswerBytes: Int
    var seconds: Double
}

extension FormRoutes {
    package static let defaultMaxBatchLines = 10_000
    package static let defaultMaxBatchAnswerBytes = 32 << 20
    package static let defaultBatchSeconds = 30.0

    static let ndjsonTypes: Set<String> = ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"]

    func validateBatch(_ form: Form, _ request: HTTPRequest) -> HTTPResponse {
        if let failed = preconditionFailed(form, request) { return failed }
        let type = request.headers["Content-Type"].map(MediaType.essence) ?? ""
        guard Self.ndjsonTypes.contains(type) else {
            return HTTPError(
                status: 415, slug: "unsupported-media-type",
                detail: "send application/x-ndjson: one JSON values object a line").response
        }
        let body = request.body[...]
        let count = NDJSONLines.count(body)
        guard count <= batchLimits.maxLines else {
            return HTTPError(
                status: 413, slug: "batch-too-large",
                detail: "the batch has \(count) lines; at most \(batchLimits.maxLines) are accepted (limits.max_batch_lines)"
            ).response
        }
        let locale = negotiateLocale(query: request.query, acceptLanguage: request.headers.list("Accept-Language"))
        let deadline = ContinuousClock.now + .milliseconds(Int(batchLimits.seconds * 1000))
        var out: [UInt8] = []
        out.reserveCapacity(min(batchLimits.maxAnswerBytes, max(4096, body.count * 2)))
        var counts = BatchCounts()
        var number = 0
        var late = false
        for line in NDJSONLines(body) {
            number += 1
            if !late, number % 32 == 0, ContinuousClock.now > deadline { late = true }
            if late {
                Form.problemLine(
                    number, slug: "batch-timeout", status: 503,
                    detail: "not validated: the batch took longer than timeouts.batch_seconds (\(batchLimits.seconds))", into: &out)
                counts.add(.problem)
            } else if out.count >= batchLimits.maxAnswerBytes {
                Form.problemLine(
                    number, slug: "batch-answer-too-large", status: 503,
                    detail: "not validated: the answer passed limits.max_batch_answer_bytes (\(batchLimits.maxAnswerBytes))", into: &out)
                counts.add(.problem)
            } else {
                counts.add(form.batchAnswerLine(line, number: number, locale: locale, into: &out))
            }
            out.append(0x0A)
        }
        var r = HTTPResponse(status: 200, body: out)
        r.headers.set("Content-Type", "application/x-ndjson")
        r.headers.set("Content-Language", locale.rawValue)
        r.headers.set("Vary", "Accept-Language")
        r.headers.set("Formd-Batch-Counts", "valid=\(counts.valid), invalid=\(counts.invalid), problems=\(counts.problems)")
        return r
    }
}
