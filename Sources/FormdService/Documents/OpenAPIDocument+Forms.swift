import FormdCore

/// One `POST /forms/<id>/validate` operation per loaded form, whose request body is that form's
/// submission schema (`Submission-<id>` in `components.schemas`), so that generators such as
/// openapi-generator or quicktype produce one typed model per form (API.md §2).
extension OpenAPIDocument {
    private static let base: JSONObject = {
        guard case .object(let o)? = try? JSONValue(parsing: text) else { preconditionFailure("OpenAPIDocument.text is not JSON") }
        return o
    }()

    /// The document for one version of one form (`GET /forms/{id}/versions/{version}/openapi.json`):
    /// the API, with that version's submission schema as the form's `validate` body.
    static func bytes(forVersion form: Form) -> [UInt8] {
        bytes(forms: [form], note: " (version \(form.version); send it as If-Match)")
    }

    /// Compiles every form it has not cached (the cache's budget still holds: each is used and let go).
    static func bytes(for registry: FormRegistry) -> [UInt8] {
        bytes(forms: registry.ids().lazy.compactMap { registry.form($0) }, note: "")
    }

    private static func bytes(forms: some Sequence<Form>, note: String) -> [UInt8] {
        var document = base
        var paths = document["paths"]?.objectValue ?? JSONObject()
        var components = document["components"]?.objectValue ?? JSONObject()
        var schemas = components["schemas"]?.objectValue ?? JSONObject()
        let generic = paths["/forms/{id}/validate"]?.objectValue?["post"]?.objectValue ?? JSONObject()
        for form in forms {
            let id = form.id
            guard case .object(var schema) = form.submissionSchema else { continue }
            // Without `title`, generators name the model after the component (`SubmissionExpenses`).
            schema.members.removeAll { $0.key == "$schema" || $0.key == "$id" || $0.key == "title" }
            let name = "Submission-\(id)"
            schemas.append(name, .object(schema))
            var operation = generic
            operation.set("operationId", .string("validate-\(id)"))
            operation.set("summary", .string("Check a submission to \"\(form.title)\"" + note))
            operation.set("requestBody", .object(JSONObject([
                .init(key: "required", value: .bool(false)),
                .init(key: "content", value: .object(JSONObject([
                    .init(key: "application/json", value: .object(JSONObject([
                        .init(key: "schema", value: .object(JSONObject([.init(key: "$ref", value: .string("#/components/schemas/\(name)"))])))
                    ])))
                ]))),
            ])))
            var item = JSONObject()
            item.append("parameters", .array([
                .object(JSONObject([.init(key: "$ref", value: .string("#/components/parameters/Locale"))])),
                .object(JSONObject([.init(key: "$ref", value: .string("#/components/parameters/IfMatch"))])),
                .object(JSONObject([.init(key: "$ref", value: .string("#/components/parameters/Version"))])),
            ]))
            item.append("post", .object(operation))
            paths.append("/forms/\(id)/validate", .object(item))
        }
        components.set("schemas", .object(schemas))
        document.set("paths", .object(paths))
        document.set("components", .object(components))
        return JSONWriter.encode(.object(document))
    }
}

extension JSONObject {
    /// Replaces the first member named `key`, or appends one.
    mutating func set(_ key: String, _ value: JSONValue) {
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = value
        } else {
            append(key, value)
        }
    }
}
