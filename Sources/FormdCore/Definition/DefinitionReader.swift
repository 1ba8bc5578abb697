/// Turns a parsed definition document into a `FormDefinition`, collecting every problem of shape
/// and type (SEMANTICS §1). Cross-references (ids, formulas, cycles...) are `FormCompiler`'s.
///
/// Reading rules of the original library (SEMANTICS §1): a key whose value is `null` or `""` counts as absent.
struct DefinitionReader {
    /// Maps a JSON path to the line and column of the value (or key) it names.
    typealias Locator = (_ path: String) -> (line: Int, column: Int)?

    private let locate: Locator
    private(set) var diagnostics: [Diagnostic] = []
    /// Whether some text is given per language (the served definition then has variants).
    private(set) var hasLocalizedText = false

    init(locate: @escaping Locator) { self.locate = locate }

    /// The most kept versions a definition may ask for (`formd publish --keep` has the same bound).
    package static let maxKeepVersions = 1000
    static let topKeys: Set<String> = ["groups", "templates", "title", "messages", "keep_versions", "$schema"]
    static let templateKeys: Set<String> = ["sections", "fields"]
    static let groupKeys: Set<String> = ["id", "title", "sections", "collapsed", "collapsible", "styles"]
    static let sectionKeys: Set<String> = [
        "id", "title", "fields", "type", "action_title", "targets", "styles", "min_instances", "max_instances",
    ]
    static let fieldKeys: Set<String> = [
        "id", "type", "input_type", "title", "info", "placeholder", "accessibility_label", "size", "hidden",
        "disabled", "value", "values", "validations", "formula", "targets", "minimum_date", "maximum_date", "styles",
        "secret", "warnings", "validate_when_hidden", "clear_when_hidden",
    ]
    static let optionKeys: Set<String> = ["id", "title", "info", "value", "default", "targets", "accessibility_label"]
    static let targetKeys: Set<String> = ["id", "type", "action", "target_value", "condition"]
    static let validationKeys: Set<String> = [
        "required", "min_length", "max_length", "minimum_length", "maximum_length", "min_value", "max_value",
        "format", "compare_to", "compare_rule", "messages", "min_selections", "max_selections", "rules",
        "remote",
    ]
    static let ruleKeys: Set<String> = ["condition", "code", "message"]

    mutating func read(_ root: JSONValue) -> FormDefinition? {
        switch root {
        case .array(let groups):
            return FormDefinition(
                title: nil, groups: readGroups(groups, path: ""), templates: [], fieldTemplates: nil,
                messages: nil, isObjectShape: false)
        case .object(let object):
            warnUnknownKeys(object, known: Self.topKeys, path: "")
            var groups: [Group] = []
            switch present(object["groups"]) {
            case .array(let items)?: groups = readGroups(items, path: "groups")
            case nil: error("groups", "an object-shaped definition needs a \"groups\" array")
            case .some: error("groups", "\"groups\" must be an array of groups")
            }
            var templates: [SectionTemplate] = []
            var fieldTemplates: JSONValue?
            if let t = present(object["templates"]) {
                if case .object(let tobj) = t {
                    warnUnknownKeys(tobj, known: Self.templateKeys, path: "templates")
                    templates = readTemplates(tobj["sections"], path: "templates.sections")
                    fieldTemplates = present(tobj["fields"])
                    if let ft = fieldTemplates, ft.arrayValue == nil {
                        error("templates.fields", "\"templates.fields\" must be an array")
                    }
                } else {
                    error("templates", "\"templates\" must be an object with \"sections\" and \"fields\"")
                }
            }
            var messages: JSONObject?
            if let m = present(object["messages"]) {
                if case .object(let mo) = m {
                    messages = mo
                    checkFormMessages(mo, path: "messages")
                } else {
                    error("messages", "\"messages\" must be an object keyed by locale")
                }
            }
            var keepVersions = count(object, "keep_versions", path: "")
            if let k = keepVersions, k > Self.maxKeepVersions {
                error("keep_versions", "\"keep_versions\" must be at most \(Self.maxKeepVersions)")
                keepVersions = nil
            }
            var definition = FormDefinition(
                title: text(object, "title", path: ""), groups: groups, templates: templates,
                fieldTemplates: fieldTemplates, messages: messages, isObjectShape: true)
            definition.keepVersions = keepVersions
            return definition
        default:
            error("", "a definition must be an array of groups or an object with \"groups\"")
            return nil
        }
    }

    // MARK: - Elements

    private mutating func readGroups(_ items: [JSONValue], path: String) -> [Group] {
        var groups: [Group] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard case .object(let o) = item else {
                error(p, "a group must be an object")
                continue
            }
            warnUnknownKeys(o, known: Self.groupKeys, path: p)
            var sections: [Section] = []
            switch present(o["sections"]) {
            case .array(let list)?:
                for (j, s) in list.enumerated() {
                    if let section = readSection(s, path: "\(p).sections[\(j)]") { sections.append(section) }
                }
            case nil: break
            case .some: error("\(p).sections", "\"sections\" must be an array")
            }
            _ = bool(o, "collapsed", path: p)
            _ = bool(o, "collapsible", path: p)
            groups.append(
                Group(id: string(o, "id", path: p), title: text(o, "title", path: p), sections: sections, raw: o, path: p))
        }
        return groups
    }

    private mutating func readSection(_ value: JSONValue, path p: String) -> Section? {
        guard case .object(let o) = value else {
            error(p, "a section must be an object")
            return nil
        }
        warnUnknownKeys(o, known: Self.sectionKeys, path: p)
        let type = string(o, "type", path: p)
        let isDynamic = type == "dynamic"
        let fields = readFields(o["fields"], path: "\(p).fields")
        let targets = readTargets(o["targets"], path: "\(p).targets")
        let minI = count(o, "min_instances", path: p)
        let maxI = count(o, "max_instances", path: p)
        if let a = minI, let b = maxI, a > b {
            error("\(p).min_instances", "min_instances (\(a)) is greater than max_instances (\(b))")
        }
        let id = string(o, "id", path: p)
        if isDynamic && id == nil {
            error(p, "a dynamic section needs an \"id\" naming its template")
        }
        return Section(
            id: id, fields: fields, isDynamic: isDynamic, actionTitle: text(o, "action_title", path: p),
            targets: targets, minInstances: minI, maxInstances: maxI, raw: o, path: p)
    }

    private mutating func readTemplates(_ value: JSONValue?, path p: String) -> [SectionTemplate] {
        guard let value = present(value) else { return [] }
        guard case .array(let items) = value else {
            error(p, "\"templates.sections\" must be an array")
            return []
        }
        var out: [SectionTemplate] = []
        for (i, item) in items.enumerated() {
            let ip = "\(p)[\(i)]"
            guard case .object(let o) = item else {
                error(ip, "a section template must be an object")
                continue
            }
            warnUnknownKeys(o, known: Self.sectionKeys, path: ip)
            guard let id = string(o, "id", path: ip) else {
                error(ip, "a section template needs an \"id\"")
                continue
            }
            out.append(SectionTemplate(id: id, fields: readFields(o["fields"], path: "\(ip).fields"), raw: o, path: ip))
        }
        return out
    }

    private mutating func readFields(_ value: JSONValue?, path p: String) -> [Field] {
        guard let value = present(value) else { return [] }
        guard case .array(let items) = value else {
            error(p, "\"fields\" must be an array")
            return []
        }
        var out: [Field] = []
        for (i, item) in items.enumerated() {
            if let f = readField(item, path: "\(p)[\(i)]") { out.append(f) }
        }
        return out
    }

    private mutating func readField(_ value: JSONValue, path p: String) -> Field? {
        guard case .object(let o) = value else {
            error(p, "a field must be an object")
            return nil
        }
        warnUnknownKeys(o, known: Self.fieldKeys, path: p)
        guard let id = string(o, "id", path: p) else {
            error(p, "a field needs an \"id\"")
            return nil
        }
        var options: [FieldOption] = []
        switch present(o["values"]) {
        case .array(let list)?:
            for (k, item) in list.enumerated() {
                if let opt = readOption(item, path: "\(p).values[\(k)]") { options.append(opt) }
            }
        case nil: break
        case .some: error("\(p).values", "\"values\" must be an array of options")
        }
        var validations: Validations?
        switch present(o["validations"]) {
        case .object(let vo)?: validations = readValidations(vo, path: "\(p).validations")
        case nil: break
        case .some: error("\(p).validations", "\"validations\" must be an object")
        }
        for key in ["info", "placeholder", "accessibility_label"] {
            _ = localized(o, key, path: p)
        }
        for key in ["minimum_date", "maximum_date"] {
            _ = string(o, key, path: p)
        }
        let title = localized(o, "title", path: p)
        var field = Field(
            id: id, type: string(o, "type", path: p), inputType: string(o, "input_type", path: p),
            title: title?.text, hidden: bool(o, "hidden", path: p) ?? false,
            disabled: bool(o, "disabled", path: p) ?? false, value: present(o["value"]), options: options,
            validations: validations, formula: string(o, "formula", path: p),
            targets: readTargets(o["targets"], path: "\(p).targets"), raw: o, path: p)
        field.localizedTitle = title
        field.secret = bool(o, "secret", path: p) ?? false
        switch present(o["warnings"]) {
        case .object(let wo)?: field.warnings = readValidations(wo, path: "\(p).warnings")
        case nil: break
        case .some: error("\(p).warnings", "\"warnings\" must be an object with the keys of \"validations\"")
        }
        field.validateWhenHidden = bool(o, "validate_when_hidden", path: p) ?? false
        field.clearWhenHidden = bool(o, "clear_when_hidden", path: p) ?? false
        return field
    }

    private mutating func readOption(_ value: JSONValue, path p: String) -> FieldOption? {
        guard case .object(let o) = value else {
            error(p, "an option must be an object")
            return nil
        }
        warnUnknownKeys(o, known: Self.optionKeys, path: p)
        var id: JSONValue?
        switch present(o["id"]) {
        case let v? where v.isScalar: id = v
        case nil: warning(p, "an option without an \"id\" can never be chosen")
        case .some: error("\(p).id", "an option id must be a string, number or boolean")
        }
        var number: JSONNumber?
        switch present(o["value"]) {
        case .number(let n)?: number = n
        case nil: break
        case .some: error("\(p).value", "an option's \"value\" is its numeric payload and must be a number")
        }
        for key in ["info", "accessibility_label"] {
            _ = localized(o, key, path: p)
        }
        var option = FieldOption(
            id: id, title: text(o, "title", path: p), value: number, isDefault: bool(o, "default", path: p) ?? false,
            targets: readTargets(o["targets"], path: "\(p).targets"), path: p)
        option.localizedTitle = present(o["title"]).flatMap(LocalizedText.init(json:)).flatMap { $0.isLocalized ? $0 : nil }
        return option
    }

    private mutating func readTargets(_ value: JSONValue?, path p: String) -> [Target] {
        guard let value = present(value) else { return [] }
        guard case .array(let items) = value else {
            error(p, "\"targets\" must be an array")
            return []
        }
        var out: [Target] = []
        for (i, item) in items.enumerated() {
            let tp = "\(p)[\(i)]"
            guard case .object(let o) = item else {
                error(tp, "a target must be an object")
                continue
            }
            warnUnknownKeys(o, known: Self.targetKeys, path: tp)
            let typeName = string(o, "type", path: tp)
            let kind: Target.Kind = typeName == "field" ? .field : typeName == "section" ? .section : .none
            let actionName = string(o, "action", path: tp)
            let action = actionName.flatMap(Target.Action.init(rawValue:))
            if actionName != nil && action == nil {
                warning("\(tp).action", "unknown action \"\(actionName!)\": the target is ignored")
            }
            let id = string(o, "id", path: tp)
            if id == nil { warning(tp, "a target without an \"id\" does nothing") }
            out.append(
                Target(
                    id: id, kind: kind, typeName: typeName, action: action, targetValue: present(o["target_value"]),
                    condition: string(o, "condition", path: tp), path: tp))
        }
        return out
    }

    private mutating func readValidations(_ o: JSONObject, path p: String) -> Validations {
        warnUnknownKeys(o, known: Self.validationKeys, path: p)
        var v = Validations()
        // `required`: a boolean, or a condition under which the field is required.
        if case .string(let condition)? = present(o["required"]) {
            v.requiredWhen = condition
        } else {
            v.required = bool(o, "required", path: p) ?? false
        }
        v.rules = readRules(o["rules"], path: "\(p).rules")
        v.minLength = count(o, "min_length", path: p) ?? count(o, "minimum_length", path: p)
        v.maxLength = count(o, "max_length", path: p) ?? count(o, "maximum_length", path: p)
        v.minValue = number(o, "min_value", path: p)
        v.maxValue = number(o, "max_value", path: p)
        v.format = string(o, "format", path: p)
        v.minSelections = count(o, "min_selections", path: p)
        v.maxSelections = count(o, "max_selections", path: p)
        v.compareTo = string(o, "compare_to", path: p)
        if let name = string(o, "remote", path: p) {
            if p.hasSuffix(".warnings") {
                error("\(p).remote", "\"remote\" belongs in \"validations\", not in \"warnings\"")
            } else if !Validations.isValidRemoteName(name) {
                error("\(p).remote", "\"\(name)\" is not a remote validator name (a letter, then up to 63 letters, digits, _ or -)")
            } else {
                v.remote = name
            }
        }
        if let rule = string(o, "compare_rule", path: p) {
            if let r = Validations.CompareRule(rawValue: rule) {
                v.compareRule = r
            } else {
                error("\(p).compare_rule", "compare_rule must be one of > >= < <= ==, not \"\(rule)\"")
            }
        }
        switch present(o["messages"]) {
        case .object(let m)?:
            v.messages = m
            for member in m.members {
                switch member.value {
                case .string: break
                case .object(let perLocale):
                    for l in perLocale.members where l.value.stringValue == nil {
                        error("\(p).messages.\(member.key).\(l.key)", "a message must be a string")
                    }
                default: error("\(p).messages.\(member.key)", "a message must be a string or an object of strings by locale")
                }
            }
        case nil: break
        case .some: error("\(p).messages", "\"messages\" must be an object keyed by error code")
        }
        return v
    }

    /// `rules`: `[{"condition": "...", "code": "...", "message": "..." or {"en": ...}}]`.
    private mutating func readRules(_ value: JSONValue?, path p: String) -> [ValidationRule] {
        guard let value = present(value) else { return [] }
        guard case .array(let items) = value else {
            error(p, "\"rules\" must be an array of {\"condition\", \"code\", \"message\"} objects")
            return []
        }
        var out: [ValidationRule] = []
        for (i, item) in items.enumerated() {
            let rp = "\(p)[\(i)]"
            guard case .object(let o) = item else {
                error(rp, "a rule must be an object with a \"condition\"")
                continue
            }
            warnUnknownKeys(o, known: Self.ruleKeys, path: rp)
            guard let condition = string(o, "condition", path: rp) else {
                if present(o["condition"]) == nil { error(rp, "a rule needs a \"condition\" that must hold") }
                continue
            }
            var code = ValidationRule.defaultCode
            if let c = string(o, "code", path: rp) {
                if !ValidationRule.isValidCode(c) {
                    error("\(rp).code", "a rule's code must be a letter followed by up to 63 letters, digits, \"_\", \".\" or \"-\", not \"\(c)\"")
                } else if c != ValidationRule.defaultCode, ErrorCode(rawValue: c) != nil {
                    error("\(rp).code", "\"\(c)\" is a built-in error code; give the rule its own code so that clients can tell them apart")
                } else {
                    code = c
                }
            }
            let message = localized(o, "message", path: rp)
            out.append(ValidationRule(condition: condition, code: code, message: message, path: rp))
        }
        return out
    }

    private mutating func checkFormMessages(_ o: JSONObject, path p: String) {
        for locale in o.members {
            guard case .object(let codes) = locale.value else {
                error("\(p).\(locale.key)", "messages for a locale must be an object keyed by error code")
                continue
            }
            for c in codes.members where c.value.stringValue == nil {
                error("\(p).\(locale.key).\(c.key)", "a message must be a string")
            }
        }
    }

    // MARK: - Typed key readers

    /// `null` and `""` count as absent (SEMANTICS §1).
    private func present(_ v: JSONValue?) -> JSONValue? {
        switch v {
        case nil, .null?: return nil
        case .string(let s)? where s.isEmpty: return nil
        default: return v
        }
    }

    /// A text that may be given per language (`LocalizedText`): a string, or an object of strings
    /// keyed by language tags.
    private mutating func localized(_ o: JSONObject, _ key: String, path: String) -> LocalizedText? {
        guard let value = present(o[key]) else { return nil }
        guard let text = LocalizedText(json: value) else {
            error(
                join(path, key),
                "\"\(key)\" must be a string, or an object of strings by language ({\"en\": \"...\", \"nb\": \"...\"})")
            return nil
        }
        if text.isLocalized { hasLocalizedText = true }
        return text
    }

    /// `localized`, as the text for clients that name no language.
    private mutating func text(_ o: JSONObject, _ key: String, path: String) -> String? { localized(o, key, path: path)?.text }

    private mutating func string(_ o: JSONObject, _ key: String, path: String) -> String? {
        switch present(o[key]) {
        case nil: return nil
        case .string(let s)?: return s
        case .some:
            error(join(path, key), "\"\(key)\" must be a string")
            return nil
        }
    }

    private mutating func bool(_ o: JSONObject, _ key: String, path: String) -> Bool? {
        switch present(o[key]) {
        case nil: return nil
        case .bool(let b)?: return b
        case .number(let n)? where n.text == "0" || n.text == "1": return n.text == "1"
        case .some:
            error(join(path, key), "\"\(key)\" must be true or false")
            return nil
        }
    }

    private mutating func count(_ o: JSONObject, _ key: String, path: String) -> Int? {
        switch present(o[key]) {
        case nil: return nil
        case .number(let n)?:
            if let i = Int(n.text), i >= 0 { return i }
            if let d = Double(n.text), d >= 0, d == d.rounded(), d < 1e15 { return Int(d) }
            error(join(path, key), "\"\(key)\" must be a non-negative integer")
            return nil
        case .some:
            error(join(path, key), "\"\(key)\" must be a non-negative integer")
            return nil
        }
    }

    private mutating func number(_ o: JSONObject, _ key: String, path: String) -> JSONNumber? {
        switch present(o[key]) {
        case nil: return nil
        case .number(let n)?: return n
        case .some:
            error(join(path, key), "\"\(key)\" must be a number")
            return nil
        }
    }

    private mutating func warnUnknownKeys(_ o: JSONObject, known: Set<String>, path: String) {
        for m in o.members where !known.contains(m.key) {
            var message = "unknown key \"\(m.key)\" is ignored"
            if let meant = DefinitionLint.suggestion(for: m.key, among: known.sorted()) { message += "; did you mean \"\(meant)\"?" }
            warning(join(path, m.key), message, keyLocation: true)
        }
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // MARK: - Diagnostics

    mutating func error(_ path: String, _ message: String) { add(.error, path, message) }
    mutating func warning(_ path: String, _ message: String, keyLocation: Bool = false) { add(.warning, path, message) }

    private mutating func add(_ severity: Diagnostic.Severity, _ path: String, _ message: String) {
        let loc = locate(path) ?? (1, 1)
        diagnostics.append(Diagnostic(severity, path: path, message: message, line: loc.line, column: loc.column))
    }
}

extension JSONValue {
    /// Strings, numbers and booleans.
    var isScalar: Bool {
        switch self {
        case .string, .number, .bool: true
        default: false
        }
    }
}
