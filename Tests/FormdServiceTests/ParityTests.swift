import Foundation
import Testing
import FormdCore

/// The engine in-process through the typed API and the server over HTTP give the same answer,
/// byte for byte once both are parsed: for every form of a folder, with generated submissions,
/// and (when `FORMD_PARITY_CASES` names a folder of case files) every validate and evaluate case
/// there whose request is values, `changed` and a locale.
///
/// Folder: `FORMD_PARITY_FIXTURES`, else the bundled `Forms/`. A `tables/postal_codes.json` in it
/// is given to both sides. `.ci/run` runs this on the conformance fixtures and cases too.
@Suite("Parity: typed API in-process = server over HTTP", .timeLimit(.minutes(5)))
struct ParityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Request {
        let form: String
        let op: String
        let values: JSONObject
        let changed: [String]
        let locale: SupportedLocale
        let label: String
    }

    @Test func everyFormAndCase() throws {
        let env = ProcessInfo.processInfo.environment
        let folder = env["FORMD_PARITY_FIXTURES"].map { URL(fileURLWithPath: $0) } ?? Self.root.appendingPathComponent("Forms")
        let table = folder.appendingPathComponent("tables/postal_codes.json")
        let hasTable = FileManager.default.fileExists(atPath: table.path)
        var options = EvaluationOptions()
        if hasTable { options.postalCodes = try PostalCodeTable(json: JSONValue(json: Data(contentsOf: table))) }

        // The forms both sides can load (the server skips the others, as formd check rejects them).
        var forms: [String: Form] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".json") {
            let id = String(name.dropLast(5))
            guard FormLoader.isValidID(id) else { continue }
            if let form = try? Form(id: id, contentsOf: folder.appendingPathComponent(name), options: options) { forms[id] = form }
        }
        #expect(forms.count >= 5, "forms in \(folder.path)")

        var requests: [Request] = []
        for (id, form) in forms.sorted(by: { $0.key < $1.key }) {
            requests += Self.generated(id, form)
        }
        if let cases = env["FORMD_PARITY_CASES"] {
            requests += try Self.cases(in: URL(fileURLWithPath: cases), forms: forms)
        }

        var environment = ["FORMD_FORMS_RELOAD": "false", "FORMD_LOG_LEVEL": "error"]
        if hasTable { environment["FORMD_VALIDATORS_POSTAL_CODES"] = table.path }
        let scratch = try TempFolder()
        let server = try FormdServerProcess(forms: folder, environment: environment, directory: scratch.url)
        let client = try server.connect(timeout: 20)

        var compared = 0
        var mismatches: [String] = []
        for r in requests {
            guard let form = forms[r.form] else { continue }
            let body: JSONValue
            if r.op == "validate" {
                body = .object(r.values)
            } else {
                var o = JSONObject()
                o.append("values", .object(r.values))
                o.append("changed", .array(r.changed.map { .string($0) }))
                body = .object(o)
            }
            let answer = try client.exchange(
                "POST", "/forms/\(r.form)/\(r.op)?locale=\(r.locale.rawValue)",
                headers: [("Content-Type", "application/json")], body: JSONWriter.encode(body))
            let state: FormState
            if r.op == "validate" {
                state = try form.validate(r.values, locale: r.locale.rawValue)
            } else {
                do {
                    state = try form.evaluate(r.values, changed: r.changed, locale: r.locale.rawValue)
                } catch {
                    // The server refuses the same request.
                    if answer.status != 400 { mismatches.append("\(r.label): in-process \(error), server \(answer.status)") }
                    compared += 1
                    continue
                }
            }
            let remote = try JSONValue(json: answer.body)
            let local = try JSONValue(json: state.answerJSON)
            let status = r.op == "evaluate" || state.isValid ? 200 : 422
            if remote != local || answer.status != status {
                mismatches.append("\(r.label): server \(answer.status) \(remote.jsonText.prefix(400))\n    in-process \(status) \(local.jsonText.prefix(400))")
            }
            // And the server's answer read back as a typed state says the same.
            let read = try FormState(answer: answer.body)
            if read.values != state.values || read.errors != state.errors || read.dropped != state.dropped {
                mismatches.append("\(r.label): the answer read back differs")
            }
            compared += 1
        }
        let fromCases = requests.filter { !$0.label.hasPrefix("\($0.form) ") }.count
        print("parity: \(compared) requests (\(fromCases) from case files) on \(forms.count) forms compared, \(mismatches.count) differ")
        #expect(compared == requests.count && compared > 0)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(compared) differ:\n\(mismatches.prefix(10).joined(separator: "\n"))")
    }

    /// Per form: nothing, then each field with a value of another kind's shape, every option of
    /// each choice, and one instance per template, each validated and evaluated in every locale.
    static func generated(_ id: String, _ form: Form) -> [Request] {
        guard let definition = try? JSONValue(json: form.definitionJSON) else { return [] }
        var fieldIDs: [(String, [JSONValue])] = []
        func collect(_ fields: JSONValue?, instance: Int? = nil) {
            for f in fields?.arrayValue ?? [] {
                guard var fid = f["id"]?.stringValue else { continue }
                if let instance { fid = fid.replacingOccurrences(of: ":index", with: String(instance)) }
                let options = (f["values"]?.arrayValue ?? []).compactMap { $0["id"] }
                fieldIDs.append((fid, options))
            }
        }
        let groups = definition.arrayValue ?? definition["groups"]?.arrayValue ?? []
        for g in groups { for s in g["sections"]?.arrayValue ?? [] { collect(s["fields"]) } }
        for t in definition["templates"]?["sections"]?.arrayValue ?? [] { collect(t["fields"], instance: 1) }
        let samples: [JSONValue] = ["x", "Ola Nordmann", "ola@example.com", 7, "12", 2.5, "3,5", true, "2024-02-29", "10:30",
                                    "2024-02-29T10:30:00+01:00", "", .null, -1, "1e400"]
        var out: [Request] = []
        func add(_ values: JSONObject, _ changed: [String], _ label: String) {
            for op in ["validate", "evaluate"] {
                for locale in SupportedLocale.allCases {
                    out.append(Request(form: id, op: op, values: values, changed: op == "evaluate" ? changed : [],
                                       locale: locale, label: "\(id) \(op) \(locale.rawValue) \(label)"))
                }
            }
        }
        add([:], [], "{}")
        var all = JSONObject()
        for (i, (fid, options)) in fieldIDs.enumerated() {
            let v = samples[i % samples.count]
            all.append(fid, v)
            add([fid: v], [fid], "\(fid)=\(v.jsonText)")
            for o in options { add([fid: o], [fid], "\(fid)=\(o.jsonText)") }
        }
        add(all, fieldIDs.prefix(3).map(\.0), "every field")
        return out
    }

    /// The validate and evaluate cases of a folder of case files whose request is only values,
    /// `changed` and the locale (the others test HTTP decoding, not the engine).
    static func cases(in folder: URL, forms: [String: Form]) throws -> [Request] {
        var out: [Request] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".json") {
            guard case .array(let list) = try JSONValue(json: Data(contentsOf: folder.appendingPathComponent(name))) else { continue }
            for c in list {
                guard let op = c["op"]?.stringValue, op == "validate" || op == "evaluate",
                    let form = c["form"]?.stringValue, forms[form] != nil, let request = c["request"]?.objectValue
                else { continue }
                let allowed: Set<String> = ["values", "changed", "headers", "query"]
                guard request.keys.allSatisfy(allowed.contains), case .object(let values) = request["values"] ?? .object([:]) else { continue }
                let changed = (request["changed"]?.arrayValue ?? []).compactMap(\.stringValue)
                guard changed.count == (request["changed"]?.arrayValue?.count ?? 0) else { continue }
                let header = request["headers"]?.objectValue?.members.first { $0.key.lowercased() == "accept-language" }?.value.stringValue
                let query = request["query"]?.stringValue.map { $0.hasPrefix("?") ? String($0.dropFirst()) : $0 }
                let locale = negotiateLocale(query: query, acceptLanguage: header)
                out.append(Request(form: form, op: op, values: values, changed: changed, locale: locale,
                                   label: "\(name): \(c["name"]?.stringValue ?? "?")"))
            }
        }
        return out
    }
}
