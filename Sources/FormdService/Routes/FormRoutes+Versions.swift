import FormdCore
import FormdHTTP
import Foundation

/// Form versions (issue 32, API.md "Versions"): validate and evaluate against the version a client
/// rendered (`If-Match`, or `?version=` for clients that cannot set headers), the kept versions'
/// listing and definitions, and the 412 that names the versions held when the one asked for is not.
extension FormRoutes {
    /// An `If-Match` (or `?version=`) list longer than this is refused (400) before any lookup.
    static let maxVersionTags = 32
    /// The response header with the replica's form-set digest (every form answer has it).
    static let digestHeader = "Formd-Forms-Digest"

    /// What validate and evaluate run against.
    struct Selected {
        let form: Form
        /// Set when `form` is a kept version: the current one.
        let current: Form?
    }

    /// The version tags a request names: `If-Match`, else `?version=` (quotes optional there);
    /// nil when neither. A list longer than `maxVersionTags` is a 400.
    func requestedVersions(_ request: HTTPRequest) -> Result<[Substring]?, HTTPError> {
        var tags: [Substring] = []
        if let header = request.headers.list("If-Match") {
            for raw in header.split(separator: ",", omittingEmptySubsequences: true) {
                tags.append(Substring(raw.trimmingCharacters(in: .whitespaces)))
                if tags.count > Self.maxVersionTags { break }
            }
        } else if let value = Self.queryValue(request.query, "version") {
            for raw in value.split(separator: ",") {
                let t = raw.trimmingCharacters(in: .whitespaces)
                tags.append(Substring(t == "*" || t.hasPrefix("\"") || t.hasPrefix("W/") ? t : "\"" + t + "\""))
                if tags.count > Self.maxVersionTags { break }
            }
        } else {
            return .success(nil)
        }
        guard tags.count <= Self.maxVersionTags else {
            return .failure(
                HTTPError(status: 400, slug: "bad-request", detail: "more than \(Self.maxVersionTags) versions named; name the one the form was rendered with"))
        }
        return .success(tags)
    }

    /// The form (and version) a validate or evaluate request runs against, or the problem.
    enum Selection {
        case form(Selected)
        case problem(HTTPResponse)
    }

    func select(_ id: String, _ request: HTTPRequest) -> Selection {
        let tags: [Substring]?
        switch requestedVersions(request) {
        case .failure(let e): return .problem(e.response)
        case .success(let t): tags = t
        }
        guard let tags else {
            guard let form = registry.form(id) else { return .problem(Self.notFound("no form \"\(id)\"")) }
            return .form(Selected(form: form, current: nil))
        }
        // Weak tags never match (If-Match compares strongly).
        switch registry.form(id, versions: tags.filter { !$0.hasPrefix("W/") }) {
        case .noForm: return .problem(Self.notFound("no form \"\(id)\""))
        case .current(let form): return .form(Selected(form: form, current: nil))
        case .kept(let form, let current): return .form(Selected(form: form, current: current))
        case .notHeld(let current): return .problem(versionNotHeld(id, current: current, asked: tags))
        }
    }

    /// 412 `/problems/precondition-failed`, code `version-not-held`: the versions held here, the
    /// current first. Never an answer against another version.
    /// A `GET` of a version not held is the same problem as a 404 `not-found` (a resource that is
    /// not here, not a failed precondition).
    func versionNotHeld(_ id: String, current: Form, asked: [Substring], status: Int = 412) -> HTTPResponse {
        let held = registry.heldVersions(id, current: current)
        var shown = asked.prefix(3).map { $0.count > 64 ? String($0.prefix(64)) + "…" : String($0) }.joined(separator: ", ")
        if asked.count > 3 { shown += ", …" }
        var w = JSONWriter()
        w.beginObject()
        w.key("type")
        w.string(status == 412 ? "/problems/precondition-failed" : "/problems/not-found")
        w.key("title")
        w.string(status == 412 ? "Precondition Failed" : "Not Found")
        w.key("status")
        w.number(status)
        w.key("detail")
        w.string("this replica does not hold the version \(shown) of \"\(id)\"; the form's version is \(current.version); fetch it (GET /forms/\(id)), keep the values and evaluate again")
        w.key("code")
        w.string("version-not-held")
        w.key("current_version")
        w.string(current.version)
        w.key("versions")
        w.beginArray()
        for v in held { w.string(v) }
        w.endArray()
        w.key("forms_digest")
        w.string(registry.formsDigest().value)
        w.endObject()
        var r = HTTPResponse(status: status, body: w.bytes)
        r.headers.set("Content-Type", "application/problem+json")
        r.headers.set(Self.digestHeader, registry.formsDigest().value)
        return r
    }

    /// A kept version's answer: the engine's bytes with `current_version` and `changed_since`
    /// (the fields added, removed and changed from this version to the current one) added at the
    /// end of the object. The engine's writer is untouched.
    func withVersionInfo(_ json: [UInt8], form: Form, current: Form?) -> [UInt8] {
        guard let current, json.count > 2, json.last == UInt8(ascii: "}") else { return json }
        var w = JSONWriter(reservingCapacity: 256)
        w.beginObject()
        w.key("current_version")
        w.string(current.version)
        w.key("changed_since")
        fieldChanges(from: form, to: current).write(into: &w)
        w.endObject()
        var out = json
        out.removeLast()
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: w.bytes.dropFirst())
        return out
    }

    /// Field changes between two versions, cached per pair (a kept version is compared with the
    /// current one on every answer).
    func fieldChanges(from old: Form, to new: Form) -> FieldChanges {
        let key = old.id + " " + old.version + " " + new.version
        if let hit = changesLock.withLock({ changesCache[key] }) { return hit }
        let changes = FieldChanges(from: old, to: new)
        changesLock.withLock {
            if changesCache.count > 4096 { changesCache.removeAll() }
            changesCache[key] = changes
        }
        return changes
    }

    // MARK: - GET /forms/{id}/versions[/{version}[/schema|/openapi.json]]

    /// The versions held: the current one, then the kept ones (newest first), each with when it was
    /// published and the fields changed from it to the current one.
    func listVersions(_ id: String) -> HTTPResponse {
        guard let current = registry.form(id) else { return Self.notFound("no form \"\(id)\"") }
        var w = JSONWriter(reservingCapacity: 512)
        w.beginObject()
        w.key("form")
        w.string(id)
        w.key("current_version")
        w.string(current.version)
        w.key("versions")
        w.beginArray()
        w.beginObject()
        w.key("version")
        w.string(current.version)
        w.key("current")
        w.bool(true)
        if let published = registry.currentPublished(id) {
            w.key("published")
            w.string(published)
        }
        w.endObject()
        for name in registry.keptVersions(id) where name.version != current.version {
            guard let form = registry.keptForm(id, hash: name.hash) else { continue }
            w.beginObject()
            w.key("version")
            w.string(name.version)
            w.key("current")
            w.bool(false)
            w.key("published")
            w.string(name.publishedISO)
            w.key("changed_since")
            fieldChanges(from: form, to: current).write(into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        var r = HTTPResponse.json(w.bytes)
        r.headers.set("Cache-Control", "no-cache")
        r.headers.set(Self.digestHeader, registry.formsDigest().value)
        return r
    }

    /// A version named in a path: `"<hash>"` (percent-encoded `%22` or not), or the bare hash.
    static func pathVersion(_ segment: Substring) -> String? {
        guard segment.utf8.count <= 64 else { return nil }
        var s = String(segment).replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%2D", with: "-")
        if !s.hasPrefix("\"") { s = "\"" + s + "\"" }
        return KeptVersionName.hash(ofVersion: Substring(s)) != nil ? s : nil
    }

    /// One version, current or kept: `what` is nil (the definition), `schema` or `openapi.json`.
    /// Named by its content, so immutable: `Cache-Control: public, max-age=31536000, immutable`.
    func getVersion(_ id: String, _ segment: Substring, _ what: Substring?, _ request: HTTPRequest) -> HTTPResponse {
        guard let tag = Self.pathVersion(segment) else {
            return HTTPError(status: 404, slug: "not-found", detail: "not a version of a form: a version is the quoted 32 hex digits of its ETag").response
        }
        let form: Form
        switch registry.form(id, versions: [Substring(tag)]) {
        case .current(let f), .kept(let f, _): form = f
        case .noForm: return Self.notFound("no form \"\(id)\"")
        case .notHeld(let current): return versionNotHeld(id, current: current, asked: [Substring(tag)], status: 404)
        }
        var body: [UInt8]
        var contentType = "application/json"
        var etag = form.version
        switch what {
        case nil:
            body = form.definitionJSON
            if tag != form.version, let locale = SupportedLocale.allCases.first(where: { form.definitionJSON(for: $0)?.version == tag }),
                let variant = form.definitionJSON(for: locale)
            {
                body = variant.json
                etag = variant.version
            }
        case "schema"?:
            body = JSONWriter.encode(Self.lenientSchema(request) ? form.lenientSubmissionSchema : form.submissionSchema)
            contentType = "application/schema+json"
        case "openapi.json"?:
            body = OpenAPIDocument.bytes(forVersion: form)
            etag = ETag.strong(of: body)
        default:
            return Self.notFound("no such resource: \(request.path)")
        }
        var r: HTTPResponse
        if let inm = request.headers.list("If-None-Match"), ETagList.matches(inm, etag, weak: true) {
            r = HTTPResponse(status: 304)
        } else {
            r = HTTPResponse.json(body)
            r.headers.set("Content-Type", contentType)
            r.compressionKey = "version " + (what.map(String.init) ?? "definition") + " " + etag
        }
        r.headers.set("ETag", etag)
        r.headers.set("Cache-Control", "public, max-age=31536000, immutable")
        return r
    }

    /// The first value of `name` in a query string, percent-decoded; bounded (at most 4 KB looked at).
    static func queryValue(_ query: String?, _ name: String) -> String? {
        guard let query, query.utf8.count <= 4096 else { return nil }
        for part in query.split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair[0] == name else { continue }
            let raw = pair.count > 1 ? Array(pair[1].utf8)[...] : []
            return FormURLEncoding.percentDecode(raw)
        }
        return nil
    }
}
