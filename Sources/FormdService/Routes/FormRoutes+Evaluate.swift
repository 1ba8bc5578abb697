import FormdCore
import FormdHTTP
import Foundation

/// `POST /forms/{id}/validate` and `/evaluate` (API.md).
extension FormRoutes {
    /// `current`: set when `form` is a kept version (the answer then says what changed since).
    /// `versionChecked`: the route already chose `form` by the request's version (FormRoutes+Versions.swift).
    func validate(_ form: Form, _ request: HTTPRequest, current: Form? = nil, versionChecked: Bool = false) -> HTTPResponse {
        if !versionChecked, let failed = preconditionFailed(form, request) { return failed }
        var values = FormValues()
        // A JSON body's submission: its answer copies the values sent back as they were sent.
        // Its `values` are made only if remote rules need them (most submissions are read in place).
        var submission: FormSubmission? = nil
        var isFormPost = false
        switch decodeBody(request, for: form) {
        case .failure(let problem): return problem.response
        case .success(.object(let s)):
            submission = s
        case .success(.form(let pairs)):
            do {
                values = try form.values(fromFormPost: pairs)
            } catch {
                return HTTPError(status: 400, slug: "bad-request", detail: error.description).response
            }
            isFormPost = true
        case .success(.none): values = FormValues()
        case .success(.other): return HTTPError.notAnObject.response
        }
        let locale = negotiateLocale(query: request.query, acceptLanguage: request.headers.list("Accept-Language"))
        let answer: FormAnswer
        do {
            if let submission {
                answer = try form.validateAnswer(submission, locale: locale)
            } else {
                answer = try form.validateAnswer(values, locale: locale)
            }
        } catch {
            return HTTPError(status: 400, slug: "bad-rows", detail: error.description).response
        }
        metrics.formatTimedOut(answer.formatTimeouts)
        guard answer.remoteQuestions.isEmpty else {
            if let submission { values = submission.values }
            // Remote rules to ask (API.md §11): answered when the validators have spoken.
            return askRemote(answer.remoteQuestions, form, values) { [self, values, isFormPost] verdicts in
                // The same values read in the first pass: rows cannot fail here, but say so if they do.
                let answer: FormAnswer
                do {
                    answer = try form.validateAnswer(values, locale: locale, remote: verdicts)
                } catch {
                    return HTTPError(status: 400, slug: "bad-rows", detail: String(describing: error)).response
                }
                if isFormPost, let redirect = htmlRedirect(form, answer, request) { return redirect }
                return Self.stateResponse(
                    withVersionInfo(answer.json, form: form, current: current), status: answer.isValid ? 200 : 422, locale: answer.locale)
            }
        }
        if isFormPost, let redirect = htmlRedirect(form, answer, request) { return redirect }
        return Self.stateResponse(withVersionInfo(answer.json, form: form, current: current), status: answer.isValid ? 200 : 422, locale: answer.locale)
    }

    /// A deferred response: the questions go to the remote validators (concurrently, off every
    /// I/O loop); `answer` makes the response from their verdicts, or a fail-closed validator
    /// without a verdict makes it 503 `remote-unavailable` with `Retry-After`.
    func askRemote(
        _ questions: [RemoteQuestion], _ form: Form, _ values: FormValues,
        answer: @escaping @Sendable (RemoteVerdicts) -> HTTPResponse
    ) -> HTTPResponse {
        guard let remote else {
            return Self.remoteUnavailable(validator: questions[0].validator, field: questions[0].field, kind: "undeclared", retryAfter: 1)
        }
        let logger = self.logger
        return .deferred { complete in
            remote.ask(questions, form: form.id, version: form.version, values: values) { result in
                switch result {
                case .verdicts(let verdicts):
                    // The second pass is the engine's work: not on the client's loop.
                    DispatchQueue.global().async { complete(answer(verdicts)) }
                case .unavailable(let validator, let field, let kind, let retryAfter):
                    logger.warning(
                        "remote validator unavailable", metadata: ["validator": "\(validator)", "field": "\(field)", "kind": "\(kind)"])
                    complete(Self.remoteUnavailable(validator: validator, field: field, kind: kind, retryAfter: retryAfter))
                }
            }
        }
    }

    static func remoteUnavailable(validator: String, field: String, kind: String, retryAfter: Int) -> HTTPResponse {
        var r = HTTPResponse.problem(
            status: 503, slug: "remote-unavailable", title: "Remote validator unavailable",
            detail: "the remote validator \"\(validator)\" gave no verdict for \"\(field)\" (\(kind)); the submission is neither valid nor invalid: try again later")
        r.headers.set("Retry-After", String(retryAfter))
        return r
    }

    func evaluate(_ form: Form, _ request: HTTPRequest, current: Form? = nil, versionChecked: Bool = false) -> HTTPResponse {
        if !versionChecked, let failed = preconditionFailed(form, request) { return failed }
        var values = FormValues()
        var changed: [String] = []
        var previous = PreviousState.notSent
        switch decodeBody(request, for: form) {
        case .failure(let problem): return problem.response
        case .success(.none): break
        case .success(.form(let pairs)):
            do {
                values = try form.values(fromFormPost: pairs)
            } catch {
                return HTTPError(status: 400, slug: "bad-request", detail: error.description).response
            }
        case .success(.other): return HTTPError.notAnObject.response
        case .success(.object(let submission)):
            let body = submission.values
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
            case .null?: previous = .initial
            case .string(let token)?: previous = .token(token)
            default:
                return HTTPError(status: 400, slug: "bad-state", detail: "\"state\" must be a token from a previous answer, or null")
                    .response
            }
        }
        let locale = negotiateLocale(query: request.query, acceptLanguage: request.headers.list("Accept-Language"))
        let answer: FormAnswer
        do {
            answer = try form.evaluateAnswer(values, changed: changed, previous: previous, locale: locale)
        } catch {
            switch error {
            case .unknownChangedID(let unknown):
                return HTTPError(status: 400, slug: "bad-request", detail: "\"changed\" names \"\(unknown)\", which the form does not have")
                    .response
            case .badState(let why): return HTTPError(status: 400, slug: "bad-state", detail: why).response
            case .repeatedFormKey: return HTTPError(status: 400, slug: "bad-request", detail: error.description).response
            case .badRows: return HTTPError(status: 400, slug: "bad-rows", detail: error.description).response
            }
        }
        metrics.formatTimedOut(answer.formatTimeouts)
        guard answer.remoteQuestions.isEmpty else {
            // Only fields in `changed` ask (SEMANTICS §6.2).
            return askRemote(answer.remoteQuestions, form, values) { [self, values, changed, previous] verdicts in
                let answer = (try? form.evaluateAnswer(values, changed: changed, previous: previous, locale: locale, remote: verdicts)) ?? answer
                return Self.stateResponse(withVersionInfo(answer.json, form: form, current: current), status: 200, locale: answer.locale)
            }
        }
        return Self.stateResponse(withVersionInfo(answer.json, form: form, current: current), status: 200, locale: answer.locale)
    }

    static func stateResponse(_ body: [UInt8], status: Int, locale: SupportedLocale) -> HTTPResponse {
        // Built in one array with room for the route's digest field: no copy of the shared JSON
        // field list, no growth.
        var headers = HTTPHeaders()
        headers.reserveCapacity(4)
        headers.add("Content-Type", "application/json")
        headers.add("Content-Language", locale.rawValue)
        headers.add("Vary", "Accept-Language")
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// `If-Match` with `*` or a list of ETags, strong comparison; no match → 412.
    func preconditionFailed(_ form: Form, _ request: HTTPRequest) -> HTTPResponse? {
        guard let header = request.headers.list("If-Match") else { return nil }
        // The form's own tag, or a per-language variant's (it pins the same version).
        if form.versions.contains(where: { ETagList.matches(header, $0, weak: false) }) { return nil }
        return HTTPError(
            status: 412, slug: "precondition-failed", detail: "the form's version is \(form.version), not \(header)"
        ).response
    }

    enum Body {
        case none
        /// A JSON object, kept with the body's bytes.
        case object(FormSubmission)
        /// An HTML form post (`application/x-www-form-urlencoded`, or `multipart/form-data` without
        /// files): its pairs in order.
        case form([(key: String, value: String)])
        case other
    }

    /// JSON (also without a Content-Type) or an HTML form post; anything else is 415.
    /// `form`'s field ids are the JSON decoder's key hints (`Form.submission(json:)`): the same
    /// values and errors, fewer strings made.
    func decodeBody(_ request: HTTPRequest, for form: Form) -> Result<Body, HTTPError> {
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
            guard let submission = try form.submission(body: request.body) else { return .success(.other) }
            return .success(.object(submission))
        } catch {
            return .failure(
                HTTPError(status: 400, slug: "invalid-json", detail: "line \(error.line), column \(error.column): \(error.message)"))
        }
    }
}
