/// The definition format's JSON Schema (2020-12), served at `/schemas/form-definition.json`
/// (API.md §3). Kept as a Swift string so the binary needs no resource bundle; the same bytes are
/// `schemas/form-definition.json` for editors, and `SchemaEndpointTests` fails when they differ.
enum DefinitionSchema {
    static let bytes: [UInt8] = Array(text.utf8)

    static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "formd form definition",
  "description": "A Hyper-style form definition as formd reads it (docs/reference/SEMANTICS.md §1). A key whose value is null or \"\" counts as absent. Unknown keys are reported as problems here and as warnings by `formd check`. Rules that need the whole form (unique ids, formula and condition syntax, references, cycles, regexes) are checked by `formd check` only.",
  "anyOf": [
    {
      "description": "The array shape: groups, no form-level keys.",
      "type": "array",
      "items": { "$ref": "#/$defs/group" }
    },
    {
      "description": "The object shape: groups, templates for repeating sections, a title and form-level messages.",
      "type": "object",
      "required": ["groups"],
      "properties": {
        "$schema": { "type": "string", "description": "The schema this document follows; ignored by formd." },
        "title": { "$ref": "#/$defs/localizedText", "description": "The form's display title (else the first group's, else the file name)." },
        "groups": { "type": "array", "items": { "$ref": "#/$defs/group" } },
        "templates": {
          "anyOf": [
            { "$ref": "#/$defs/absent" },
            {
              "type": "object",
              "properties": {
                "sections": {
                  "anyOf": [
                    { "$ref": "#/$defs/absent" },
                    { "type": "array", "items": { "$ref": "#/$defs/sectionTemplate" } }
                  ],
                  "description": "Templates of repeating sections, matched by id to sections with \"type\": \"dynamic\"."
                },
                "fields": { "description": "Field templates: read and ignored, as in the original library." }
              },
              "additionalProperties": false
            }
          ]
        },
        "messages": {
          "anyOf": [
            { "$ref": "#/$defs/absent" },
            {
              "type": "object",
              "description": "Message texts by locale, then by error code: {\"nb\": {\"required\": \"...\"}}.",
              "additionalProperties": {
                "type": "object",
                "propertyNames": { "$ref": "#/$defs/errorCode" },
                "additionalProperties": { "type": "string" }
              }
            }
          ]
        }
      },
      "additionalProperties": false
    },
    {
      "description": "A PureForm definition (docs/reference/SEMANTICS.md §12): `<section>` markers, cells keyed \"<CellClass + identifier>\" whose input properties end in `?`, and formd's `<formd>` options.",
      "type": "array",
      "minItems": 1,
      "items": { "$ref": "#/$defs/pureFormElement" }
    }
  ],
  "$defs": {
    "pureFormElement": {
      "anyOf": [
        {
          "type": "object",
          "required": ["<section>"],
          "properties": { "<section>": { "type": "integer", "minimum": 0 } },
          "additionalProperties": false
        },
        {
          "type": "object",
          "required": ["<formd>"],
          "properties": {
            "<formd>": {
              "type": "object",
              "properties": {
                "title": { "type": "string" },
                "quirks": {
                  "type": "array",
                  "items": {
                    "enum": [
                      "first_failure_only", "lowercase_full_name", "false_passes_required", "required_ignores_operand",
                      "strings_skip_value_bounds", "empty_values_differ"
                    ]
                  }
                }
              },
              "additionalProperties": false
            }
          },
          "additionalProperties": false
        },
        {
          "type": "object",
          "minProperties": 1,
          "maxProperties": 1,
          "propertyNames": { "pattern": "^<[^<>+]+\\+[^<>+]+>$" },
          "additionalProperties": {
            "type": "object",
            "description": "The cell's properties: views by name; a name ending in ? is a form input.",
            "patternProperties": { "\\?$": { "$ref": "#/$defs/pureFormInput" } },
            "additionalProperties": { "type": "object" }
          }
        }
      ]
    },
    "pureFormInput": {
      "type": "object",
      "properties": {
        "<key>": { "type": ["string", "null"], "description": "The field id (else unknown_key_N)." },
        "<value>": { "description": "The default value." },
        "<display>": { "type": "string" },
        "<validators>": {
          "type": "object",
          "propertyNames": {
            "pattern": "^(equal|equal_next|equal_previous|equal_length|min_length|max_length|min_value|max_value|required|type|custom)[!?*]?$"
          }
        }
      }
    },
    "absent": { "enum": [null, ""], "description": "null and \"\" count as absent." },
    "text": { "type": ["string", "null"] },
    "localizedText": {
      "description": "A text, or the text per language: an object of strings keyed by language tags ({\"en\": \"Name\", \"nb\": \"Navn\"}). GET /forms/{id} with ?locale= or Accept-Language serves the definition resolved for one language (its own, else English, else the first given).",
      "anyOf": [
        { "type": ["string", "null"] },
        {
          "type": "object",
          "minProperties": 1,
          "propertyNames": { "pattern": "^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$" },
          "additionalProperties": { "type": "string" }
        }
      ]
    },
    "flag": {
      "description": "true or false (0 and 1 are read as booleans too).",
      "anyOf": [{ "type": "boolean" }, { "enum": [0, 1, null, ""] }]
    },
    "count": {
      "anyOf": [{ "type": "integer", "minimum": 0 }, { "$ref": "#/$defs/absent" }]
    },
    "number": {
      "anyOf": [{ "type": "number" }, { "$ref": "#/$defs/absent" }]
    },
    "styles": {
      "description": "Visual keys, kept and served back unchanged.",
      "anyOf": [{ "type": "object" }, { "$ref": "#/$defs/absent" }]
    },
    "errorCode": {
      "enum": [
        "required", "type", "min_length", "max_length", "min_value", "max_value", "format", "compare",
        "ssn", "bank_account", "postal_code", "min_instances", "max_instances", "unstable", "text_too_long",
        "min_selections", "max_selections"
      ]
    },
    "group": {
      "type": "object",
      "properties": {
        "id": { "$ref": "#/$defs/text" },
        "title": { "$ref": "#/$defs/localizedText" },
        "sections": {
          "anyOf": [{ "$ref": "#/$defs/absent" }, { "type": "array", "items": { "$ref": "#/$defs/section" } }]
        },
        "collapsed": { "$ref": "#/$defs/flag" },
        "collapsible": { "$ref": "#/$defs/flag" },
        "styles": { "$ref": "#/$defs/styles" }
      },
      "additionalProperties": false
    },
    "section": {
      "type": "object",
      "properties": {
        "id": { "$ref": "#/$defs/text", "description": "Unique in the form; a dynamic section's id names its template." },
        "title": { "$ref": "#/$defs/localizedText" },
        "type": {
          "anyOf": [{ "const": "dynamic" }, { "$ref": "#/$defs/text" }],
          "description": "\"dynamic\" makes a repeating section built from templates.sections."
        },
        "action_title": { "$ref": "#/$defs/localizedText", "description": "The add button's title of a dynamic section." },
        "fields": {
          "anyOf": [{ "$ref": "#/$defs/absent" }, { "type": "array", "items": { "$ref": "#/$defs/field" } }]
        },
        "targets": { "$ref": "#/$defs/targets", "description": "Dynamic sections: value targets run when an instance is added (changed names the section)." },
        "min_instances": { "$ref": "#/$defs/count" },
        "max_instances": { "$ref": "#/$defs/count" },
        "styles": { "$ref": "#/$defs/styles" }
      },
      "additionalProperties": false
    },
    "sectionTemplate": {
      "type": "object",
      "required": ["id"],
      "properties": {
        "id": { "type": "string", "minLength": 1 },
        "title": { "$ref": "#/$defs/localizedText" },
        "type": { "$ref": "#/$defs/text" },
        "action_title": { "$ref": "#/$defs/localizedText" },
        "fields": {
          "anyOf": [{ "$ref": "#/$defs/absent" }, { "type": "array", "items": { "$ref": "#/$defs/field" } }]
        },
        "targets": { "$ref": "#/$defs/targets" },
        "min_instances": { "$ref": "#/$defs/count" },
        "max_instances": { "$ref": "#/$defs/count" },
        "styles": { "$ref": "#/$defs/styles" }
      },
      "additionalProperties": false
    },
    "kind": {
      "description": "The field's kind (docs/reference/SEMANTICS.md §2). Any other name is a custom kind whose values are kept as sent.",
      "anyOf": [
        {
          "enum": [
            "text", "name", "email", "password", "number", "count", "float", "switch", "select", "segment",
            "multi_select", "date", "date_time", "time", "button", "spacer"
          ]
        },
        { "$ref": "#/$defs/text" }
      ]
    },
    "field": {
      "type": "object",
      "required": ["id"],
      "properties": {
        "id": { "type": "string", "minLength": 1, "description": "Unique in the form; the key of the field's value in submissions." },
        "type": { "$ref": "#/$defs/kind" },
        "title": { "$ref": "#/$defs/localizedText", "description": "The label, quoted by messages as {label}." },
        "value": { "description": "The default value, converted to the field's kind." },
        "values": {
          "anyOf": [{ "$ref": "#/$defs/absent" }, { "type": "array", "items": { "$ref": "#/$defs/option" } }],
          "description": "The options of a select or segment."
        },
        "validations": { "$ref": "#/$defs/validations" },
        "formula": {
          "$ref": "#/$defs/text",
          "description": "Numeric on number, count and float fields; a text template on any other kind."
        },
        "targets": { "$ref": "#/$defs/targets", "description": "In force while this field has a value." },
        "hidden": { "$ref": "#/$defs/flag" },
        "disabled": { "$ref": "#/$defs/flag" },
        "secret": { "$ref": "#/$defs/flag", "description": "Validated, never echoed in an answer or a state token (password fields always are)." },
        "input_type": { "$ref": "#/$defs/text" },
        "info": { "$ref": "#/$defs/localizedText" },
        "placeholder": { "$ref": "#/$defs/localizedText" },
        "accessibility_label": { "$ref": "#/$defs/localizedText" },
        "minimum_date": { "$ref": "#/$defs/text" },
        "maximum_date": { "$ref": "#/$defs/text" },
        "size": {
          "anyOf": [
            { "$ref": "#/$defs/absent" },
            {
              "type": "object",
              "properties": { "width": { "type": "number" }, "height": { "type": "number" } }
            }
          ]
        },
        "styles": { "$ref": "#/$defs/styles" }
      },
      "additionalProperties": false,
      "allOf": [
        {
          "if": { "properties": { "type": { "const": "number" } }, "required": ["type"] },
          "then": {
            "properties": {
              "value": {
                "anyOf": [
                  { "$ref": "#/$defs/absent" },
                  { "type": "integer", "minimum": 0 },
                  { "type": "string", "pattern": "^[0-9 ]+$" },
                  { "type": "string", "pattern": "^\\s*$" }
                ]
              }
            }
          }
        },
        {
          "if": { "properties": { "type": { "const": "count" } }, "required": ["type"] },
          "then": {
            "properties": {
              "value": {
                "anyOf": [
                  { "$ref": "#/$defs/absent" },
                  { "type": "integer" },
                  { "type": "string", "pattern": "^\\s*-?[0-9]+\\s*$" }
                ]
              }
            }
          }
        },
        {
          "if": { "properties": { "type": { "const": "float" } }, "required": ["type"] },
          "then": { "properties": { "value": { "type": ["number", "string", "null"] } } }
        },
        {
          "if": { "properties": { "type": { "const": "switch" } }, "required": ["type"] },
          "then": {
            "properties": { "value": { "enum": [true, false, 0, 1, "true", "false", "0", "1", null, ""] } }
          }
        },
        {
          "if": { "properties": { "type": { "enum": ["date", "date_time", "time"] } }, "required": ["type"] },
          "then": { "properties": { "value": { "type": ["string", "null"] } } }
        },
        {
          "if": { "properties": { "type": { "enum": ["text", "name", "email", "password"] } }, "required": ["type"] },
          "then": { "properties": { "value": { "type": ["string", "number", "boolean", "null"] } } }
        }
      ]
    },
    "option": {
      "type": "object",
      "properties": {
        "id": { "type": ["string", "number", "boolean", "null"], "description": "What is stored when the option is chosen." },
        "title": { "$ref": "#/$defs/localizedText" },
        "info": { "$ref": "#/$defs/localizedText" },
        "value": { "$ref": "#/$defs/number", "description": "The number formulas use for this option." },
        "default": { "$ref": "#/$defs/flag" },
        "targets": { "$ref": "#/$defs/targets", "description": "In force while this option is chosen." },
        "accessibility_label": { "$ref": "#/$defs/localizedText" }
      },
      "additionalProperties": false
    },
    "targets": {
      "anyOf": [{ "$ref": "#/$defs/absent" }, { "type": "array", "items": { "$ref": "#/$defs/target" } }]
    },
    "target": {
      "type": "object",
      "properties": {
        "id": { "$ref": "#/$defs/text", "description": "The field or section acted on (:index inside templates)." },
        "type": { "anyOf": [{ "enum": ["field", "section"] }, { "$ref": "#/$defs/text" }] },
        "action": {
          "anyOf": [{ "enum": ["show", "hide", "enable", "disable", "update", "clear"] }, { "$ref": "#/$defs/text" }]
        },
        "target_value": { "description": "The value an update target sets." },
        "condition": { "$ref": "#/$defs/text", "description": "An expression that must hold for the target to apply." }
      },
      "additionalProperties": false
    },
    "message": {
      "description": "One text for every locale, or texts by locale.",
      "anyOf": [{ "type": "string" }, { "type": "object", "additionalProperties": { "type": "string" } }]
    },
    "validations": {
      "anyOf": [
        { "$ref": "#/$defs/absent" },
        {
          "type": "object",
          "properties": {
            "required": { "$ref": "#/$defs/flag" },
            "min_length": { "$ref": "#/$defs/count" },
            "max_length": { "$ref": "#/$defs/count" },
            "minimum_length": { "$ref": "#/$defs/count", "description": "Alias of min_length." },
            "maximum_length": { "$ref": "#/$defs/count", "description": "Alias of max_length." },
            "min_value": { "$ref": "#/$defs/number" },
            "max_value": { "$ref": "#/$defs/number" },
            "format": { "$ref": "#/$defs/text", "description": "A regex that must match somewhere in the text, case-insensitively." },
            "compare_to": { "$ref": "#/$defs/text" },
            "compare_rule": { "anyOf": [{ "enum": ["==", ">", ">=", "<", "<="] }, { "$ref": "#/$defs/absent" }] },
            "min_selections": { "$ref": "#/$defs/count", "description": "multi_select: at least this many options chosen." },
            "max_selections": { "$ref": "#/$defs/count", "description": "multi_select: at most this many options chosen." },
            "messages": {
              "anyOf": [
                { "$ref": "#/$defs/absent" },
                {
                  "type": "object",
                  "propertyNames": { "$ref": "#/$defs/errorCode" },
                  "additionalProperties": { "$ref": "#/$defs/message" }
                }
              ]
            }
          },
          "additionalProperties": false
        }
      ]
    }
  }
}

"""#
}
