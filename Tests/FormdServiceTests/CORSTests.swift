import Foundation
import Testing

/// `cors.allowed_origins` (API.md §1): preflights and headers for allowed origins only; nothing
/// changes without it.
@Suite("CORS", .timeLimit(.minutes(2)))
struct CORSTests {
    static let allowed = "http://app.example:3000"

    @Test func allowedOriginsGetPreflightsAndHeaders() throws {
        let served = try ServedForms(environment: ["FORMD_CORS_ALLOWED_ORIGINS": "\(Self.allowed), https://other.example"])
        let server = served.server
        let preflight = try server.request(
            "OPTIONS", "/forms/contact/validate",
            headers: [("Origin", Self.allowed), ("Access-Control-Request-Method", "POST"),
                      ("Access-Control-Request-Headers", "content-type, if-match")])
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == Self.allowed)
        #expect(preflight.header("Access-Control-Allow-Methods") == "POST, OPTIONS")
        let allowHeaders = try #require(preflight.header("Access-Control-Allow-Headers"))
        for h in ["Content-Type", "If-Match", "If-None-Match", "Accept-Language", "X-Request-Id"] {
            #expect(allowHeaders.contains(h), "\(h)")
        }
        #expect(preflight.header("Access-Control-Max-Age") == "600")
        #expect(preflight.header("Vary")?.contains("Origin") == true)
        let get = try server.request("GET", "/forms/contact", headers: [("Origin", Self.allowed)])
        #expect(get.status == 200)
        #expect(get.header("Access-Control-Allow-Origin") == Self.allowed)
        #expect(get.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
        #expect(get.header("Access-Control-Expose-Headers")?.contains("X-Request-Id") == true)
        // A page reading the replica's form-set digest (rollouts) or a 503's Retry-After needs them exposed.
        #expect(get.header("Access-Control-Expose-Headers")?.contains("Formd-Forms-Digest") == true)
        #expect(get.header("Access-Control-Expose-Headers")?.contains("Retry-After") == true)
        #expect(get.header("Vary")?.contains("Origin") == true)
        let post = try server.request("POST", "/forms/contact/validate", headers: [("Origin", Self.allowed)], json: "{}")
        #expect(post.status == 422 && post.header("Access-Control-Allow-Origin") == Self.allowed)
        #expect(post.header("Formd-Forms-Digest") != nil, "the digest exposed is sent on validate answers")
        // Another origin: no CORS header, and the request itself is answered as before.
        let foreign = try server.request("GET", "/forms/contact", headers: [("Origin", "http://evil.example")])
        #expect(foreign.status == 200 && foreign.header("Access-Control-Allow-Origin") == nil)
        #expect(foreign.header("Vary")?.contains("Origin") == true, "caches must key on Origin")
        let foreignPreflight = try server.request(
            "OPTIONS", "/forms/contact/validate",
            headers: [("Origin", "http://evil.example"), ("Access-Control-Request-Method", "POST")])
        #expect(foreignPreflight.status == 405 && foreignPreflight.header("Access-Control-Allow-Origin") == nil)
    }

    @Test func anyOriginAndNone() throws {
        let any = try ServedForms(environment: ["FORMD_CORS_ALLOWED_ORIGINS": "*"])
        let r = try any.server.request("GET", "/healthz", headers: [("Origin", "http://x.example")])
        #expect(r.header("Access-Control-Allow-Origin") == "*")
        let none = try ServedForms()
        let plain = try none.server.request(
            "OPTIONS", "/forms/contact/validate",
            headers: [("Origin", Self.allowed), ("Access-Control-Request-Method", "POST")])
        #expect(plain.status == 405, "without cors.allowed_origins nothing changes")
        #expect(plain.header("Access-Control-Allow-Origin") == nil)
        let get = try none.server.request("GET", "/forms/contact", headers: [("Origin", Self.allowed)])
        #expect(get.header("Vary")?.contains("Origin") != true)
    }

    @Test func badOriginsStopStartUp() throws {
        let folder = try TempFolder()
        _ = try folder.subfolder("Forms")
        let r = try FormdProcess.run(
            ["serve", "--port", "0"], environment: ["FORMD_CORS_ALLOWED_ORIGINS": "http://x.example/path"], directory: folder.url)
        #expect(r.status != 0)
        #expect(r.stderr.contains("cors.allowed_origins"), "\(r.stderr)")
    }
}
