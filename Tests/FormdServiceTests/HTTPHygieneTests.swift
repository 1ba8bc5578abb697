import Foundation
import Testing

/// Requests the server refuses before routing are counted in `/metrics`; list-valued
/// preconditions sent on several lines are combined (RFC 9110 §5.3, §13.1).
@Suite("HTTP hygiene", .timeLimit(.minutes(2)))
struct HTTPHygieneTests {
    let served: ServedForms
    init() throws { served = try ServedForms() }

    @Test func refusedRequestsAppearInMetrics() throws {
        let server = served.server
        for raw in [
            "GET / HTTP/1.1\r\nHost: a b\r\n\r\n",  // invalid Host: 400
            "GET / HTTP/2.0\r\nHost: x\r\n\r\n",  // 505
            "POST /forms/contact/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n",  // 413
        ] {
            let c = try server.connect()
            try c.send(raw)
            _ = try? c.readResponse()
        }
        let text = try server.request("GET", "/metrics").text
        for status in [400, 505, 413] {
            #expect(text.contains(#"formd_http_requests_total{route="unparsed",status="\#(status)"} 1"#), "\(status): \(text)")
        }
    }

    @Test func preconditionsOnSeveralLinesAreOneList() throws {
        let server = served.server
        let etag = try #require(try server.request("GET", "/forms/contact").header("ETag"))
        let notModified = try server.request(
            "GET", "/forms/contact", headers: [("If-None-Match", "\"other\""), ("If-None-Match", etag)])
        #expect(notModified.status == 304, "the second line lists the current version")
        let pinned = try server.request(
            "POST", "/forms/contact/validate", headers: [("If-Match", "\"stale\""), ("If-Match", etag)],
            json: #"{"first_name": "Ola"}"#)
        #expect(pinned.status == 200)
        let stale = try server.request(
            "POST", "/forms/contact/validate", headers: [("If-Match", "\"stale\""), ("If-Match", "\"older\"")],
            json: #"{"first_name": "Ola"}"#)
        #expect(stale.status == 412)
    }
}
