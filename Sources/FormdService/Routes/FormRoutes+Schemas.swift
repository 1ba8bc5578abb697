import FormdCore
import FormdHTTP

/// `GET /schemas/form-definition.json` and `GET /forms/{id}/schema` (API.md §3, §4).
extension FormRoutes {
    static let definitionSchemaETag = ETag.strong(of: DefinitionSchema.bytes)

    func definitionSchema(_ request: HTTPRequest) -> HTTPResponse {
        var r = Self.cacheable(DefinitionSchema.bytes, etag: Self.definitionSchemaETag, contentType: "application/schema+json", request)
        r.compressionKey = "definition-schema " + Self.definitionSchemaETag
        return r
    }

    /// The schema follows the form's definition, so its ETag is the form's `version`.
    func submissionSchema(_ id: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let form = registry.form(id) else { return Self.notFound("no form \"\(id)\"") }
        if let inm = request.headers.list("If-None-Match"), ETagList.matches(inm, form.version, weak: true) {
            return Self.cacheable([], etag: form.version, contentType: nil, request)  // a 304: nothing to build
        }
        let bytes = JSONWriter.encode(Self.lenientSchema(request) ? form.lenientSubmissionSchema : form.submissionSchema)
        return Self.cacheable(bytes, etag: form.version, contentType: "application/schema+json", request)
    }

    /// `?lenient=1` (or `true`): the schema of every spelling formd accepts (API.md §4.1).
    static func lenientSchema(_ request: HTTPRequest) -> Bool {
        guard let v = queryValue(request.query, "lenient") else { return false }
        return v == "1" || v == "true"
    }

    static func cacheable(_ bytes: [UInt8], etag: String, contentType: String?, _ request: HTTPRequest) -> HTTPResponse {
        var r: HTTPResponse
        if let inm = request.headers.list("If-None-Match"), ETagList.matches(inm, etag, weak: true) {
            r = HTTPResponse(status: 304)
        } else {
            r = HTTPResponse.json(bytes)
            if let contentType { r.headers.set("Content-Type", contentType) }
        }
        r.headers.set("ETag", etag)
        r.headers.set("Cache-Control", "no-cache")
        return r
    }
}
