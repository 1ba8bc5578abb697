@_spi(Engine) import FormdCore
import FormdHTTP
import Foundation

/// `POST /forms/{id}/validate` and `/evaluate` (API.md).
extension FormService {
    func validate(_ form: LoadedForm, _ request: HTTPRequest) -> HTTPResponse {
        if let failed = preconditionFailed(form, request) { return failed }
        let values: JSONObject
        var isFormPost = false
        switch decodeBody(request) {
        case .failure(let problem): return problem.response
        case .success(.object(let o)): values = o
        case .success(.form(let pairs)):
            switch HTMLFormPost.values(pairs, plan: form.plan) {
            case .success(let o): values = o
            case .failure(let problem): return problem.response
            }
            isFormPost = true
        case .success(.none): values = JSONObject()
        case .success(.other): return HTTPError.notAnObject.response
        }
        var options = engineOptions
        options.locale = negotiateLocale(query: request.query, acceptLanguage: request.headers.list("Accept-Language"))
        let evaluation = Evaluation(plan: form.plan, values: values, mode: .validate, options: options)
        metrics.formatTimedOut(evaluation.formatTimeouts)
        if isFormPost, let redirect = htmlRedirect(form, evaluation, request) { return redirect }
        var w = JSONWriter(reservingCapacity: 512)
        evaluation.validateResponse(form: form.id, version: form.version, into: &w)
        return Self.stateResponse(w.bytes, status: evaluation.isValid ? 200 : 422, locale: options.locale)
    }

    func evaluate(_ form: LoadedForm, _ request: HTTPRequest) -> HTTPResponse {
        if let failed = preconditionFailed(form, request) { return failed }
        var values = JSONObject()
        var changed: [String] = []
        var previous: StateSnapshot?
        switch decodeBody(request) {
        case .failure(let problem): return problem.response
        case .success(.none): break
        case .success(.form(let pairs)):
            switch HTMLFormPost.values(pairs, plan: form.plan) {
            case .success(let o): values = o
            case .failure(let problem): return problem.response
            }
        case .success(.other): return HTTPError.notAnObject.response
        case .success(.object(let body)):
            switch body["values"] {
            case nil, .null?: break
            case .object(let o)?: values = o
            default: return HTTPError(status: 400, slug: "not-an-object", detail: "\"values\" must be an object").response
            }
            switch body["changed"] {
            case nil, .null?: break
            case .array(let items)?:
                guard items.count <= maxChanged else {
                    return HTTPError(
                        status: 400, slug: "bad-request",
                        detail: "\"changed\" lists \(items.count) ids; at most \(maxChanged) are accepted (limits.max_changed)"
                    ).response
                }
                for item in items {
                    guard case .string(let id) = item else {
                        return HTTPError(status: 400, slug: "bad-request", detail: "\"changed\" must list field ids as strings")
                            .response
                    }
                    changed.append(id)
                }
            default:
                return HTTPError(status: 400, slug: "bad-request", detail: "\"changed\" must be a list of field ids").response
            }
            // A declarative client's previous `state` (API.md §5.1): null is "nothing yet".
            switch body["state"] {
            case nil: break
            case .null?: previous = .empty
            case .string(let token)?:
                do {
                    previous = try StateSnapshot(token: token, form: form.id, version: form.version, plan: form.plan)
                } catch {
                    return HTTPError(status: 400, slug: "bad-state", detail: error.description).response
                }
            default:
                return HTTPError(status: 400, slug: "bad-state", detail: "\"state\" must be a token from a previous answer, or null")
                    .response
            }
        }
        if let unknown = form.plan.unknownChangedID(changed) {
            return HTTPError(status: 400, slug: "bad-request", detail: "\"changed\" names \"\(unknown)\", which the form does not have")
                .response
        }
        var options = engineOptions
        options.locale = negotiateLocale(query: request.query, acceptLanguage: request.headers.list("Accept-Language"))
        let evaluation = Evaluation(plan: form.plan, values: values, changed: changed, mode: .evaluate, options: options)
        metrics.formatTimedOut(evaluation.formatTimeouts)
        var w = JSONWriter(reservingCapacity: 1024)
        evaluation.evaluateResponse(form: form.id, version: form.version, previous: previous, into: &w)
        return Self.stateResponse(w.bytes, status: 200, locale: options.locale)
    }

    static func stateResponse(_ body: [UInt8], status: Int, locale: SupportedLocale) -> HTTPResponse {
        var r = HTTPResponse.json(body, status: status)
        r.headers.set("Content-Language", locale.rawValue)
        r.headers.set("Vary", "Accept-Language")
        return r
    }

    /// `If-Match` with `*` or a list of ETags, strong comparison; no match → 412.
    func preconditionFailed(_ form: LoadedForm, _ request: HTTPRequest) -> HTTPResponse? {
        guard let header = request.headers.list("If-Match") else { return nil }
        if ETagList.matches(header, form.version, weak: false) { return nil }
        // A per-language variant's tag pins the same version.
        if form.localizedDefinitions.values.contains(where: { ETagList.matches(header, $0.version, weak: false) }) { return nil }
        return HTTPError(
            status: 412, slug: "precondition-failed", detail: "the form's version is \(form.version), not \(header)"
        ).response
    }

    enum Body {
        case none
        case object(JSONObject)
        /// An HTML form post (`application/x-www-form-urlencoded`, or `multipart/form-data` without
        /// files): its pairs in order.
        case form([(key: String, value: String)])
        case other
    }

    /// JSON (also without a Content-Type) or an HTML form post; anything else is 415.
    func decodeBody(_ request: HTTPRequest) -> Result<Body, HTTPError> {
        let type = request.headers["Content-Type"].map(MediaType.essence) ?? "application/json"
        if type == "application/x-www-form-urlencoded" {
            return FormURLEncoding.decode(request.body).map { .form($0) }
        }
        if type == "multipart/form-data" {
            return MultipartFormData.decode(request.body, contentType: request.headers["Content-Type"] ?? "").map { .form($0) }
        }
        guard type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json")) else {
            return .failure(
                HTTPError(
                    status: 415, slug: "unsupported-media-type",
                    detail: "send application/json, application/x-www-form-urlencoded or multipart/form-data"))
        }
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .success(.none) }
        do {
            let doc = try JSONParser.parse(request.body, options: .submission)
            if case .object(let o) = doc.root { return .success(.object(o)) }
            return .success(.other)
        } catch {
            return .failure(
                HTTPError(status: 400, slug: "invalid-json", detail: "line \(error.line), column \(error.column): \(error.message)"))
        }
    }
}
