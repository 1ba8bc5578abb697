import FormdCore
import FormdHTTP

/// `POST /forms/{id}/validate/batch` (API.md §4.2): NDJSON in, one validate answer per line out,
/// streamed. The server takes the request as a stream (`HTTPStreamingHandler`): its body is read
/// as it arrives and never bounded by `limits.max_body_bytes`, each line is validated as soon as
/// it is whole (`BatchStream`), and the answer goes out chunked as it is written, with the counts
/// in a `Formd-Batch-Counts` trailer. Memory is constant whatever the batch's size.
extension FormRoutes: HTTPStreamingHandler {
    package static let defaultMaxBatchLines = 1_000_000
    package static let defaultMaxBatchLineBytes = 1 << 20
    package static let defaultMaxBatchBytes = 1 << 30
    package static let defaultBatchSeconds = 300.0

    static let ndjsonTypes: Set<String> = ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"]
    static let batchTemplate = "/forms/{id}/validate/batch"

    /// The one streamed route: a POST whose path ends in `/validate/batch`. Asked of every head,
    /// so it compares bytes (`hasSuffix` on a `String` compares characters).
    package func streams(_ request: HTTPRequest) -> Bool {
        guard request.method == "POST" else { return false }
        var path = request.path
        return path.withUTF8 { p in
            p.count > Self.batchSuffix.count && p[6] == UInt8(ascii: "/") && Self.startsWithForms(p)
                && Self.batchSuffix.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: p[(p.count - $0.count)...]).elementsEqual($0) }
        }
    }

    static let batchSuffix = Array("/validate/batch".utf8)

    package func openStream(_ request: HTTPRequest) -> HTTPStreamOpening {
        let start = ContinuousClock.now
        var opening = openBatch(request, start: start, recordsItself: true)
        if let cors {
            let origin = request.headers["Origin"].flatMap { cors.allows($0) ? $0 : nil }
            switch opening {
            case .respond(var r):
                if let origin { cors.decorate(&r, origin: origin) }
                r.headers.add("Vary", "Origin")
                opening = .respond(r)
            case .stream(var head, let body):
                if let origin { cors.decorate(&head, origin: origin) }
                head.headers.add("Vary", "Origin")
                opening = .stream(head: head, body: body)
            }
        }
        if case .respond(let r) = opening {
            metrics.record(route: Self.batchTemplate, status: r.status, duration: ContinuousClock.now - start)
        }
        return opening
    }

    /// The checks of a batch (route, form, `If-Match`, media type), then the stream.
    /// `recordsItself`: the stream records the request's metrics when it ends.
    func openBatch(_ request: HTTPRequest, start: ContinuousClock.Instant, recordsItself: Bool) -> HTTPStreamOpening {
        let parts = request.path.dropFirst("/forms/".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "validate", parts[2] == "batch" else {
            return .respond(Self.notFound("no such resource: \(request.path)"))
        }
        guard let form = registry.form(String(parts[0])) else { return .respond(Self.notFound("no form \"\(parts[0])\"")) }
        if let failed = preconditionFailed(form, request) { return .respond(failed) }
        let type = request.headers["Content-Type"].map(MediaType.essence) ?? ""
        guard Self.ndjsonTypes.contains(type) else {
            return .respond(HTTPError(
                status: 415, slug: "unsupported-media-type",
                detail: "send application/x-ndjson: one JSON values object a line").response)
        }
        let locale = negotiateLocale(query: request.query, acceptLanguage: request.headers.list("Accept-Language"))
        var head = HTTPResponse(status: 200)
        head.headers.set("Content-Type", "application/x-ndjson")
        head.headers.set("Content-Language", locale.rawValue)
        head.headers.set("Vary", "Accept-Language")
        head.headers.set("Trailer", "Formd-Batch-Counts")
        let metrics = self.metrics
        let stream = BatchStream(form: form, locale: locale, limits: batchLimits) { _ in
            if recordsItself { metrics.record(route: Self.batchTemplate, status: 200, duration: ContinuousClock.now - start) }
        }
        return .stream(head: head, body: stream)
    }

    /// The same answer as one response, for a request already in memory (a handler called
    /// directly, not through the server, which streams every batch): the counts in a
    /// `Formd-Batch-Counts` header.
    func validateBatch(_ request: HTTPRequest) -> HTTPResponse {
        switch openBatch(request, start: .now, recordsItself: false) {
        case .respond(let r):
            return r
        case .stream(var response, let stream):
            var out: [UInt8] = []
            var end = HTTPStreamEnd.complete
            request.body.withUnsafeBytes { bytes in
                var used = 0
                while used < bytes.count {
                    used += max(1, stream.receive(UnsafeRawBufferPointer(rebasing: bytes[used...]), into: &out))
                    if !stream.wantsMore { end = .stopped; break }
                }
            }
            let trailers = stream.finish(end, into: &out)
            response.body = out
            response.headers.remove("Trailer")
            for (name, value) in trailers { response.headers.set(name, value) }
            return response
        }
    }
}
