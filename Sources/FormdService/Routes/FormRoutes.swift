import FormdCore
import FormdHTTP
import Foundation
import Logging

/// formd's routes (API.md) on the HTTP server: forms, validate/evaluate, health, metrics, OpenAPI.
package final class FormRoutes: HTTPHandler, @unchecked Sendable {
    package let registry: FormRegistry
    package let metrics: ServiceMetrics
    let logger: Logger
    /// nil unless `cors.allowed_origins` names some origin.
    let cors: CORSPolicy?
    /// `ui.enabled`: the page at `/`.
    let uiEnabled: Bool
    /// `limits.max_changed`: the longest `changed` list an evaluate request may send.
    let maxChanged: Int
    package static let defaultMaxChanged = 10_000
    /// `limits.max_batch_lines`, `limits.max_batch_line_bytes`, `limits.max_batch_bytes`, `timeouts.batch_seconds`.
    let batchLimits: BatchLimits
    /// `html.success_url` / `html.error_url`: where an HTML form post that asks for HTML goes.
    let htmlSuccessURL: String?
    let htmlErrorURL: String?
    /// `validators.remote` (set once, before serving); nil: none declared.
    package var remote: RemoteValidators?
    /// Set by the lifecycle: false while starting and while draining (`/readyz` → 503).
    private let readyLock = NSLock()
    private var ready = false
    /// `/openapi.json` of the current forms, rebuilt when a reload swaps the snapshot.
    private let openAPILock = NSLock()
    private var openAPICache: (version: Int, bytes: [UInt8], etag: String)?
    /// Field changes between a kept version and the current one (`changed_since`), per pair.
    let changesLock = NSLock()
    var changesCache: [String: FieldChanges] = [:]

    /// The engine's limits and tables are the registry's (`FormRegistry.options`): every form it
    /// compiles carries them.
    package init(
        registry: FormRegistry, metrics: ServiceMetrics, logger: Logger, maxChanged: Int = FormRoutes.defaultMaxChanged,
        corsAllowedOrigins: [String] = [], uiEnabled: Bool = true, htmlSuccessURL: String? = nil, htmlErrorURL: String? = nil,
        maxBatchLines: Int = FormRoutes.defaultMaxBatchLines, maxBatchLineBytes: Int = FormRoutes.defaultMaxBatchLineBytes,
        maxBatchBytes: Int = FormRoutes.defaultMaxBatchBytes, batchSeconds: Double = FormRoutes.defaultBatchSeconds
    ) {
        batchLimits = BatchLimits(maxLines: maxBatchLines, maxLineBytes: maxBatchLineBytes, maxBytes: maxBatchBytes, seconds: batchSeconds)
        self.uiEnabled = uiEnabled
        self.maxChanged = maxChanged
        self.htmlSuccessURL = htmlSuccessURL
        self.htmlErrorURL = htmlErrorURL
        cors = CORSPolicy(allowedOrigins: corsAllowedOrigins)
        self.registry = registry
        self.metrics = metrics
        self.logger = logger
    }

    package var isReady: Bool {
        get { readyLock.withLock { ready } }
        set { readyLock.withLock { ready = newValue } }
    }

    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        let (route, response) = cors == nil ? route(request) : routeWithCORS(request)
        if response.deferred != nil {
            // Waiting on remote validators: counted and logged when the answer is ready.
            return response.finally { [self] r in finished(request, route, r, start) }
        }
        finished(request, route, response, start)
        return response
    }

    private func finished(_ request: HTTPRequest, _ route: String, _ response: HTTPResponse, _ start: ContinuousClock.Instant) {
        metrics.record(route: route, status: response.status, duration: ContinuousClock.now - start)
        if response.status == 503 {
            // Deliberate: not ready (starting, draining: what a balancer's probe is for), a remote
            // validator without a verdict, a busy limit. Said, but not as a failure of formd.
            if route != "/readyz" {
                logger.warning("request unavailable", metadata: ["request_id": "\(request.requestID)", "route": "\(route)", "status": "503"])
            }
        } else if response.status >= 500 {
            logger.error("request failed", metadata: ["request_id": "\(request.requestID)", "route": "\(route)", "status": "\(response.status)"])
        } else if logger.logLevel <= .debug {
            logger.debug(
                "\(request.method) \(request.path) \(response.status)",
                metadata: ["request_id": "\(request.requestID)", "route": "\(route)"])
        }
    }

    /// Requests the HTTP server refused before routing (bad framing, limits, timeouts) are
    /// counted under the route `unparsed`.
    package func rejected(status: Int) {
        metrics.record(route: "unparsed", status: status, duration: .zero)
    }

    /// Everything but the engine's endpoints (POST under `/forms/`) is answered from memory in
    /// microseconds, so it stays on the I/O loop; validate and evaluate go to the worker pool.
    package func runsOnIOLoop(_ request: HTTPRequest) -> Bool {
        let path = request.path
        if Self.hasFormsPrefix(path) {
            // Validate and evaluate, and a form's submission schema (built per request), are a
            // worker's job; a definition is cheap once compiled, compiling one is a worker's job.
            if request.method == "POST" || path.hasSuffix("/schema") { return false }
            return registry.isCompiled(String(path.dropFirst("/forms/".count)))
        }
        // The listing and the OpenAPI document may have to read every definition (the first
        // call, or the first after a change): a worker's job, never an I/O loop's.
        return path != "/forms" && path != "/openapi.json"
    }

    /// `route`, with CORS: a preflight from an allowed origin is answered here, and every answer
    /// varies by `Origin` and carries the CORS headers when the origin is allowed.
    func routeWithCORS(_ request: HTTPRequest) -> (String, HTTPResponse) {
        guard let cors else { return route(request) }
        let origin = request.headers["Origin"].flatMap { cors.allows($0) ? $0 : nil }
        if request.method == "OPTIONS", let origin, request.headers["Access-Control-Request-Method"] != nil {
            return ("preflight", cors.preflight(path: request.path, origin: origin))
        }
        let (label, response) = route(request)
        return (label, response.finally { r in
            if let origin { cors.decorate(&r, origin: origin) }
            r.headers.add("Vary", "Origin")
        })
    }

    /// The route template (a metrics label) and the answer.
    func route(_ request: HTTPRequest) -> (String, HTTPResponse) {
        let path = request.path
        let method = request.method
        if let (id, action) = Self.engineTarget(path) { return engine(id, action, request) }
        let isGet = method == "GET" || method == "HEAD"
        switch path {
        case "/healthz":
            return ("/healthz", isGet ? .json(#"{"status":"ok"}"#) : Self.notAllowed("GET, HEAD"))
        case "/readyz":
            guard isGet else { return ("/readyz", Self.notAllowed("GET, HEAD")) }
            guard isReady else { return ("/readyz", .problem(status: 503, slug: "not-ready", detail: "formd is starting or draining")) }
            return ("/readyz", readyBody())
        case "/metrics":
            guard isGet else { return ("/metrics", Self.notAllowed("GET, HEAD")) }
            var r = HTTPResponse(status: 200, body: metrics.render())
            r.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            return ("/metrics", r)
        case "/openapi.json":
            guard isGet else { return ("/openapi.json", Self.notAllowed("GET, HEAD")) }
            let (bytes, etag) = openAPIBytes()
            var r = HTTPResponse.json(bytes)
            r.compressionKey = "openapi " + etag
            return ("/openapi.json", r)
        case "/forms":
            guard isGet else { return ("/forms", Self.notAllowed("GET, HEAD")) }
            return ("/forms", .json(registry.listBody()))
        case "/schemas/form-definition.json":
            guard isGet else { return (path, Self.notAllowed("GET, HEAD")) }
            return (path, definitionSchema(request))
        default:
            break
        }
        guard path.hasPrefix("/forms/") else {
            // The client's files come after every API route, so the API pays nothing for them.
            if path == "/" || path.hasPrefix("/client/") || path == "/formd-sw.js" { return webAsset(path, request) }
            return ("other", Self.notFound("no such resource: \(path)"))
        }
        let rest = path.dropFirst("/forms/".count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard isGet else { return ("/forms/{id}", Self.notAllowed("GET, HEAD")) }
            return ("/forms/{id}", getForm(String(parts[0]), request))
        case 2 where parts[1] == "schema":
            guard isGet else { return ("/forms/{id}/schema", Self.notAllowed("GET, HEAD")) }
            return ("/forms/{id}/schema", submissionSchema(String(parts[0]), request))
        case 2 where parts[1] == "validate" || parts[1] == "evaluate":
            return engine(String(parts[0]), parts[1] == "validate" ? .validate : .evaluate, request)
        case 2 where parts[1] == "versions":
            guard isGet else { return ("/forms/{id}/versions", Self.notAllowed("GET, HEAD")) }
            return ("/forms/{id}/versions", listVersions(String(parts[0])))
        case 3 where parts[1] == "versions", 4 where parts[1] == "versions":
            let what = parts.count == 4 ? parts[3] : nil
            let template = "/forms/{id}/versions/{version}" + (what.map { "/" + $0 } ?? "")
            guard isGet else { return (template, Self.notAllowed("GET, HEAD")) }
            guard what == nil || what == "schema" || what == "openapi.json" else { return ("other", Self.notFound("no such resource: \(path)")) }
            return (template, getVersion(String(parts[0]), parts[2], what, request))
        case 3 where parts[1] == "validate" && parts[2] == "batch":
            let template = "/forms/{id}/validate/batch"
            guard method == "POST" else { return (template, Self.notAllowed("POST")) }
            return (template, validateBatch(request))
        default:
            return ("other", Self.notFound("no such resource: \(path)"))
        }
    }

    /// `{"status":"ready","forms_digest":"…","forms":N,"versions":M}`: the digest tells replicas
    /// that serve different form sets apart (a rollout in progress).
    func readyBody() -> HTTPResponse {
        let d = registry.formsDigest()
        var w = JSONWriter(reservingCapacity: 128)
        w.beginObject()
        w.key("status")
        w.string("ready")
        w.key("forms_digest")
        w.string(d.value)
        w.key("forms")
        w.number(d.forms)
        w.key("versions")
        w.number(d.versions)
        if !d.complete {
            w.key("indexing")
            w.bool(true)
        }
        w.endObject()
        var r = HTTPResponse.json(w.bytes)
        r.headers.set(Self.digestHeader, d.value)
        r.headers.set("Cache-Control", "no-store")
        return r
    }

    func openAPIBytes() -> (bytes: [UInt8], etag: String) {
        let version = registry.version
        if let cached = openAPILock.withLock({ openAPICache }), cached.version == version { return (cached.bytes, cached.etag) }
        let bytes = OpenAPIDocument.bytes(for: registry)
        let etag = ETag.strong(of: bytes)
        // Keyed by the version read before building: a change meanwhile makes the next call rebuild.
        openAPILock.withLock { openAPICache = (version, bytes, etag) }
        return (bytes, etag)
    }

    // MARK: - GET /forms/{id}

    /// The definition: as written, or, for a form that gives texts per language and a client that
    /// names its language (`?locale=`, `Accept-Language`), resolved for that language; `?raw=true`
    /// asks for it as written whatever the language.
    func getForm(_ id: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let form = registry.form(id) else { return Self.notFound("no form \"\(id)\"") }
        var body = form.definitionJSON
        var etag = form.version
        var language: SupportedLocale?
        // `?shape=hyper`: a PureForm definition as the Hyper object shape, read by the engine,
        // so renderers that draw one shape need no PureForm reader of their own.
        if let hyper = form.hyperDefinitionJSON, Self.queryValue(request.query, "shape") == "hyper" {
            body = hyper.json
            etag = hyper.version
        }
        if form.isLocalized && !Self.query(request.query, has: "raw") {
            let acceptLanguage = request.headers.list("Accept-Language")
            if acceptLanguage != nil || Self.query(request.query, has: "locale") {
                let locale = negotiateLocale(query: request.query, acceptLanguage: acceptLanguage)
                if let variant = form.definitionJSON(for: locale) {
                    body = variant.json
                    etag = variant.version
                    language = locale
                }
            }
        }
        if let inm = request.headers.list("If-None-Match"), ETagList.matches(inm, etag, weak: true) {
            var r = HTTPResponse(status: 304)
            r.headers.set("ETag", etag)
            r.headers.set("Cache-Control", "no-cache")
            if form.isLocalized { r.headers.set("Vary", "Accept-Language") }
            return r
        }
        var r = HTTPResponse.json(body)
        r.compressionKey = etag
        r.headers.set("ETag", etag)
        r.headers.set("Cache-Control", "no-cache")
        if form.isLocalized { r.headers.set("Vary", "Accept-Language") }
        if let language { r.headers.set("Content-Language", language.rawValue) }
        return r
    }

    /// Whether the query has parameter `name` (`raw`, `raw=1`, `raw=true`; `locale=...`); a
    /// `raw=false` or `raw=0` does not count.
    static func query(_ query: String?, has name: String) -> Bool {
        guard let query else { return false }
        for part in query.split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair[0] == name else { continue }
            if pair.count == 1 { return true }
            if name != "raw" { return true }
            return !["0", "false"].contains(pair[1].lowercased())
        }
        return false
    }

    // MARK: - Problems

    static func notFound(_ detail: String) -> HTTPResponse { .problem(status: 404, slug: "not-found", detail: detail) }

    static func notAllowed(_ allow: String) -> HTTPResponse {
        var r = HTTPResponse.problem(status: 405, slug: "method-not-allowed", detail: "allowed: \(allow)")
        r.headers.set("Allow", allow)
        return r
    }
}
