
/// The JSON Schema (2020-12) of a submission to a form (`GET /forms/{id}/schema`, API.md §4.1),
/// in two variants:
///
/// * **canonical** (the default, and the one in `/openapi.json`): the submission as formd answers
///   it, with one plain JSON type per field kind (a `switch` a boolean, a `count` an integer, a
///   select an `enum` of its ids' one type, a date a `string` with `format: date`) and each
///   repeating section as an array of row objects (`"items": [{"amount": 3}]`, §4.3). What code
///   generators can turn into typed models: no mixed-type enums, no `patternProperties`.
/// * **lenient** (`?lenient=1`): everything formd accepts as valid (the other spellings of §2,
///   blank strings, flat instance keys as `patternProperties`, rows too). Never stricter than formd.
///
/// Both state what a schema can: required fields, lengths and ranges, option ids. Where a rule
/// depends on other values (visibility, formulas, conditions, `compare_to`, check digits) or on
/// what JSON Schema cannot say (case-insensitive regexes, UTF-16 lengths), they are looser.
struct SubmissionSchema {
    let form: LoadedForm
    /// The lenient variant: every spelling formd accepts.
    let lenient: Bool

    /// Ids that some `hide` target names (fields or sections, `:index` kept as written).
    private let hideable: Set<String>

    init(form: LoadedForm, lenient: Bool = false) {
        self.form = form
        self.lenient = lenient
        var hidden = Set<String>()
        let definition = form.plan.definition
        func collect(_ targets: [Target]) {
            for t in targets where t.action == .hide { if let id = t.id { hidden.insert(id) } }
        }
        func collect(fields: [Field]) {
            for f in fields {
                collect(f.targets)
                for o in f.options { collect(o.targets) }
            }
        }
        for g in definition.groups {
            for s in g.sections {
                collect(s.targets)
                collect(fields: s.fields)
            }
        }
        for t in definition.templates { collect(fields: t.fields) }
        hideable = hidden
    }

    var json: JSONValue {
        var properties = JSONObject()
        var patterns = JSONObject()
        var required: [JSONValue] = []
        var conditional: [JSONValue] = []
        let definition = form.plan.definition
        let statics = definition.groups.flatMap { g in g.sections.filter { !$0.isDynamic }.flatMap { s in s.fields.map { (s, $0) } } }
        var byID: [String: (section: Section, field: Field)] = [:]
        for (s, f) in statics where byID[f.id] == nil { byID[f.id] = (s, f) }
        func mayHide(_ f: Field, _ s: Section) -> Bool { f.hidden || hideable.contains(f.id) || (s.id.map(hideable.contains) ?? false) }
        for g in definition.groups {
            for s in g.sections {
                if s.isDynamic, let id = s.id, let template = definition.template(id: id) {
                    var rowProperties = JSONObject()
                    var rowRequired: [JSONValue] = []
                    for f in template.fields where f.kind.holdsValue {
                        let attribute = f.id.hasPrefix("\(id)[:index].") ? String(f.id.dropFirst(id.count + 9)) : nil
                        guard let attribute else { continue }
                        let canHide = f.hidden || hideable.contains(f.id) || hideable.contains("\(id)[:index]") || hideable.contains(id)
                        if lenient {
                            let key = "^" + Self.regexEscaped(id) + "\\[[0-9]{1,9}\\]\\." + Self.regexEscaped(attribute) + "$"
                            patterns.append(key, value(for: f, canHide: canHide, mustHaveValue: false))
                        }
                        // In a row, as for a static field: a required field the row must carry.
                        let mustHaveValue = f.validations?.required == true && !canHide && f.formula == nil && !hasDefault(f)
                        if mustHaveValue { rowRequired.append(.string(attribute)) }
                        rowProperties.append(attribute, value(for: f, canHide: canHide, mustHaveValue: mustHaveValue))
                    }
                    properties.append(id, rows(s, id: id, properties: rowProperties, required: rowRequired))
                    continue
                }
                for f in s.fields where f.kind.holdsValue {
                    let canHide = f.hidden || hideable.contains(f.id) || (s.id.map(hideable.contains) ?? false)
                    let mustHaveValue = f.validations?.required == true && !canHide && f.formula == nil && !hasDefault(f)
                    if mustHaveValue { required.append(.string(f.id)) }
                    properties.append(f.id, value(for: f, canHide: canHide, mustHaveValue: mustHaveValue))
                    // A conditional `required`, where an if/then says exactly the same (API.md §4.1).
                    if let condition = f.validations?.requiredWhen, !canHide, f.formula == nil, !hasDefault(f),
                        let test = exactTest(condition, fields: byID, canHide: mayHide)
                    {
                        var then = JSONObject()
                        then.append("required", .array([.string(f.id)]))
                        then.append("properties", .object(JSONObject([.init(key: f.id, value: value(for: f, canHide: false, mustHaveValue: true))])))
                        conditional.append(Self.object(["if": test, "then": .object(then)]))
                    }
                }
            }
        }
        var root = JSONObject()
        root.append("$schema", .string("https://json-schema.org/draft/2020-12/schema"))
        root.append("$id", .string("/forms/\(form.id)/schema"))
        root.append("title", .string("A valid submission to the form \"\(form.title)\""))
        root.append(
            "description",
            .string(
                lenient
                    ? "Form version \(form.version). Lenient: every spelling formd accepts (flat instance keys or rows); looser than formd where a rule depends on other values (docs/reference/API.md §4.1)."
                    : "Form version \(form.version). Canonical: one plain type per field, repeating sections as arrays of rows; formd also accepts other spellings (the lenient schema, ?lenient=1). Looser than formd where a rule depends on other values (docs/reference/API.md §4.1)."))
        root.append("type", .string("object"))
        root.append("properties", .object(properties))
        if !patterns.isEmpty { root.append("patternProperties", .object(patterns)) }
        if !required.isEmpty { root.append("required", .array(required)) }
        if !conditional.isEmpty { root.append("allOf", .array(conditional)) }
        return .object(root)
    }

    /// The `if` of a conditional `required` whose condition is one or more `$x == v` (or
    /// `equals($x, v)`) joined by `&&`, each on a switch, or a select or segment whose option ids
    /// are all text that does not read as a number, that has no default and no formula and that
    /// nothing can hide: then the submitted spellings that make it true are known exactly. Nil for
    /// any other condition (not expressed: looser, never stricter).
    private func exactTest(
        _ text: String, fields: [String: (section: Section, field: Field)], canHide: (Field, Section) -> Bool
    ) -> JSONValue? {
        guard let parsed = try? Condition(parsing: text) else { return nil }
        var terms: [(Int, ExpressionNode)] = []
        func collect(_ n: ExpressionNode) -> Bool {
            switch n {
            case .all(let list): return list.allSatisfy(collect)
            case .compare(.equal, .variable(let i), let v), .compare(.equal, let v, .variable(let i)):
                terms.append((i, v))
                return true
            case .equals(let args) where args.count == 2:
                guard case .variable(let i) = args[0] else { return false }
                terms.append((i, args[1]))
                return true
            default: return false
            }
        }
        guard collect(parsed.root), !terms.isEmpty, parsed.aggregates.isEmpty else { return nil }
        var properties = JSONObject()
        var names: [JSONValue] = []
        for (i, literal) in terms {
            guard parsed.variables.indices.contains(i), let (section, x) = fields[parsed.variables[i]],
                !canHide(x, section), x.formula == nil, !hasDefault(x), properties[x.id] == nil
            else { return nil }
            let spellings: [JSONValue]
            switch (x.kind, literal) {
            case (.switch, .number(let n)) where n == 1:
                spellings = lenient ? [.bool(true), .number(JSONNumber(literal: "1")), .string("true"), .string("1")] : [.bool(true)]
            case (.switch, .number(let n)) where n == 0:
                spellings = lenient ? [.bool(false), .number(JSONNumber(literal: "0")), .string("false"), .string("0")] : [.bool(false)]
            case (.select, .string(let v)), (.segment, .string(let v)):
                let ids = x.options.compactMap({ $0.id })
                guard ids.allSatisfy({ if case .string(let s) = $0 { FormNumber(literal: s) == nil } else { false } }),
                    ids.contains(.string(v))
                else { return nil }
                spellings = [.string(v)]
            default: return nil
            }
            properties.append(x.id, Self.object(["enum": .array(spellings)]))
            names.append(.string(x.id))
        }
        return Self.object(["properties": .object(properties), "required": .array(names)])
    }

    /// A repeating section: an array of row objects, `min_instances`/`max_instances` (or the
    /// engine's cap) as `minItems`/`maxItems` (API.md §4.3). The lenient variant also takes `null`.
    private func rows(_ s: Section, id: String, properties: JSONObject, required: [JSONValue]) -> JSONValue {
        var row = JSONObject()
        row.append("type", .string("object"))
        row.append("properties", .object(properties))
        if !required.isEmpty { row.append("required", .array(required)) }
        var o = JSONObject()
        o.append("description", .string("\(s.raw["title"]?.stringValue ?? id): a repeating section, one object per instance (row i is instance i, the flat keys \(id)[i].…)"))
        o.append("type", lenient ? .array([.string("array"), .string("null")]) : .string("array"))
        o.append("items", .object(row))
        if let min = s.minInstances, min > 0 { o.append("minItems", .number(JSONNumber(literal: String(min)))) }
        if let max = s.maxInstances { o.append("maxItems", .number(JSONNumber(literal: String(max)))) }
        return .object(o)
    }

    private func hasDefault(_ f: Field) -> Bool {
        if let v = f.value, !v.isNull, v != .string("") { return true }
        return f.options.contains { $0.isDefault }
    }

    /// What one field accepts, in the schema's variant.
    private func value(for f: Field, canHide: Bool, mustHaveValue: Bool) -> JSONValue {
        lenient ? lenientValue(for: f, canHide: canHide, mustHaveValue: mustHaveValue)
            : canonicalValue(for: f, canHide: canHide, mustHaveValue: mustHaveValue)
    }

    /// The canonical value's one plain type (SEMANTICS §2). A field that can be hidden, or whose
    /// value a formula computes (`readOnly`), keeps its type and loses its bounds.
    private func canonicalValue(for f: Field, canHide: Bool, mustHaveValue: Bool) -> JSONValue {
        let computed = f.formula != nil
        let v = canHide || computed ? nil : f.validations
        var o = JSONObject()
        var note: String? = computed ? "computed: a submitted value is replaced" : canHide ? "may be hidden: not checked while hidden" : nil
        func bounds(_ type: String) {
            o.append("type", .string(type))
            if let min = v?.minValue { o.append("minimum", .number(min)) }
            if let max = v?.maxValue { o.append("maximum", .number(max)) }
        }
        switch f.kind {
        case .text, .name, .password:
            o.append("type", .string("string"))
            if mustHaveValue { o.append("pattern", .string("\\S")) }
            if let min = v?.minLength, min > 1 { o.append("minLength", .number(JSONNumber(literal: String((min + 1) / 2)))) }
            if let max = v?.maxLength, !Self.hasFormatter(f) { o.append("maxLength", .number(JSONNumber(literal: String(max)))) }
        case .email:
            o.append("type", .string("string"))
            o.append("pattern", .string("^[^@\\s]+@[^@\\s]+$"))
        case .number:
            o.append("type", .string("string"))
            o.append("pattern", .string("^[0-9]+$"))
        case .count: bounds("integer")
        case .float: bounds("number")
        case .switch:
            o.append("type", .string("boolean"))
            let allowed = [(true, 1.0), (false, 0.0)].filter { Self.within($0.1, v) }.map { JSONValue.bool($0.0) }
            if allowed.count == 1 { o.append("enum", .array(allowed)) }
        case .select, .segment, .multiSelect:
            let choice = Self.choiceSchema(f.options.compactMap({ $0.id }))
            if f.kind == .multiSelect {
                o.append("type", .string("array"))
                o.append("items", choice)
                o.append("uniqueItems", .bool(true))
                if mustHaveValue { o.append("minItems", .number(JSONNumber(literal: String(max(1, v?.minSelections ?? 1))))) }
                if let max = v?.maxSelections { o.append("maxItems", .number(JSONNumber(literal: String(max)))) }
            } else if case .object(let c) = choice {
                o.members += c.members
            }
        case .date:
            o.append("type", .string("string"))
            o.append("format", .string("date"))
        case .dateTime:
            o.append("type", .string("string"))
            o.append("format", .string("date-time"))
        case .time:
            o.append("type", .string("string"))
            o.append("pattern", .string("^[0-9]{2}:[0-9]{2}:[0-9]{2}$"))
        case .button, .spacer:
            return .object(JSONObject([.init(key: "description", value: .string(describe(f, note: "never a value")))]))
        case .custom:
            note = "custom kind: any JSON value, kept as sent"
        }
        if computed { o.append("readOnly", .bool(true)) }
        // Secret fields are validated and never echoed: sent, never in an answer's `values`.
        if f.isSecret { o.append("writeOnly", .bool(true)) }
        o.members.insert(.init(key: "description", value: .string(describe(f, note: note))), at: 0)
        return .object(o)
    }

    /// A choice among option ids: an `enum` of one JSON type (`string`, `integer`, `number` or
    /// `boolean`), or, for a field whose ids mix types, `anyOf` one such enum per type.
    private static func choiceSchema(_ ids: [JSONValue]) -> JSONValue {
        var groups: [(type: String, ids: [JSONValue])] = []
        for id in ids {
            let type: String
            switch id {
            case .string: type = "string"
            case .bool: type = "boolean"
            case .number(let n): type = n.text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? "number" : "integer"
            default: continue
            }
            if let g = groups.firstIndex(where: { $0.type == type }) { groups[g].ids.append(id) } else { groups.append((type, [id])) }
        }
        // Integers and other numbers are one JSON type.
        if let i = groups.firstIndex(where: { $0.type == "integer" }), let n = groups.firstIndex(where: { $0.type == "number" }) {
            groups[n].ids = ids.filter { if case .number = $0 { true } else { false } }
            groups.remove(at: i)
        }
        let schemas = groups.map { g in object(["type": .string(g.type), "enum": .array(g.ids)]) }
        if schemas.count == 1 { return schemas[0] }
        if schemas.isEmpty { return .object(JSONObject()) }
        return object(["anyOf": .array(schemas)])
    }

    /// What one field accepts (the lenient variant). `null` and blank strings mean "no value",
    /// which every field without `mustHaveValue` accepts.
    private func lenientValue(for f: Field, canHide: Bool, mustHaveValue: Bool) -> JSONValue {
        var branches: [JSONValue] = []
        // A hidden field is not validated, and a formula field's value is replaced: anything goes.
        if canHide || f.formula != nil {
            return .object(JSONObject([.init(key: "description", value: .string(describe(f, note: f.formula != nil ? "computed: a submitted value is replaced" : "may be hidden: not checked while hidden")))]))
        }
        if !mustHaveValue {
            branches.append(Self.object(["type": .string("null")]))
            branches.append(Self.object(["type": .string("string"), "pattern": .string("^\\s*$")]))
        }
        let v = f.validations
        switch f.kind {
        case .text, .name, .password:
            branches.append(stringBranch(v, formatted: Self.hasFormatter(f), mustHaveValue: mustHaveValue))
            branches.append(Self.object(["type": .array([.string("number"), .string("boolean")])]))
        case .email:
            branches.append(Self.object(["type": .string("string"), "pattern": .string("@")]))
        case .number:
            branches.append(Self.object(["type": .string("string"), "pattern": .string("^[0-9\\s]*[0-9][0-9\\s]*$")]))
            branches.append(Self.object(["type": .string("integer"), "minimum": .number(JSONNumber(literal: "0"))]))
        case .count:
            branches.append(Self.object(["type": .string("string"), "pattern": .string("^\\s*-?[0-9]+\\s*$")]))
            branches.append(numberBranch("integer", v))
        case .float:
            branches.append(Self.object(["type": .string("string"), "pattern": .string("\\S")]))
            branches.append(numberBranch("number", v))
        case .switch:
            var allowed: [JSONValue] = []
            for (json, reading) in [(JSONValue.bool(true), 1.0), (.bool(false), 0), (.number(JSONNumber(literal: "1")), 1),
                                    (.number(JSONNumber(literal: "0")), 0), (.string("true"), 1), (.string("false"), 0),
                                    (.string("1"), 1), (.string("0"), 0)] where Self.within(reading, v) {
                allowed.append(json)
            }
            branches.append(Self.object(["enum": .array(allowed)]))
        case .select, .segment, .multiSelect:
            var allowed: [JSONValue] = []
            for o in f.options {
                guard let id = o.id else { continue }
                allowed.append(id)
                switch id {
                case .number(let n): allowed.append(.string(n.text))
                case .bool(let b): allowed += b ? [.number(JSONNumber(literal: "1")), .string("true"), .string("1")]
                                                : [.number(JSONNumber(literal: "0")), .string("false"), .string("0")]
                default: break
                }
            }
            branches.append(Self.object(["enum": .array(allowed)]))
            if f.kind == .multiSelect {
                // A list of option ids (one id alone is a list of one). An empty list is no value;
                // a list shorter than `min_selections` is left to formd (never stricter).
                var list = JSONObject()
                list.append("type", .string("array"))
                list.append("items", Self.object(["enum": .array(allowed)]))
                list.append("uniqueItems", .bool(true))
                if mustHaveValue {
                    list.append("minItems", .number(JSONNumber(literal: String(max(1, v?.minSelections ?? 1)))))
                }
                if let max = v?.maxSelections { list.append("maxItems", .number(JSONNumber(literal: String(max)))) }
                branches.append(.object(list))
            }
        case .date, .dateTime, .time:
            branches.append(Self.object(["type": .string("string"), "pattern": .string("\\S")]))
        case .button, .spacer, .custom:
            return .object(JSONObject([.init(key: "description", value: .string(describe(f, note: nil)))]))
        }
        var out = JSONObject()
        out.append("description", .string(describe(f, note: nil)))
        out.append("anyOf", .array(branches))
        return .object(out)
    }

    private func describe(_ f: Field, note: String?) -> String {
        var s = "\(f.title ?? f.id) (\(f.type ?? "text"))"
        if let note { s += "; \(note)" }
        if let condition = f.validations?.requiredWhen { s += "; required when \(condition)" }
        return s
    }

    /// Lengths: formd counts UTF-16 code units, JSON Schema code points (one or two units each),
    /// so the schema's minimum is halved; formatters remove characters before counting, so
    /// formatted fields get no maximum.
    private func stringBranch(_ v: Validations?, formatted: Bool, mustHaveValue: Bool) -> JSONValue {
        var o = JSONObject()
        o.append("type", .string("string"))
        if mustHaveValue { o.append("pattern", .string("\\S")) }
        if let min = v?.minLength, min > 1 { o.append("minLength", .number(JSONNumber(literal: String((min + 1) / 2)))) }
        if let max = v?.maxLength, !formatted { o.append("maxLength", .number(JSONNumber(literal: String(max)))) }
        return .object(o)
    }

    private func numberBranch(_ type: String, _ v: Validations?) -> JSONValue {
        var o = JSONObject()
        o.append("type", .string(type))
        if let min = v?.minValue { o.append("minimum", .number(min)) }
        if let max = v?.maxValue { o.append("maximum", .number(max)) }
        return .object(o)
    }

    private static func within(_ reading: Double, _ v: Validations?) -> Bool {
        if let min = v?.minValue.flatMap({ Double($0.text) }), reading < min { return false }
        if let max = v?.maxValue.flatMap({ Double($0.text) }), reading > max { return false }
        return true
    }

    /// Fields whose submitted text is reformatted before checks (SEMANTICS §2).
    private static func hasFormatter(_ f: Field) -> Bool {
        let last = f.id.split(separator: ".").last.map(String.init) ?? f.id
        return ["phone_number", "social_security_number", "bank_account_number"].contains(last)
    }

    private static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(pairs.map { .init(key: $0.key, value: $0.value) }))
    }

    static func regexEscaped(_ s: String) -> String {
        var out = ""
        for c in s {
            if "\\^$.|?*+()[]{}/".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
