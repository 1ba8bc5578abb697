/// The OpenAPI 3.1 description served at `/openapi.json`: the API below, kept as a Swift string,
/// plus one `validate` operation and submission schema per loaded form
/// (`OpenAPIDocument+Forms.swift`). CI validates it with openapi-spec-validator and schemathesis.
enum OpenAPIDocument {

    static let text = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "formd",
        "version": "1.0.0",
        "description": "Validates submissions, computes formulas and reports target actions for Hyper-style form definitions."
      },
      "paths": {
        "/forms": {
          "get": {
            "operationId": "listForms",
            "summary": "The served forms, sorted by id",
            "responses": {
              "200": {"description": "The forms", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/FormList"}}}}
            }
          }
        },
        "/forms/{id}": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}],
          "get": {
            "operationId": "getForm",
            "summary": "The definition, as the iOS library accepts it",
            "parameters": [{"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"}}],
            "responses": {
              "200": {
                "description": "The definition (strict JSON)",
                "headers": {"ETag": {"schema": {"type": "string"}}, "Cache-Control": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Definition"}}}
              },
              "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/forms/{id}/validate": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}, {"$ref": "#/components/parameters/Locale"}, {"$ref": "#/components/parameters/IfMatch"}, {"$ref": "#/components/parameters/Version"}],
          "post": {
            "operationId": "validateSubmission",
            "summary": "Check a submission",
            "requestBody": {
              "required": false,
              "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Values"}},
                "application/x-www-form-urlencoded": {"schema": {"type": "object", "additionalProperties": {"type": "string"}}},
                "multipart/form-data": {"schema": {"type": "object", "additionalProperties": {"type": "string"}}}
              }
            },
            "responses": {
              "200": {"description": "Valid", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ValidateResponse"}}}},
              "422": {"description": "Invalid", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ValidateResponse"}}}},
              "303": {"description": "An HTML form post that asks for HTML, when html.success_url / html.error_url is set: to that page, with form (and fields) added to its query", "headers": {"Location": {"schema": {"type": "string"}}}},
              "400": {"$ref": "#/components/responses/HTTPError"},
              "404": {"$ref": "#/components/responses/HTTPError"},
              "412": {"$ref": "#/components/responses/HTTPError"},
              "413": {"$ref": "#/components/responses/HTTPError"},
              "415": {"$ref": "#/components/responses/HTTPError"},
              "503": {"description": "remote-unavailable: a fail_closed remote validator gave no verdict (API.md §11.3); Retry-After says when to try again", "headers": {"Retry-After": {"schema": {"type": "string"}}}, "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/HTTPError"}}}}
            }
          }
        },
        "/forms/{id}/validate/batch": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}, {"$ref": "#/components/parameters/Locale"}, {"$ref": "#/components/parameters/IfMatch"}],
          "post": {
            "operationId": "validateBatch",
            "summary": "Check many submissions: one values object a line in, one validate answer a line out, in order",
            "requestBody": {
              "required": false,
              "content": {"application/x-ndjson": {"schema": {"description": "Text: one JSON values object a line, streamed (not bounded by limits.max_body_bytes; at most limits.max_batch_lines lines, limits.max_batch_bytes bytes and timeouts.batch_seconds). Any text is accepted: a line that is not a values object is answered in place with a problem."}}}
            },
            "responses": {
              "200": {"description": "Streamed (Transfer-Encoding: chunked): one line per input line, in order, each sent as it is made: its validate answer, or a problem object with line, type, title, status and detail for a line that is not a values object. Past a batch limit, or when the body does not arrive whole, the last line is one problem naming the first line not validated. The counts come as the trailer Formd-Batch-Counts: valid=N, invalid=N, problems=N", "headers": {"Trailer": {"schema": {"type": "string"}, "description": "Formd-Batch-Counts"}}, "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
              "404": {"$ref": "#/components/responses/HTTPError"},
              "412": {"$ref": "#/components/responses/HTTPError"},
              "415": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/forms/{id}/evaluate": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}, {"$ref": "#/components/parameters/Locale"}, {"$ref": "#/components/parameters/IfMatch"}, {"$ref": "#/components/parameters/Version"}],
          "post": {
            "operationId": "evaluateValues",
            "summary": "The live state: values, visibility, enabled flags, actions and errors",
            "requestBody": {
              "required": false,
              "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/EvaluateRequest"}},
                "application/x-www-form-urlencoded": {"schema": {"type": "object", "additionalProperties": {"type": "string"}}},
                "multipart/form-data": {"schema": {"type": "object", "additionalProperties": {"type": "string"}}}
              }
            },
            "responses": {
              "200": {"description": "The state", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EvaluateResponse"}}}},
              "400": {"$ref": "#/components/responses/HTTPError"},
              "404": {"$ref": "#/components/responses/HTTPError"},
              "412": {"$ref": "#/components/responses/HTTPError"},
              "413": {"$ref": "#/components/responses/HTTPError"},
              "415": {"$ref": "#/components/responses/HTTPError"},
              "503": {"description": "remote-unavailable: a fail_closed remote validator gave no verdict for a changed field (API.md §11.3); Retry-After says when to try again", "headers": {"Retry-After": {"schema": {"type": "string"}}}, "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/HTTPError"}}}}
            }
          }
        },
        "/forms/{id}/schema": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}],
          "get": {
            "operationId": "getSubmissionSchema",
            "summary": "JSON Schema 2020-12 of the form's canonical submission (plain types, repeating sections as arrays of rows), or with lenient=1 of every spelling formd accepts; ETag is the form's version",
            "parameters": [{"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"}}, {"name": "lenient", "in": "query", "required": false, "schema": {"type": "string"}, "description": "1 or true: the lenient variant (API.md 4.1); any other value, or none, the canonical one"}],
            "responses": {
              "200": {
                "description": "The schema",
                "headers": {"ETag": {"schema": {"type": "string"}}},
                "content": {"application/schema+json": {"schema": {"type": "object"}}}
              },
              "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/forms/{id}/versions": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}],
          "get": {
            "operationId": "listVersions",
            "summary": "The versions this replica holds: the current one, then the kept ones, newest first",
            "responses": {
              "200": {"description": "The versions", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/VersionList"}}}},
              "404": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/forms/{id}/versions/{version}": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}, {"$ref": "#/components/parameters/VersionPath"}],
          "get": {
            "operationId": "getVersion",
            "summary": "One version's definition, byte for byte; immutable",
            "parameters": [{"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"}}],
            "responses": {
              "200": {"description": "The definition", "headers": {"ETag": {"schema": {"type": "string"}}, "Cache-Control": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Definition"}}}},
              "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/forms/{id}/versions/{version}/schema": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}, {"$ref": "#/components/parameters/VersionPath"}],
          "get": {
            "operationId": "getVersionSchema",
            "summary": "One version's submission schema (canonical, or lenient with lenient=1); immutable",
            "parameters": [{"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"}}, {"name": "lenient", "in": "query", "required": false, "schema": {"type": "string"}, "description": "1 or true: the lenient variant (API.md 4.1); any other value, or none, the canonical one"}],
            "responses": {
              "200": {"description": "The schema", "headers": {"ETag": {"schema": {"type": "string"}}}, "content": {"application/schema+json": {"schema": {"type": "object"}}}},
              "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/forms/{id}/versions/{version}/openapi.json": {
          "parameters": [{"$ref": "#/components/parameters/FormID"}, {"$ref": "#/components/parameters/VersionPath"}],
          "get": {
            "operationId": "getVersionOpenAPI",
            "summary": "An OpenAPI document whose validate operation takes this version's submissions; immutable",
            "parameters": [{"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"}}],
            "responses": {
              "200": {"description": "The document", "headers": {"ETag": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"type": "object"}}}},
              "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/schemas/form-definition.json": {
          "get": {
            "operationId": "getDefinitionSchema",
            "summary": "JSON Schema 2020-12 of the definition format",
            "parameters": [{"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"}}],
            "responses": {
              "200": {"description": "The schema", "headers": {"ETag": {"schema": {"type": "string"}}}, "content": {"application/schema+json": {"schema": {"type": "object"}}}},
              "304": {"description": "Not modified"}
            }
          }
        },
        "/": {
          "get": {
            "operationId": "formPage",
            "summary": "The form page: pick a form, use it live (ui.enabled; ?form=<id>&locale=<tag> opens one)",
            "responses": {
              "200": {"description": "The page", "headers": {"ETag": {"schema": {"type": "string"}}, "Content-Security-Policy": {"schema": {"type": "string"}}}, "content": {"text/html": {"schema": {"type": "string"}}}},
              "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/client/{file}": {
          "parameters": [{"name": "file", "in": "path", "required": true, "schema": {"type": "string", "enum": ["formd.js", "formd.css", "page.js", "page.css"]}}],
          "get": {
            "operationId": "webClient",
            "summary": "The browser client (formd.js, an ES module, and its style sheet) and the page's own files",
            "responses": {
              "200": {"description": "The file", "headers": {"ETag": {"schema": {"type": "string"}}}, "content": {"text/javascript": {"schema": {"type": "string"}}, "text/css": {"schema": {"type": "string"}}}},
              "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/formd-sw.js": {
          "get": {
            "operationId": "offlineServiceWorker",
            "summary": "The offline service worker: keeps the client, the page and the forms a page loaded, so they load and work without network (docs/CLIENT.md)",
            "responses": {
              "200": {"description": "The worker script", "headers": {"ETag": {"schema": {"type": "string"}}}, "content": {"text/javascript": {"schema": {"type": "string"}}}},
              "304": {"description": "Not modified"}
            }
          }
        },
        "/healthz": {
          "get": {
            "operationId": "health",
            "responses": {"200": {"description": "Serving", "content": {"application/json": {"schema": {"type": "object", "required": ["status"], "properties": {"status": {"const": "ok"}}}}}}}
          }
        },
        "/readyz": {
          "get": {
            "operationId": "ready",
            "responses": {
              "200": {"description": "Ready, with the digest of the form set served (API.md §3.1)", "headers": {"Formd-Forms-Digest": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"type": "object", "required": ["status"], "properties": {"status": {"const": "ready"}, "forms_digest": {"type": "string"}, "forms": {"type": "integer"}, "versions": {"type": "integer"}, "indexing": {"type": "boolean"}}}}}},
              "503": {"$ref": "#/components/responses/HTTPError"}
            }
          }
        },
        "/metrics": {
          "get": {
            "operationId": "metrics",
            "responses": {"200": {"description": "Prometheus text format", "content": {"text/plain": {"schema": {"type": "string"}}}}}
          }
        },
        "/openapi.json": {
          "get": {
            "operationId": "openapi",
            "responses": {"200": {"description": "This document", "content": {"application/json": {"schema": {"type": "object"}}}}}
          }
        }
      },
      "components": {
        "parameters": {
          "FormID": {"name": "id", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$"}},
          "Locale": {"name": "locale", "in": "query", "required": false, "schema": {"type": "string"}, "description": "en, nb or es; wins over Accept-Language"},
          "IfMatch": {"name": "If-Match", "in": "header", "required": false, "schema": {"type": "string"}, "description": "* or a list of ETags: the current version or a kept one answers (API.md §3.1); a version not held gives 412 version-not-held"},
          "Version": {"name": "version", "in": "query", "required": false, "schema": {"type": "string"}, "description": "The version to check against, for clients that cannot send If-Match (quotes optional)"},
          "VersionPath": {"name": "version", "in": "path", "required": true, "schema": {"type": "string"}, "description": "A version: its 32 hex digits, quoted or not"}
        },
        "responses": {
          "HTTPError": {"description": "An error", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/HTTPError"}}}}
        },
        "schemas": {
          "Values": {"type": "object", "description": "Field id to value. A repeating section's instances are flat keys (tickets[0].price) or rows (\"tickets\": [{\"price\": 3}], API.md 4.3); an answer's values use the form the request used, per section.", "additionalProperties": true},
          "Definition": {"oneOf": [{"type": "array", "items": {"type": "object"}}, {"type": "object", "required": ["groups"], "properties": {"groups": {"type": "array"}, "templates": {"type": "object"}, "title": {"type": "string"}, "messages": {"type": "object"}}}]},
          "FormList": {
            "type": "object", "required": ["forms"],
            "properties": {"forms": {"type": "array", "items": {"type": "object", "required": ["id", "title", "version", "fields"], "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "version": {"type": "string"}, "fields": {"type": "integer", "minimum": 0}}}}}
          },
          "EvaluateRequest": {
            "type": "object",
            "properties": {
              "values": {"oneOf": [{"$ref": "#/components/schemas/Values"}, {"type": "null"}]},
              "changed": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
              "state": {"description": "The state token of the previous answer, or null for none: asks for changes (API.md 5.1).", "oneOf": [{"type": "string", "pattern": "^[A-Za-z0-9_-]*$"}, {"type": "null"}]}
            }
          },
          "Error": {
            "type": "object", "required": ["code", "message", "params"],
            "properties": {
              "field": {"type": "string"}, "section": {"type": "string"},
              "code": {"anyOf": [{"enum": ["required", "type", "min_length", "max_length", "min_value", "max_value", "format", "compare", "ssn", "bank_account", "postal_code", "min_instances", "max_instances", "unstable", "text_too_long", "min_selections", "max_selections", "rule"]}, {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_.-]{0,63}$", "description": "The code of an expression rule of the definition (SEMANTICS 6)."}]},
              "message": {"type": "string"},
              "params": {"type": "object"},
              "message_key": {"type": "string", "description": "PureForm's key of the failed validator, on errors of PureForm inputs."}
            }
          },
          "Dropped": {"type": "object", "required": ["field", "reason"], "properties": {"field": {"type": "string"}, "reason": {"enum": ["unknown", "not_input", "hidden", "computed", "cleared", "over_limit"]}}},
          "Action": {
            "type": "object", "required": ["id", "type", "action"],
            "properties": {"id": {"type": "string"}, "type": {"type": "string"}, "action": {"enum": ["show", "hide", "update", "enable", "disable", "clear"]}, "value": {}}
          },
          "ValidateResponse": {
            "type": "object", "required": ["form", "version", "valid", "values", "errors", "dropped", "hidden", "disabled"],
            "properties": {
              "form": {"type": "string"}, "version": {"type": "string"}, "valid": {"type": "boolean"},
              "current_version": {"type": "string", "description": "Only when answering with a kept version: the version that serves now"},
              "changed_since": {"$ref": "#/components/schemas/FieldChanges"},
              "values": {"$ref": "#/components/schemas/Values"},
              "labels": {"type": "object", "description": "Per multi_select field with a value: its chosen options' titles.", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
              "errors": {"type": "array", "items": {"$ref": "#/components/schemas/Error"}},
              "warnings": {"type": "array", "description": "Failed checks of warnings blocks (forms that declare one only); never make the answer invalid.", "items": {"$ref": "#/components/schemas/Error"}},
              "dropped": {"type": "array", "items": {"$ref": "#/components/schemas/Dropped"}},
              "hidden": {"type": "array", "items": {"type": "string"}},
              "disabled": {"type": "array", "items": {"type": "string"}}
            }
          },
          "EvaluateResponse": {
            "type": "object", "required": ["form", "version", "values", "fields", "sections", "actions", "errors", "dropped"],
            "properties": {
              "form": {"type": "string"}, "version": {"type": "string"},
              "current_version": {"type": "string", "description": "Only when answering with a kept version: the version that serves now"},
              "changed_since": {"$ref": "#/components/schemas/FieldChanges"},
              "values": {"$ref": "#/components/schemas/Values"},
              "labels": {"type": "object", "description": "Per multi_select field with a value: its chosen options' titles.", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
              "fields": {"type": "object", "additionalProperties": {"type": "object", "required": ["visible", "enabled", "required"], "properties": {"visible": {"type": "boolean"}, "enabled": {"type": "boolean"}, "required": {"type": "boolean"}}}},
              "sections": {"type": "object", "additionalProperties": {"type": "object", "required": ["visible"], "properties": {"visible": {"type": "boolean"}}}},
              "actions": {"type": "array", "items": {"$ref": "#/components/schemas/Action"}},
              "errors": {"type": "array", "items": {"$ref": "#/components/schemas/Error"}},
              "warnings": {"type": "array", "description": "Failed checks of warnings blocks (forms that declare one only).", "items": {"$ref": "#/components/schemas/Error"}},
              "dropped": {"type": "array", "items": {"$ref": "#/components/schemas/Dropped"}},
              "state": {"description": "Present when the request sent state: the token for the next request, null when the state is too large.", "oneOf": [{"type": "string"}, {"type": "null"}]},
              "changes": {"$ref": "#/components/schemas/Changes"}
            }
          },
          "ListDiff": {
            "type": "object", "required": ["removed", "inserted", "moved"],
            "properties": {
              "removed": {"type": "array", "items": {"type": "object", "required": ["id", "from"], "properties": {"id": {"type": "string"}, "from": {"type": "integer"}}}},
              "inserted": {"type": "array", "items": {"type": "object", "required": ["id", "at"], "properties": {"id": {"type": "string"}, "at": {"type": "integer"}}}},
              "moved": {"type": "array", "items": {"type": "object", "required": ["id", "from", "to"], "properties": {"id": {"type": "string"}, "from": {"type": "integer"}, "to": {"type": "integer"}}}}
            }
          },
          "Changes": {
            "type": "object", "required": ["order", "fields", "sections", "removed"],
            "properties": {
              "order": {"type": "object", "required": ["sections", "fields"], "properties": {"sections": {"$ref": "#/components/schemas/ListDiff"}, "fields": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/ListDiff"}}}},
              "fields": {"type": "object", "additionalProperties": {"type": "object", "properties": {"value": {}, "visible": {"type": "boolean"}, "enabled": {"type": "boolean"}, "required": {"type": "boolean"}, "errors": {"type": "array", "items": {"$ref": "#/components/schemas/Error"}}}}},
              "sections": {"type": "object", "additionalProperties": {"type": "object", "properties": {"visible": {"type": "boolean"}, "errors": {"type": "array", "items": {"$ref": "#/components/schemas/Error"}}}}},
              "removed": {"type": "object", "required": ["fields", "sections"], "properties": {"fields": {"type": "array", "items": {"type": "string"}}, "sections": {"type": "array", "items": {"type": "string"}}}},
              "errors": {"type": "array", "items": {"$ref": "#/components/schemas/Error"}}
            }
          },
          "HTTPError": {
            "type": "object", "required": ["type", "title", "status", "detail"],
            "properties": {
              "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"},
              "code": {"type": "string", "description": "412: version-not-held"},
              "current_version": {"type": "string"}, "versions": {"type": "array", "items": {"type": "string"}}, "forms_digest": {"type": "string"}
            }
          },
          "FieldChanges": {
            "type": "object", "description": "Fields added, removed and changed from a kept version to the current one",
            "required": ["added", "removed", "changed"],
            "properties": {"added": {"type": "array", "items": {"type": "string"}}, "removed": {"type": "array", "items": {"type": "string"}}, "changed": {"type": "array", "items": {"type": "string"}}}
          },
          "VersionList": {
            "type": "object", "required": ["form", "current_version", "versions"],
            "properties": {
              "form": {"type": "string"}, "current_version": {"type": "string"},
              "versions": {"type": "array", "items": {"type": "object", "required": ["version", "current"], "properties": {
                "version": {"type": "string"}, "current": {"type": "boolean"}, "published": {"type": "string"},
                "changed_since": {"$ref": "#/components/schemas/FieldChanges"}}}}
            }
          }
        }
      }
    }
    """#
}
