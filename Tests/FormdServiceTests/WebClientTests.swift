import Foundation
import Testing

/// The web client and the page (API.md §2): served from the binary with strong ETags, gzip,
/// `nosniff`, and a strict policy on the page; `ui.enabled` false removes the page only.
@Suite("Web client", .timeLimit(.minutes(2)))
struct WebClientTests {
    @Test func theClientIsServedAsAnESModule() throws {
        let served = try ServedForms()
        let server = served.server
        let js = try server.request("GET", "/client/formd.js")
        #expect(js.status == 200)
        #expect(js.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(js.header("X-Content-Type-Options") == "nosniff")
        #expect(js.header("Cache-Control") == "no-cache")
        #expect(js.text.contains("export async function render("), "the module's renderer")
        #expect(js.text.contains("export class FormdClient"), "the module's headless client")
        let etag = try #require(js.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"), "a strong ETag: \(etag)")
        let again = try server.request("GET", "/client/formd.js", headers: [("If-None-Match", etag)])
        #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag)
        let gzipped = try server.request("GET", "/client/formd.js", headers: [("Accept-Encoding", "gzip")])
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(gzipped.body.count < js.body.count / 2, "\(gzipped.body.count) of \(js.body.count)")
        let head = try server.request("HEAD", "/client/formd.css")
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Type") == "text/css; charset=utf-8")
        #expect(try server.request("POST", "/client/formd.js", json: "{}").status == 405)
        #expect(try server.request("GET", "/client/nope.js").status == 404)
        #expect(try server.request("GET", "/client/").status == 404)
    }

    @Test func thePageHasAStrictPolicy() throws {
        let served = try ServedForms()
        let page = try served.server.request("GET", "/?form=contact&locale=nb")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let csp = try #require(page.header("Content-Security-Policy"))
        for directive in ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"] {
            #expect(csp.contains(directive), "\(directive) in \(csp)")
        }
        #expect(!csp.contains("'unsafe-inline'") && !csp.contains("'unsafe-eval'"))
        // WebAssembly compilation for the page's engine, and nothing more.
        #expect(csp.contains("script-src 'self' 'wasm-unsafe-eval';"), "\(csp)")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        // No inline script: every script is a file the policy allows.
        #expect(page.text.contains(#"<script type="module" src="client/page.js"></script>"#))
        #expect(!page.text.contains("<script>") && !page.text.contains("onclick"))
        let pageJS = try served.server.request("GET", "/client/page.js")
        #expect(pageJS.status == 200 && pageJS.text.contains(#"from "./formd.js""#))
    }

    /// The offline service worker (docs/CLIENT.md, "Offline"): at the root, so that its scope
    /// covers the page; public like the client (an embedding app's worker imports it); allowed by
    /// the page's policy (`worker-src 'self'`) and by nothing wider.
    @Test func theServiceWorkerIsServedAtTheRoot() throws {
        for environment in [[:], ["FORMD_UI_ENABLED": "false"]] {
            let served = try ServedForms(environment: environment)
            let sw = try served.server.request("GET", "/formd-sw.js", headers: [("Origin", "http://other.example")])
            #expect(sw.status == 200, "\(environment)")
            #expect(sw.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(sw.header("Cache-Control") == "no-cache", "an upgraded formd's worker is seen at once")
            #expect(sw.header("Access-Control-Allow-Origin") == "*")
            #expect(sw.header("Service-Worker-Allowed") == nil, "its own scope, the root, is all it needs")
            #expect(sw.text.contains(#"addEventListener("fetch""#))
            #expect(sw.text.contains(#"if (request.method !== "GET") return;"#), "validate and evaluate answers are never kept")
            #expect(try served.server.request("POST", "/formd-sw.js", json: "{}").status == 405)
        }
        let served = try ServedForms()
        let csp = try #require(try served.server.request("GET", "/").header("Content-Security-Policy"))
        #expect(csp.contains("worker-src 'self';"), "\(csp)")
        let pageJS = try served.server.request("GET", "/client/page.js")
        #expect(pageJS.text.contains("serviceWorker.register("), "the page registers it")
    }

    @Test func uiDisabledRemovesThePageOnly() throws {
        let served = try ServedForms(environment: ["FORMD_UI_ENABLED": "false"])
        let server = served.server
        #expect(try server.request("GET", "/").status == 404)
        #expect(try server.request("GET", "/client/page.js").status == 404)
        #expect(try server.request("GET", "/client/formd.js").status == 200, "embedders still load the client")
        #expect(try server.request("GET", "/client/formd.css").status == 200)
    }

    /// The client's files are public (any origin may load the module and its style sheet), so an
    /// embed on an origin formd does not allow runs and can say why; the API and the page keep
    /// the configured CORS rules.
    @Test func theClientFilesArePublicTheAPIKeepsItsRules() throws {
        for environment in [[:], ["FORMD_CORS_ALLOWED_ORIGINS": "http://allowed.example"]] {
            let served = try ServedForms(environment: environment)
            let server = served.server
            for origin in ["http://other.example", "http://allowed.example"] {
                for path in ["/client/formd.js", "/client/formd.css"] {
                    let r = try server.request("GET", path, headers: [("Origin", origin)])
                    #expect(r.status == 200 && r.header("Access-Control-Allow-Origin") == "*", "\(path) for \(origin) with \(environment)")
                    #expect(r.header("Cross-Origin-Resource-Policy") == "cross-origin")
                    let etag = try #require(r.header("ETag"))
                    let again = try server.request("GET", path, headers: [("Origin", origin), ("If-None-Match", etag)])
                    #expect(again.status == 304 && again.header("Access-Control-Allow-Origin") == "*", "a revalidation too")
                }
                let page = try server.request("GET", "/client/page.js", headers: [("Origin", origin)])
                let allowed = origin == "http://allowed.example" && !environment.isEmpty
                #expect(page.header("Access-Control-Allow-Origin") == (allowed ? origin : nil), "the page is not public: \(origin)")
                let api = try server.request("GET", "/forms", headers: [("Origin", origin)])
                #expect(api.header("Access-Control-Allow-Origin") == (allowed ? origin : nil), "the API keeps its rules: \(origin) with \(environment)")
            }
        }
    }

    /// The flags: `--no-ui`, `--cors-allowed-origins`, and `--set KEY=VALUE` for any key.
    @Test func flagsSetTheKeys() throws {
        let folder = try TempFolder()
        let forms = try folder.subfolder("Forms")
        try folder.write("Forms/contact.json", Fixtures.contact)
        let server = try FormdServerProcess(
            forms: forms, extraArguments: ["--port", "0", "--no-ui", "--cors-allowed-origins", "http://a.example", "--set", "limits.max_instances=5"],
            directory: folder.url)
        #expect(try server.request("GET", "/").status == 404)
        let r = try server.request("GET", "/healthz", headers: [("Origin", "http://a.example")])
        #expect(r.header("Access-Control-Allow-Origin") == "http://a.example")
        let bad = try FormdProcess.run(["serve", "--port", "0", "--set", "ui.enabld=false"], directory: folder.url)
        #expect(bad.status == 2 && bad.stderr.contains("unknown setting \"ui.enabld\""), "\(bad.stderr)")
        let noValue = try FormdProcess.run(["serve", "--port", "0", "--set", "ui.enabled"], directory: folder.url)
        #expect(noValue.status == 2 && noValue.stderr.contains("KEY=VALUE"), "\(noValue.stderr)")
    }

    /// The served file is the repository's source, byte for byte: no build step in between.
    @Test func theServedClientIsTheSource() throws {
        let served = try ServedForms()
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FormdWeb/formd.js")
        let bytes = try Array(Data(contentsOf: source))
        #expect(try served.server.request("GET", "/client/formd.js").body == bytes)
    }
}
