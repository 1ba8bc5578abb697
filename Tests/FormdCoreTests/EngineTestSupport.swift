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

    static func run(
        _ form: LoadedForm, _ values: String = "{}", changed: [String] = [], mode: Evaluation.Mode = .evaluate,
        locale: SupportedLocale = .en, postalCodes: PostalCodeTable? = nil
    ) throws -> Response {
        let bytes = try body(form, values, changed: changed, mode: mode, locale: locale, postalCodes: postalCodes)
        return Response(root: try JSONParser.parse(bytes).root)
    }

    /// The raw response bytes.
    static func body(
        _ form: LoadedForm, _ values: String, changed: [String] = [], mode: Evaluation.Mode = .evaluate,
        locale: SupportedLocale = .en, postalCodes: PostalCodeTable? = nil
    ) throws -> [UInt8] {
        let e = try evaluation(form, values, changed: changed, mode: mode, locale: locale, postalCodes: postalCodes)
        var w = JSONWriter()
        switch mode {
        case .validate: e.validateResponse(form: form.id, version: form.version, into: &w)
        case .evaluate: e.evaluateResponse(form: form.id, version: form.version, into: &w)
        }
        return w.bytes
    }

    static func evaluation(
        _ form: LoadedForm, _ values: String, changed: [String] = [], mode: Evaluation.Mode = .evaluate,
        locale: SupportedLocale = .en, postalCodes: PostalCodeTable? = nil
    ) throws -> Evaluation {
        let object = try #require(try JSONParser.parse(values).root.objectValue)
        return Evaluation(
            plan: form.plan, values: object, changed: changed, mode: mode,
            options: EvaluationOptions(locale: locale, postalCodes: postalCodes))
    }

    /// JSON literal → value, for expectations.
    static func json(_ text: String) -> JSONValue { try! JSONParser.parse(text).root }
}

/// A parsed validate or evaluate response.
struct Response {
    let root: JSONValue

    var values: JSONObject { root["values"]?.objectValue ?? JSONObject() }
    var valueKeys: [String] { values.members.map(\.key) }
    func value(_ id: String) -> JSONValue? { values[id] }
    /// The value as compact JSON text (`nil` when absent), e.g. `"300"` for the number 300.
    func text(_ id: String) -> String? { values[id]?.jsonText }

    var errors: [JSONValue] { root["errors"]?.arrayValue ?? [] }
    /// `field:code` (or `section:code`, or `:code` for form-level) per error, in order.
    var errorList: [String] {
        errors.map { e in
            let subject = e["field"]?.stringValue ?? e["section"]?.stringValue ?? ""
            return subject + ":" + (e["code"]?.stringValue ?? "?")
        }
    }
    func codes(_ field: String) -> [String] {
        errors.filter { $0["field"]?.stringValue == field }.compactMap { $0["code"]?.stringValue }
    }
    func error(_ field: String, _ code: String) -> JSONValue? {
        errors.first { ($0["field"]?.stringValue ?? $0["section"]?.stringValue) == field && $0["code"]?.stringValue == code }
    }

    /// `field:reason` per dropped key.
    var dropped: [String] {
        (root["dropped"]?.arrayValue ?? []).map { ($0["field"]?.stringValue ?? "") + ":" + ($0["reason"]?.stringValue ?? "") }
    }
    /// `id:type:action` (plus `=value`) per action.
    var actions: [String] {
        (root["actions"]?.arrayValue ?? []).map { a in
            var s = (a["id"]?.stringValue ?? "") + ":" + (a["type"]?.stringValue ?? "") + ":" + (a["action"]?.stringValue ?? "")
            if let v = a["value"] { s += "=" + v.jsonText }
            return s
        }
    }

    func visible(_ id: String) -> Bool? { root["fields"]?[id]?["visible"]?.boolValue }
    func enabled(_ id: String) -> Bool? { root["fields"]?[id]?["enabled"]?.boolValue }
    func required(_ id: String) -> Bool? { root["fields"]?[id]?["required"]?.boolValue }
    func sectionVisible(_ id: String) -> Bool? { root["sections"]?[id]?["visible"]?.boolValue }
    var fieldIDs: [String] { root["fields"]?.objectValue?.members.map(\.key) ?? [] }
    var sectionIDs: [String] { root["sections"]?.objectValue?.members.map(\.key) ?? [] }

    var hidden: [String] { root["hidden"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    var disabled: [String] { root["disabled"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    var valid: Bool? { root["valid"]?.boolValue }
}
