import FormdCore
import FormdHTTP
import FormdWeb

/// The web client (`/client/formd.js`, `/client/formd.css`) and the page at `/` (API.md §2).
///
/// The client's files are public: any origin may load them (`Access-Control-Allow-Origin: *`,
/// whatever `cors.allowed_origins` says), so an embed on an origin formd does not allow still runs
/// the module, which then shows why the API refused it. The API keeps the configured CORS rules.
extension FormRoutes {
    /// Each file with its strong ETag, computed once.
    static let webFiles: [String: (asset: WebAsset, etag: String)] = WebAsset.all.mapValues { ($0, ETag.strong(of: $0.bytes)) }

    /// The page's policy: its own scripts and styles only, requests to this server only, and no
    /// framing. The client's module sets styles through the CSSOM, which `style-src` permits;
    /// `'wasm-unsafe-eval'` lets it compile the engine module (formd-engine.wasm) and nothing more;
    /// `worker-src 'self'` lets it register the offline service worker (`/formd-sw.js`), and no
    /// other worker (it would otherwise follow `script-src`).
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    func webAsset(_ path: String, _ request: HTTPRequest) -> (String, HTTPResponse) {
        let label = path == "/" || path == WebAsset.serviceWorkerPath ? path : "/client/{file}"
        guard let (asset, etag) = Self.webFiles[path], uiEnabled || !asset.isPage else {
            return (label, Self.notFound("no such resource: \(path)"))
        }
        guard request.method == "GET" || request.method == "HEAD" else { return (label, Self.notAllowed("GET, HEAD")) }
        var r: HTTPResponse
        if let inm = request.headers.list("If-None-Match"), ETagList.matches(inm, etag, weak: true) {
            r = HTTPResponse(status: 304)
        } else {
            r = HTTPResponse(status: 200, headers: ["Content-Type": asset.contentType], body: asset.bytes)
            r.compressionKey = "web " + etag
        }
        r.headers.set("ETag", etag)
        if path == WebAsset.enginePath, Self.queryValue(request.query, "v").map({ "\"" + $0 + "\"" == etag }) == true {
            // The engine at its own version (`?v=` its ETag's digits): that URL never changes.
            r.headers.set("Cache-Control", "public, max-age=31536000, immutable")
        } else {
            // Revalidated on every use (a 304 is cheap), so an upgraded formd is picked up at once:
            // the engine a page runs must be the server's.
            r.headers.set("Cache-Control", "no-cache")
        }
        r.headers.set("X-Content-Type-Options", "nosniff")
        if !asset.isPage {
            r.headers.set("Access-Control-Allow-Origin", "*")
            r.headers.set("Cross-Origin-Resource-Policy", "cross-origin")
        }
        if asset.contentType.hasPrefix("text/html") {
            r.headers.set("Content-Security-Policy", Self.contentSecurityPolicy)
            r.headers.set("Referrer-Policy", "no-referrer")
            r.headers.set("X-Frame-Options", "DENY")
        }
        return (label, r)
    }
}
