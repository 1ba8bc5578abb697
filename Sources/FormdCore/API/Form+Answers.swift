/// The server's answers, as bytes: what `POST /forms/{id}/validate` and `/evaluate` send
/// (API reference §4-§5). The server, the CLI and every client call these; the same input gives
/// the same bytes everywhere.
///
/// ```swift
/// let answer = form.validateAnswer(values, locale: .nb)
/// answer.isValid     // false
/// answer.json        // {"form":"signup","version":"…","valid":false,"values":{…},"errors":[…],…}
/// ```
public struct FormAnswer: Sendable {
    /// The answer's JSON bytes.
    public let json: [UInt8]
    /// No errors (validate: 200 rather than 422).
    public let isValid: Bool
    /// The language the messages are in.
    public let locale: SupportedLocale
    /// `format` checks that gave up on their budget (each counts as not matching).
    public let formatTimeouts: Int
    /// Fields whose `format` this build could not check, once each: always empty natively. In
    /// WebAssembly (until the engine has its own linear regex matcher) a pattern the engine-free
    /// `SimplePattern` cannot decide is not guessed: the check passes here, the field is listed,
    /// and the answer is provisional for it: only the server's answer is final (docs/WASM.md).
    public let deferredFormats: [String]
    /// Remote rules this answer could not decide (SEMANTICS §6.2): fields whose local checks
    /// passed and whose verdict was not supplied. Empty for forms without remote rules. The
    /// answer is provisional for these fields: the server asks the validators and decides.
    public let remoteQuestions: [RemoteQuestion]
    /// The errors, for `subjectsInError` (kept, not converted: most callers never ask).
    let errors: [FormError]

    /// The fields and sections with errors, once each, in the order of `errors`.
    public var subjectsInError: [String] {
        var ids: [String] = []
        var seen = Set<String>()
        for error in errors {
            switch error.subject {
            case .field(let id), .section(let id): if seen.insert(id).inserted { ids.append(id) }
            case .form: break
            }
        }
        return ids
    }
}

/// What an evaluate request says of the state its client holds (API reference §5.1).
public enum PreviousState: Sendable, Equatable {
    /// No `state` key: the answer has no `state` and no `changes`.
    case notSent
    /// `"state": null`: nothing yet; every section and visible field is inserted.
    case initial
    /// The `state` token of the previous answer.
    case token(String)
}

extension Form {
    /// A submission's bytes decoded, as `FormValues(json:)` decodes them (the same values and
    /// the same errors), faster for this form: keys written as its field ids are not decoded
    /// again but shared with the form.
    public func values(json bytes: [UInt8]) throws(JSONParseError) -> FormValues {
        guard case .object(let o) = try submission(json: bytes) else {
            throw JSONParseError(message: "expected a JSON object", line: 1, column: 1, offset: 0)
        }
        return o
    }

    /// A submission's bytes decoded as `values(json:)` decodes them (the same values and the same
    /// errors), kept with the bytes: its answers copy the values sent back as they were sent.
    public func submission(fromJSON bytes: [UInt8]) throws(JSONParseError) -> FormSubmission {
        guard let submission = try submission(body: bytes) else {
            throw JSONParseError(message: "expected a JSON object", line: 1, column: 1, offset: 0)
        }
        return submission
    }

    /// `submission(fromJSON:)` of a request body, nil for JSON that is not an object (the server
    /// answers that itself). A usual submission is read in place (`SentMembers`); any other
    /// document is decoded, with the same values and errors.
    package func submission(body bytes: [UInt8]) throws(JSONParseError) -> FormSubmission? {
        let hints = loaded.plan.staticSlotMap.submissionKeys
        if let sent = bytes.withUnsafeBufferPointer({ JSONParser.scanSubmission(buffer: $0, keyHints: hints.view) }) {
            return FormSubmission(sent: sent, hints: hints, from: bytes)
        }
        guard case .object(let o) = try submission(json: bytes) else { return nil }
        return FormSubmission(decoded: o, from: bytes)
    }

    /// A request body decoded as `JSONValue(json:)` decodes it, with the form's ids as key hints
    /// (`values(json:)`); the server tells a body that is not an object apart itself.
    package func submission(json bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            try JSONParser.parse(buffer: buffer, options: .submission, keyHints: loaded.plan.staticSlotMap.submissionKeys.view).root
        }
    }

    /// The validate answer for `values` (a decoded submission: flat keys, or repeating sections
    /// as rows, API reference §4.3). With `remote`, the remote rules' verdicts (by field id)
    /// decide those rules; a rule without a verdict is listed in `remoteQuestions` and adds no error.
    ///
    /// - Throws: ``FormRequestError/badRows(_:)`` for rows formd cannot read.
    public func validateAnswer(
        _ values: FormValues, locale: SupportedLocale? = nil, remote: RemoteVerdicts? = nil, reservingCapacity capacity: Int = 512
    ) throws(FormRequestError) -> FormAnswer {
        try validateAnswer(SubmittedValues(values), sentJSON: nil, locale: locale, remote: remote, reservingCapacity: capacity)
    }

    /// The validate answer for a decoded submission: the same bytes as for its `values`.
    ///
    /// - Throws: ``FormRequestError/badRows(_:)`` for rows formd cannot read.
    public func validateAnswer(
        _ submission: FormSubmission, locale: SupportedLocale? = nil, remote: RemoteVerdicts? = nil, reservingCapacity capacity: Int = 512
    ) throws(FormRequestError) -> FormAnswer {
        try submission.withStorage { (json, members, decoded, keys) throws(FormRequestError) in
            try validateAnswer(
                submitted(submission, json, members, decoded, keys), sentJSON: json, locale: locale, remote: remote,
                reservingCapacity: capacity)
        }
    }

    /// `sentJSON`: the bytes `values` were decoded from (`FormSubmission`), or nil. Not inlined
    /// into the two public entries: the evaluation inlined here is some 10 KB of code, which the
    /// WebAssembly module (calling both) would carry twice.
    @inline(never) private func validateAnswer(
        _ values: consuming SubmittedValues, sentJSON: UnsafeBufferPointer<UInt8>?, locale: SupportedLocale?, remote: RemoteVerdicts?,
        reservingCapacity capacity: Int
    ) throws(FormRequestError) -> FormAnswer {
        var o = options(for: locale)
        o.remoteVerdicts = remote
        let evaluation = try Evaluation.of(plan: loaded.plan, consume values, sentJSON: sentJSON, mode: .validate, options: o)
        // An error entry is ~120-200 bytes: reserving for them spares an invalid answer the
        // buffer's regrowth (a copy and a second allocation).
        let json = JSONWriter.array(reservingCapacity: capacity + 192 * evaluation.errors.count) { w in
            evaluation.validateResponse(head: loaded.answerHead, into: &w)
        }
        return FormAnswer(evaluation, json: json)
    }

    /// The evaluate answer: the live state after `changed` (value targets run for those ids),
    /// with `state` and `changes` when the client sent its previous state.
    ///
    /// - Throws: ``FormRequestError/unknownChangedID(_:)`` for an id the form does not have;
    ///   ``FormRequestError/badState(_:)`` for a token of another form or version, or a damaged one;
    ///   ``FormRequestError/badRows(_:)`` for rows formd cannot read.
    public func evaluateAnswer(
        _ values: FormValues, changed: [String] = [], previous: PreviousState = .notSent, locale: SupportedLocale? = nil,
        remote: RemoteVerdicts? = nil, reservingCapacity capacity: Int = 1024
    ) throws(FormRequestError) -> FormAnswer {
        try evaluateAnswer(
            SubmittedValues(values), sentJSON: nil, changed: changed, previous: previous, locale: locale, remote: remote,
            reservingCapacity: capacity)
    }

    /// The evaluate answer for a decoded submission: the same bytes as for its `values`.
    ///
    /// - Throws: as `evaluateAnswer(_:changed:previous:locale:remote:reservingCapacity:)` with its values.
    public func evaluateAnswer(
        _ submission: FormSubmission, changed: [String] = [], previous: PreviousState = .notSent, locale: SupportedLocale? = nil,
        remote: RemoteVerdicts? = nil, reservingCapacity capacity: Int = 1024
    ) throws(FormRequestError) -> FormAnswer {
        try submission.withStorage { (json, members, decoded, keys) throws(FormRequestError) in
            try evaluateAnswer(
                submitted(submission, json, members, decoded, keys), sentJSON: json, changed: changed, previous: previous, locale: locale, remote: remote,
                reservingCapacity: capacity)
        }
    }

    @inline(never) private func evaluateAnswer(
        _ values: consuming SubmittedValues, sentJSON: UnsafeBufferPointer<UInt8>?, changed: [String], previous: PreviousState,
        locale: SupportedLocale?, remote: RemoteVerdicts?, reservingCapacity capacity: Int
    ) throws(FormRequestError) -> FormAnswer {
        if let bad = loaded.plan.unknownChangedID(changed) { throw .unknownChangedID(bad) }
        let snapshot: StateSnapshot?
        switch previous {
        case .notSent: snapshot = nil
        case .initial: snapshot = .empty
        case .token(let token):
            do {
                snapshot = try StateSnapshot(token: token, form: loaded.id, version: loaded.version, plan: loaded.plan)
            } catch {
                throw .badState(error.description)
            }
        }
        var o = options(for: locale)
        o.remoteVerdicts = remote
        let evaluation = try Evaluation.of(
            plan: loaded.plan, consume values, sentJSON: sentJSON, changed: changed, mode: .evaluate, options: o)
        let json = JSONWriter.array(reservingCapacity: capacity + 192 * evaluation.errors.count) { w in
            evaluation.evaluateResponse(head: loaded.answerHead, form: loaded.id, version: loaded.version, previous: snapshot, into: &w)
        }
        return FormAnswer(evaluation, json: json)
    }

    /// A submission's members as this form's evaluation reads them: in place when they were
    /// read with this form's key hints (from `json`, its bytes), else its values (another
    /// form's submission).
    /// The buffers are `submission`'s (`FormSubmission.withStorage`): valid only while it is.
    private func submitted(
        _ submission: FormSubmission, _ json: UnsafeBufferPointer<UInt8>, _ members: UnsafeBufferPointer<SentMembers.Member>,
        _ decoded: UnsafeBufferPointer<JSONValue>, _ keys: UnsafeBufferPointer<String>
    ) -> SubmittedValues {
        if let hints = submission.hints, hints === loaded.plan.staticSlotMap.submissionKeys {
            return SubmittedValues(sent: members, decoded: decoded, keys: keys, ids: hints.view, bytes: json)
        }
        return SubmittedValues(submission.values)
    }

    func options(for locale: SupportedLocale?) -> EvaluationOptions {
        guard let locale else { return options }
        var o = options
        o.locale = locale
        return o
    }
}

extension FormAnswer {
    init(_ e: borrowing Evaluation, json: [UInt8]) {
        self.json = json
        isValid = e.isValid
        locale = e.options.locale
        formatTimeouts = e.formatTimeouts
        deferredFormats = e.deferredFormats
        remoteQuestions = e.remoteQuestions
        errors = e.errors
    }
}
