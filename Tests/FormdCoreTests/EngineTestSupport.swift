import Testing
@testable import FormdCore

/// Shared helpers for the engine suites: inline definitions, one evaluation, the parsed response.
enum Engine {
    /// `[{"sections": [{"id": "s", "fields": [...]}]}]` around the given field objects.
    static func fields(_ fields: String...) -> String {
        "[{\"id\": \"g\", \"sections\": [{\"id\": \"s\", \"fields\": [" + fields.joined(separator: ",") + "]}]}]"
    }

    /// Loads a definition that must pass its checks.
    static func load(_ definition: String, id: String = "f", sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
        -> LoadedForm
    {
        let result = FormLoader.load(id: id, bytes: Array(definition.utf8))
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "unexpected load errors: \(errors)", sourceLocation: sourceLocation)
        return try #require(result.form, sourceLocation: sourceLocation)
    }

    /// The diagnostics of loading a definition.
    static func diagnostics(_ definition: String) -> [Diagnostic] {
        FormLoader.load(id: "f", bytes: Array(definition.utf8)).diagnostics
    }

    static func errors(_ definition: String) -> [Diagnostic] { diagnostics(definition).filter { $0.severity == .error } }
    static func warnings(_ definition: String) -> [Diagnostic] {
        diagnostics(definition).filter { $0.severity == .warning }
    }

    /// Runs one evaluation and returns the response body, parsed back.
    static func run(
        _ definition: String, _ values: String = "{}", changed: [String] = [], mode: Evaluation.Mode = .evaluate,
        locale: SupportedLocale = .en, postalCodes: PostalCodeTable? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Response {
        let form = try load(definition, sourceLocation: sourceLocation)
        return try run(form, values, changed: changed, mode: mode, locale: locale, postalCodes: postalCodes)
    }

    /// Runs one evaluation through the typed API (`Form.evaluate` / `Form.validate`).
    static func run(
        _ form: LoadedForm, _ values: String = "{}", changed: [String] = [], mode: Evaluation.Mode = .evaluate,
        locale: SupportedLocale = .en, postalCodes: PostalCodeTable? = nil
    ) throws -> Response {
        let typed = Form(loaded: form, options: EvaluationOptions(locale: locale, postalCodes: postalCodes))
        let object = try FormValues(json: Array(values.utf8))
        let state = mode == .validate ? try typed.validate(object) : try typed.evaluate(object, changed: changed)
        return Response(state: state, json: { try body(form, values, changed: changed, mode: mode, locale: locale, postalCodes: postalCodes) })
    }

    /// The raw response bytes.
    static func body(
        _ form: LoadedForm, _ values: String, changed: [String] = [], mode: Evaluation.Mode = .evaluate,
        locale: SupportedLocale = .en, postalCodes: PostalCodeTable? = nil
    ) throws -> [UInt8] {
        let e = try evaluation(form, values, changed: changed, mode: mode, locale: locale, postalCodes: postalCodes)
        var w = JSONWriter()
        switch mode {
        case .validate: e.validateResponse(head: form.answerHead, into: &w)
        case .evaluate: e.evaluateResponse(head: form.answerHead, form: form.id, version: form.version, into: &w)
        }
        return w.bytes
    }

    static func evaluation(
        _ form: LoadedForm, _ values: String, changed: [String] = [], mode: Evaluation.Mode = .evaluate,
        locale: SupportedLocale = .en, postalCodes: PostalCodeTable? = nil
    ) throws -> Evaluation {
        let object = try #require(try JSONParser.parse(values).root.objectValue)
        return try Evaluation.of(
            plan: form.plan, values: object, changed: changed, mode: mode,
            options: EvaluationOptions(locale: locale, postalCodes: postalCodes))
    }

    /// JSON literal → value, for expectations.
    static func json(_ text: String) -> JSONValue { try! JSONParser.parse(text).root }
}

/// One typed state (`FormState`) with the accessors the engine suites read. `root` is the JSON
/// answer the service would send, built only by the tests of the wire shape.
struct Response {
    let state: FormState
    let json: () throws -> [UInt8]

    var root: JSONValue { try! JSONParser.parse(try! json()).root }

    var values: JSONObject { state.values }
    var valueKeys: [String] { values.members.map(\.key) }
    func value(_ id: String) -> JSONValue? { state.value(id) }
    /// The value as compact JSON text (`nil` when absent), e.g. `"300"` for the number 300.
    func text(_ id: String) -> String? { state.value(id)?.jsonText }

    /// Each error as the object the wire carries (`field`/`section`, `code`, `message`, `params`).
    var errors: [JSONValue] {
        state.errors.map { e in
            var o = JSONObject()
            switch e.subject {
            case .field(let id): o.append("field", .string(id))
            case .section(let id): o.append("section", .string(id))
            case .form: break
            }
            o.append("code", .string(e.code))
            o.append("message", .string(e.message))
            o.append("params", .object(JSONObject(e.params.map { JSONObject.Member(key: $0.key, value: $0.value) })))
            return .object(o)
        }
    }
    /// `field:code` (or `section:code`, or `:code` for form-level) per error, in order.
    var errorList: [String] {
        state.errors.map { e in
            switch e.subject {
            case .field(let id), .section(let id): id + ":" + e.code
            case .form: ":" + e.code
            }
        }
    }
    func codes(_ field: String) -> [String] { state.errors(for: field).map(\.code) }
    func error(_ field: String, _ code: String) -> JSONValue? {
        zip(state.errors, errors).first { pair in
            switch pair.0.subject {
            case .field(let id), .section(let id): id == field && pair.0.code == code
            case .form: false
            }
        }?.1
    }

    /// `field:reason` per dropped key.
    var dropped: [String] { state.dropped.map { $0.key + ":" + $0.reason.rawValue } }
    /// `id:type:action` (plus `=value`) per action.
    var actions: [String] {
        state.actions.map { a in
            var s = a.id + ":" + a.type + ":" + a.action.rawValue
            if let v = a.value { s += "=" + v.jsonText }
            return s
        }
    }

    func visible(_ id: String) -> Bool? { state.field(id)?.isVisible }
    func enabled(_ id: String) -> Bool? { state.field(id)?.isEnabled }
    func required(_ id: String) -> Bool? { state.field(id)?.isRequired }
    func sectionVisible(_ id: String) -> Bool? { state.section(id)?.isVisible }
    var fieldIDs: [String] { state.fields.map(\.id) }
    var sectionIDs: [String] { state.sections.map(\.id) }

    var hidden: [String] { state.hidden }
    var disabled: [String] { state.disabled }
    var valid: Bool? { state.isValid }
}
