import Foundation
import Testing

/// The JSON Schemas formd serves (API.md §3, §4): the definition format, and per form the
/// submissions it can accept, also as one request schema per form in `/openapi.json`.
@Suite("schemas", .timeLimit(.minutes(3)))
struct SchemaEndpointTests {
    static let order = #"""
    {"title": "Order", "groups": [{"sections": [
      {"id": "main", "fields": [
        {"id": "name", "type": "text", "title": "Name", "validations": {"required": true, "min_length": 4, "max_length": 10}},
        {"id": "qty", "type": "count", "validations": {"min_value": 1, "max_value": 9}},
        {"id": "kind", "type": "select", "values": [{"id": 1, "title": "One"}, {"id": "b", "title": "B"}]},
        {"id": "terms", "type": "switch", "validations": {"min_value": 1}},
        {"id": "note", "type": "text", "hidden": true, "validations": {"required": true}},
        {"id": "total", "type": "float", "formula": "qty * 2"},
        {"id": "go", "type": "button"}
      ]},
      {"id": "rows", "type": "dynamic", "action_title": "Add", "fields": null}
    ]}],
    "templates": {"sections": [{"id": "rows", "fields": [{"id": "rows[:index].price", "type": "float", "validations": {"min_value": 0}}]}]}}
    """#

    let served: ServedForms
    init() throws { served = try ServedForms(extra: ["order.json": Self.order]) }

    @Test func definitionSchemaIsServedWithETag() throws {
        let r = try served.server.request("GET", "/schemas/form-definition.json")
        #expect(r.status == 200)
        #expect(r.header("Content-Type") == "application/schema+json")
        #expect((r.object["$schema"] as? String)?.contains("2020-12") == true)
        let defs = try #require(r.object["$defs"] as? [String: Any])
        #expect(defs["field"] != nil && defs["target"] != nil && defs["validations"] != nil)
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schemas/form-definition.json")
        #expect(r.body == Array(try Data(contentsOf: file)), "the served schema is the repository's file")
        let etag = try #require(r.header("ETag"))
        let again = try served.server.request("GET", "/schemas/form-definition.json", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
    }

    @Test func lenientSubmissionSchemaStatesWhatASchemaCan() throws {
        let list = try served.server.request("GET", "/forms")
        let version = (list.object["forms"] as? [[String: Any]])?.first { $0["id"] as? String == "order" }?["version"] as? String
        let r = try served.server.request("GET", "/forms/order/schema?lenient=1")
        #expect(r.status == 200)
        #expect(r.header("ETag") == version, "the schema's ETag is the form's version")
        #expect(r.object["required"] as? [String] == ["name"], "note can be hidden, total is computed")
        let properties = try #require(r.object["properties"] as? [String: [String: Any]])
        #expect(Set(properties.keys) == ["name", "qty", "kind", "terms", "note", "total", "rows"], "no button")
        #expect(properties["rows"]?["type"] as? [String] == ["array", "null"], "rows, or null for none")
        let name = try #require(properties["name"]?["anyOf"] as? [[String: Any]])
        #expect(name.first?["minLength"] as? Int == 2, "4 UTF-16 units are at least 2 code points")
        #expect(name.first?["maxLength"] as? Int == 10)
        #expect(!name.contains { $0["type"] as? String == "null" }, "a required field without a default needs a value")
        let qty = try #require(properties["qty"]?["anyOf"] as? [[String: Any]])
        #expect(qty.contains { $0["type"] as? String == "integer" && $0["minimum"] as? Int == 1 && $0["maximum"] as? Int == 9 })
        let kind = try #require(properties["kind"]?["anyOf"] as? [[String: Any]])
        let options = try #require(kind.last?["enum"] as? [Any])
        #expect(options.count == 3, "1, its string form \"1\", and \"b\": \(options)")
        let terms = try #require(properties["terms"]?["anyOf"] as? [[String: Any]])
        let on = try #require(terms.last?["enum"] as? [Any])
        #expect(on.count == 4 && !on.contains { ($0 as? Bool) == false }, "min_value 1 leaves only the on values: \(on)")
        #expect(properties["note"]?["anyOf"] == nil, "a field that can be hidden accepts anything")
        let patterns = try #require(r.object["patternProperties"] as? [String: Any])
        #expect(Array(patterns.keys) == [#"^rows\[[0-9]{1,9}\]\.price$"#])

        #expect(try served.server.request("GET", "/forms/order/schema?lenient=0").object["patternProperties"] == nil)
        let notModified = try served.server.request("GET", "/forms/order/schema", headers: [("If-None-Match", r.header("ETag") ?? "")])
        #expect(notModified.status == 304)
        #expect(try served.server.request("GET", "/forms/nope/schema").status == 404)
        #expect(try served.server.request("POST", "/forms/order/schema", json: "{}").status == 405)
    }

    /// The default: one plain type per field, rows as an array of typed objects (API.md §4.1).
    @Test func canonicalSubmissionSchemaHasPlainTypesAndRows() throws {
        let r = try served.server.request("GET", "/forms/order/schema")
        #expect(r.status == 200 && r.header("Content-Type") == "application/schema+json")
        #expect(r.object["patternProperties"] == nil)
        #expect(r.object["required"] as? [String] == ["name"])
        let properties = try #require(r.object["properties"] as? [String: [String: Any]])
        #expect(Set(properties.keys) == ["name", "qty", "kind", "terms", "note", "total", "rows"])
        #expect(properties["name"]?["type"] as? String == "string" && properties["name"]?["minLength"] as? Int == 2)
        #expect(properties["qty"]?["type"] as? String == "integer" && properties["qty"]?["maximum"] as? Int == 9)
        // Mixed option ids: one enum per JSON type, never one enum of mixed types.
        let kind = try #require(properties["kind"]?["anyOf"] as? [[String: Any]])
        #expect(kind.map { $0["type"] as? String } == ["integer", "string"])
        #expect(kind.map { ($0["enum"] as? [Any])?.count } == [1, 1])
        #expect(properties["terms"]?["type"] as? String == "boolean")
        #expect((properties["terms"]?["enum"] as? [Bool]) == [true], "min_value 1: only true")
        #expect(properties["note"]?["type"] as? String == "string", "a field that can be hidden keeps its type")
        #expect(properties["total"]?["type"] as? String == "number" && properties["total"]?["readOnly"] as? Bool == true)
        let rows = try #require(properties["rows"])
        #expect(rows["type"] as? String == "array")
        let row = try #require(rows["items"] as? [String: Any])
        #expect(row["type"] as? String == "object")
        let price = (row["properties"] as? [String: [String: Any]])?["price"]
        #expect(price?["type"] as? String == "number" && price?["minimum"] as? Int == 0)
        // What the schema describes, formd accepts and answers in the same shape.
        let answer = try served.server.request("POST", "/forms/order/validate", json: #"{"name": "Ola N", "rows": [{"price": 2.5}, {"price": 1}]}"#)
        #expect(answer.status == 200)
        let values = try #require(answer.object["values"] as? [String: Any])
        #expect((values["rows"] as? [[String: Any]])?.compactMap { $0["price"] as? Double } == [2.5, 1])
        let bad = try served.server.request("POST", "/forms/order/validate", json: #"{"name": "Ola N", "rows": {"price": 1}}"#)
        #expect(bad.status == 400 && bad.header("Content-Type") == "application/problem+json")
        #expect(bad.object["type"] as? String == "/problems/bad-rows")
        let mixed = try served.server.request("POST", "/forms/order/evaluate", json: #"{"values": {"rows": [], "rows[0].price": 1}}"#)
        #expect(mixed.status == 400 && mixed.object["type"] as? String == "/problems/bad-rows")
    }

    @Test func openAPIHasOneRequestSchemaPerForm() throws {
        let doc = try served.server.request("GET", "/openapi.json").object
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        for id in ["contact", "order", "trailing", "wide"] {
            let post = try #require(paths["/forms/\(id)/validate"]?["post"] as? [String: Any], "\(id)")
            #expect(post["operationId"] as? String == "validate-\(id)")
            let body = post["requestBody"] as? [String: Any]
            let content = body?["content"] as? [String: Any]
            let json = content?["application/json"] as? [String: Any]
            let schema = json?["schema"] as? [String: String]
            #expect(schema?["$ref"] == "#/components/schemas/Submission-\(id)")
        }
        let schemas = try #require((doc["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let order = try #require(schemas["Submission-order"] as? [String: Any])
        #expect(order["required"] as? [String] == ["name"])
        #expect(order["$schema"] == nil, "embedded schemas carry no $schema")
    }
}
