import Foundation
import Testing

/// Every endpoint and status of API.md, against the real `formd serve --port 0`.
@Suite("formd serve endpoints", .timeLimit(.minutes(3)))
struct EndpointTests {
    let served: ServedForms
    var server: FormdServerProcess { served.server }

    init() throws { served = try ServedForms() }

    // MARK: GET /forms

    @Test func listIsSortedWithFieldCounts() throws {
        let r = try server.request("GET", "/forms")
        #expect(r.status == 200)
        #expect(r.header("Content-Type")?.hasPrefix("application/json") == true)
        let forms = try #require(r.object["forms"] as? [[String: Any]])
        #expect(forms.map { $0["id"] as? String } == ["contact", "trailing", "wide"])
        let contact = try #require(forms.first)
        #expect(contact["title"] as? String == "Contact")
        #expect(contact["fields"] as? Int == 2, "two value fields; the button does not count")
        #expect((contact["version"] as? String)?.hasPrefix("\"") == true)
        #expect(forms[2]["fields"] as? Int == 40)
    }

    // MARK: GET /forms/{id}

    @Test func getFormServesTheFileBytesWithETag() throws {
        let r = try server.request("GET", "/forms/contact")
        #expect(r.status == 200)
        #expect(r.text == Fixtures.contact, "strict JSON is served byte for byte")
        let etag = try #require(r.header("ETag"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        #expect(r.header("Cache-Control") == "no-cache")
        let list = try server.request("GET", "/forms")
        let version = (list.object["forms"] as? [[String: Any]])?.first?["version"] as? String
        #expect(version == etag, "ETag is the listed version")

        let notModified = try server.request("GET", "/forms/contact", headers: [("If-None-Match", etag)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == etag)
        let weak = try server.request("GET", "/forms/contact", headers: [("If-None-Match", "\"other\", W/\(etag)")])
        #expect(weak.status == 304, "If-None-Match uses weak comparison")
        let other = try server.request("GET", "/forms/contact", headers: [("If-None-Match", "\"other\"")])
        #expect(other.status == 200)
    }

    @Test func trailingCommaFileIsServedAsStrictJSON() throws {
        let r = try server.request("GET", "/forms/trailing")
        #expect(r.status == 200)
        #expect(r.json != nil, "parses as strict JSON: \(r.text)")
        // Only the trailing commas go; every other byte stays.
        #expect(r.text.filter { $0 != "," } == Fixtures.trailing.filter { $0 != "," })
        #expect(r.text.count == Fixtures.trailing.count - 6, "six trailing commas removed")
    }

    @Test func unknownFormIs404Problem() throws {
        for (method, path) in [
            ("GET", "/forms/nope"), ("POST", "/forms/nope/validate"), ("POST", "/forms/nope/evaluate"), ("GET", "/nothing"),
            ("GET", "/forms/contact/extra/parts"),
        ] {
            let r = try server.request(method, path, body: method == "POST" ? Array("{}".utf8) : nil)
            #expect(r.status == 404, "\(method) \(path)")
            #expect(r.header("Content-Type")?.hasPrefix("application/problem+json") == true)
            #expect(r.object["type"] as? String == "/problems/not-found")
            #expect(r.object["status"] as? Int == 404)
            #expect(r.object["title"] is String && r.object["detail"] is String)
        }
    }

    // MARK: HEAD

    @Test func headForEveryGet() throws {
        for path in ["/forms", "/forms/contact", "/forms/trailing", "/healthz", "/readyz", "/metrics", "/openapi.json", "/forms/nope"] {
            let c = try server.connect()
            let get = try c.exchange("GET", path)
            let head = try c.exchange("HEAD", path)  // same connection: the HEAD must carry no body
            #expect(head.status == get.status, "\(path)")
            #expect(head.body.isEmpty)
            if path != "/metrics" {  // the metrics text changes between the two requests
                #expect(head.header("Content-Length") == get.header("Content-Length"), "\(path)")
            }
            #expect(head.header("Content-Type") == get.header("Content-Type"), "\(path)")
            if path == "/forms/contact" { #expect(head.header("ETag") == get.header("ETag")) }
            // The connection still works: HEAD sent no stray body bytes.
            #expect(try c.exchange("GET", "/healthz").status == 200)
        }
    }

    // MARK: POST validate

    @Test func validateValidAndInvalid() throws {
        let ok = try server.request("POST", "/forms/contact/validate", json: #"{"first_name": "Ola", "email": "ola@example.com"}"#)
        #expect(ok.status == 200)
        #expect(ok.object["valid"] as? Bool == true)
        #expect(ok.object["form"] as? String == "contact")
        #expect((ok.object["values"] as? [String: Any])?["first_name"] as? String == "Ola")
        for key in ["version", "errors", "dropped", "hidden", "disabled"] { #expect(ok.object[key] != nil, "\(key)") }

        let bad = try server.request("POST", "/forms/contact/validate", json: #"{"first_name": "O"}"#)
        #expect(bad.status == 422)
        #expect(bad.object["valid"] as? Bool == false)
        let errors = try #require(bad.object["errors"] as? [[String: Any]])
        #expect(errors.first?["field"] as? String == "first_name")
        #expect(errors.first?["code"] as? String == "min_length")
        #expect(errors.first?["message"] is String)
    }

    @Test func validateEmptyBodyAndNoContentType() throws {
        let empty = try server.request("POST", "/forms/contact/validate", headers: [("Content-Type", "application/json")], body: [])
        #expect(empty.status == 422, "no values: first_name is required")
        #expect((empty.object["errors"] as? [[String: Any]])?.first?["code"] as? String == "required")
        let noType = try server.request("POST", "/forms/contact/validate", body: Array(#"{"first_name":"Kari"}"#.utf8))
        #expect(noType.status == 200, "a body without Content-Type is read as JSON: \(noType)")
    }

    @Test func validateURLEncoded() throws {
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        let ok = try server.request("POST", "/forms/contact/validate", headers: form, body: Array("first_name=Ola+Nordmann&email=a%40b.no".utf8))
        #expect(ok.status == 200, "\(ok)")
        #expect((ok.object["values"] as? [String: Any])?["first_name"] as? String == "Ola Nordmann")
        #expect((ok.object["values"] as? [String: Any])?["email"] as? String == "a@b.no")
        let bad = try server.request("POST", "/forms/contact/validate", headers: form, body: Array("first_name=O".utf8))
        #expect(bad.status == 422)
        let repeated = try server.request("POST", "/forms/contact/validate", headers: form, body: Array("a=1&a=2".utf8))
        #expect(repeated.status == 400)
        #expect(repeated.object["type"] as? String == "/problems/bad-request")
    }

    @Test func validateIfMatch() throws {
        let etag = try #require(try server.request("GET", "/forms/contact").header("ETag"))
        let body = #"{"first_name": "Ola"}"#
        #expect(try server.request("POST", "/forms/contact/validate", headers: [("If-Match", etag)], json: body).status == 200)
        #expect(try server.request("POST", "/forms/contact/validate", headers: [("If-Match", "*")], json: body).status == 200)
        #expect(
            try server.request("POST", "/forms/contact/validate", headers: [("If-Match", "\"x\", \(etag)")], json: body).status == 200)
        let stale = try server.request("POST", "/forms/contact/validate", headers: [("If-Match", "\"stale\"")], json: body)
        #expect(stale.status == 412)
        #expect(stale.object["type"] as? String == "/problems/precondition-failed")
        let weak = try server.request("POST", "/forms/contact/validate", headers: [("If-Match", "W/\(etag)")], json: body)
        #expect(weak.status == 412, "a weak ETag never matches If-Match")
        let evaluate = try server.request("POST", "/forms/contact/evaluate", headers: [("If-Match", "\"stale\"")], json: "{}")
        #expect(evaluate.status == 412)
    }

    @Test func validateUnsupportedMediaType() throws {
        for type in ["text/plain", "application/xml"] {
            let r = try server.request("POST", "/forms/contact/validate", headers: [("Content-Type", type)], body: Array("first_name=Ola".utf8))
            #expect(r.status == 415, "\(type)")
            #expect(r.object["type"] as? String == "/problems/unsupported-media-type")
        }
        let r = try server.request("POST", "/forms/contact/evaluate", headers: [("Content-Type", "text/plain")], body: Array("x".utf8))
        #expect(r.status == 415)
        // A multipart post is a form post; one that is not multipart inside is a bad request.
        let broken = try server.request(
            "POST", "/forms/contact/validate", headers: [("Content-Type", "multipart/form-data; boundary=x")], body: Array("first_name=Ola".utf8))
        #expect(broken.status == 400 && (broken.object["detail"] as? String)?.hasPrefix("multipart/form-data") == true)
    }

    @Test func validateInvalidJSONSaysWhere() throws {
        let r = try server.request("POST", "/forms/contact/validate", json: "{\n  \"first_name\": \"Ola\",\n  \"email\": ]\n}")
        #expect(r.status == 400)
        #expect(r.header("Content-Type")?.hasPrefix("application/problem+json") == true)
        #expect(r.object["type"] as? String == "/problems/invalid-json")
        let detail = try #require(r.object["detail"] as? String)
        #expect(detail.contains("line 3"), "\(detail)")
        #expect(detail.contains("column 12"), "\(detail)")
        let evaluate = try server.request("POST", "/forms/contact/evaluate", json: "{\"values\": {")
        #expect(evaluate.object["type"] as? String == "/problems/invalid-json")
    }

    @Test func validateNotAnObject() throws {
        for body in ["[1, 2]", "\"text\"", "42", "true"] {
            let r = try server.request("POST", "/forms/contact/validate", json: body)
            #expect(r.status == 400, "\(body)")
            #expect(r.object["type"] as? String == "/problems/not-an-object", "\(body)")
        }
        let evaluate = try server.request("POST", "/forms/contact/evaluate", json: "[]")
        #expect(evaluate.object["type"] as? String == "/problems/not-an-object")
        let values = try server.request("POST", "/forms/contact/evaluate", json: #"{"values": [1]}"#)
        #expect(values.status == 400)
        #expect(values.object["type"] as? String == "/problems/not-an-object")
    }

    // MARK: POST evaluate

    @Test func evaluateWithChanged() throws {
        let none = try server.request("POST", "/forms/contact/evaluate", json: #"{"values": {"email": "a@b.no"}}"#)
        #expect(none.status == 200)
        #expect((none.object["errors"] as? [Any])?.isEmpty == true, "required errors only for changed fields: \(none)")
        let fields = try #require(none.object["fields"] as? [String: [String: Any]])
        #expect(Set(fields.keys) == ["first_name", "email", "send"])
        #expect(fields["first_name"]?["required"] as? Bool == true)
        for key in ["form", "version", "values", "sections", "actions", "dropped"] { #expect(none.object[key] != nil, "\(key)") }

        let changed = try server.request("POST", "/forms/contact/evaluate", json: #"{"values": {}, "changed": ["first_name"]}"#)
        #expect(changed.status == 200)
        let errors = try #require(changed.object["errors"] as? [[String: Any]])
        #expect(errors.map { $0["code"] as? String } == ["required"])

        let empty = try server.request("POST", "/forms/contact/evaluate", body: [])
        #expect(empty.status == 200)
        let nulls = try server.request("POST", "/forms/contact/evaluate", json: #"{"values": null, "changed": null}"#)
        #expect(nulls.status == 200)
        let urlencoded = try server.request(
            "POST", "/forms/contact/evaluate", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("first_name=Kari".utf8))
        #expect(urlencoded.status == 200)
        #expect((urlencoded.object["values"] as? [String: Any])?["first_name"] as? String == "Kari")
    }

    @Test func evaluateBadChangedIs400BadRequest() throws {
        for body in [
            #"{"changed": ["no_such_field"]}"#, #"{"changed": "first_name"}"#, #"{"changed": [1]}"#, #"{"changed": {}}"#,
        ] {
            let r = try server.request("POST", "/forms/contact/evaluate", json: body)
            #expect(r.status == 400, "\(body)")
            #expect(r.object["type"] as? String == "/problems/bad-request", "\(body)")
        }
        let named = try server.request("POST", "/forms/contact/evaluate", json: #"{"changed": ["no_such_field"]}"#)
        #expect((named.object["detail"] as? String)?.contains("no_such_field") == true, "the detail names the id")
    }

    // MARK: 405

    @Test func methodNotAllowedWithAllow() throws {
        let cases: [(String, String, String)] = [
            ("POST", "/forms", "GET, HEAD"), ("DELETE", "/forms/contact", "GET, HEAD"), ("PUT", "/forms/contact", "GET, HEAD"),
            ("GET", "/forms/contact/validate", "POST"), ("PUT", "/forms/contact/evaluate", "POST"),
            ("POST", "/healthz", "GET, HEAD"), ("POST", "/readyz", "GET, HEAD"), ("POST", "/metrics", "GET, HEAD"),
            ("DELETE", "/openapi.json", "GET, HEAD"),
        ]
        for (method, path, allow) in cases {
            let r = try server.request(method, path, body: method == "GET" ? nil : [])
            #expect(r.status == 405, "\(method) \(path)")
            #expect(r.header("Allow") == allow, "\(method) \(path)")
            #expect(r.object["type"] as? String == "/problems/method-not-allowed")
        }
    }

    // MARK: health, readiness, metrics, OpenAPI

    @Test func healthAndReadiness() throws {
        let h = try server.request("GET", "/healthz")
        #expect(h.status == 200)
        #expect(h.object["status"] as? String == "ok")
        let r = try server.request("GET", "/readyz")
        #expect(r.status == 200)
    }

    @Test func metricsHaveRoutesAndForms() throws {
        _ = try server.request("GET", "/forms/contact")
        _ = try server.request("POST", "/forms/contact/validate", json: "{}")
        let m = try server.request("GET", "/metrics")
        #expect(m.status == 200)
        #expect(m.header("Content-Type")?.hasPrefix("text/plain") == true)
        let text = m.text
        #expect(text.contains(#"formd_http_requests_total{route="/forms/{id}",status="200"} 1"#), "\(text)")
        #expect(text.contains(#"formd_http_requests_total{route="/forms/{id}/validate",status="422"} 1"#))
        #expect(text.contains("formd_http_request_duration_seconds_bucket{"))
        #expect(text.contains("formd_forms_loaded 3"))
        #expect(text.contains("formd_reload_failures_total 0"))
        #expect(text.contains("formd_open_connections "))
    }

    @Test func openAPIParsesAndListsEveryPath() throws {
        let r = try server.request("GET", "/openapi.json")
        #expect(r.status == 200)
        let doc = r.object
        #expect((doc["openapi"] as? String)?.hasPrefix("3.1") == true)
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        let expected: [String: [String]] = [
            "/forms": ["get"], "/forms/{id}": ["get"], "/forms/{id}/validate": ["post"], "/forms/{id}/evaluate": ["post"],
            "/forms/{id}/validate/batch": ["post"],
            "/healthz": ["get"], "/readyz": ["get"], "/metrics": ["get"], "/openapi.json": ["get"],
            "/forms/{id}/schema": ["get"], "/schemas/form-definition.json": ["get"],
            "/": ["get"], "/client/{file}": ["get"], "/formd-sw.js": ["get"],
            // Versions (API.md §3.1).
            "/forms/{id}/versions": ["get"], "/forms/{id}/versions/{version}": ["get"],
            "/forms/{id}/versions/{version}/schema": ["get"], "/forms/{id}/versions/{version}/openapi.json": ["get"],
            // One validate operation per served form, with that form's submission schema.
            "/forms/contact/validate": ["post"], "/forms/trailing/validate": ["post"], "/forms/wide/validate": ["post"],
        ]
        #expect(Set(paths.keys) == Set(expected.keys))
        for (path, methods) in expected {
            for m in methods { #expect(paths[path]?[m] != nil, "\(m) \(path)") }
        }
    }

    // MARK: cross-cutting headers

    @Test func requestIdIsEchoedOrGenerated() throws {
        let echoed = try server.request("GET", "/healthz", headers: [("X-Request-Id", "test-1234-abc")])
        #expect(echoed.header("X-Request-Id") == "test-1234-abc")
        let generated = try server.request("GET", "/healthz")
        #expect(generated.header("X-Request-Id")?.isEmpty == false)
        let problem = try server.request("GET", "/forms/nope", headers: [("X-Request-Id", "req-404")])
        #expect(problem.header("X-Request-Id") == "req-404", "problems carry it too")
        for r in [echoed, generated, problem] {
            #expect(r.header("Server") == "formd")
            #expect(r.header("Date") != nil)
            #expect(r.header("Content-Length") != nil)
        }
    }

    @Test func gzipWhenAcceptedAndLarge() throws {
        for path in ["/openapi.json", "/forms/wide"] {
            let plain = try server.request("GET", path)
            #expect(plain.body.count > 1024)
            #expect(plain.header("Content-Encoding") == nil)
            let zipped = try server.request("GET", path, headers: [("Accept-Encoding", "gzip, deflate")])
            #expect(zipped.status == 200)
            #expect(zipped.header("Content-Encoding") == "gzip", "\(path)")
            #expect(zipped.header("Vary")?.contains("Accept-Encoding") == true)
            #expect(zipped.body.count < plain.body.count)
            #expect(try gunzip(zipped.body) == plain.body, "\(path)")
        }
        // Small bodies are not compressed.
        let small = try server.request("GET", "/healthz", headers: [("Accept-Encoding", "gzip")])
        #expect(small.header("Content-Encoding") == nil)
        #expect(small.object["status"] as? String == "ok")
    }
}
