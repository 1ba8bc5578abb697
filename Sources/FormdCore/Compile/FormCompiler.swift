/// Checks a `FormDefinition` (SEMANTICS §1) and compiles it into a `FormPlan`. Every problem of
/// the definition is collected, not just the first.
struct FormCompiler {
    typealias Locator = DefinitionReader.Locator
    /// Maps (path of a string value, scalar offset inside it) to a file position.
    typealias StringLocator = (_ path: String, _ offset: Int) -> (line: Int, column: Int)?

    let definition: FormDefinition
    let locate: Locator
    let locateInString: StringLocator
    private(set) var diagnostics: [Diagnostic] = []

    private var fieldIndex: [String: Int] = [:]
    private var sectionIndex: [String: Int] = [:]
    private var templateIndex: [String: Int] = [:]
    /// Per template: attribute ids (with `:index`) → attribute index.
    private var templateAttr: [[String: Int]] = []
    private var staticFields: [(field: Field, section: Int)] = []
    /// Static fields in definition order (`fieldIndex`'s numbering, duplicates included).
    private var staticFieldList: [Field] = []
    /// Conditions of rules and of conditional `required`, for the cycle check.
    private var ruleConditions: [(CompiledCondition, String)] = []
    /// Formula nodes in a reported cycle → the cycle as written in its diagnostic.
    private var cycleNames: [FormPlan.FormulaNode: String] = [:]
    /// Codes of every rule of the definition: message overrides may name them.
    private var ruleCodes: Set<String> = []
    /// Some field has a remote rule: its validator's codes are known only per answer, so any
    /// valid code may have a message (SEMANTICS §6.2).
    private var hasRemoteRules = false

    init(definition: FormDefinition, locate: @escaping Locator, locateInString: @escaping StringLocator) {
        self.definition = definition
        self.locate = locate
        self.locateInString = locateInString
    }

    mutating func compile() -> FormPlan? {
        guard checkComplexity() else { return nil }
        indexIDs()
        staticFieldList = definition.groups.flatMap { $0.sections.flatMap({ $0.fields }) }
        for f in staticFieldList + definition.templates.flatMap({ $0.fields }) {
            for r in (f.validations?.rules ?? []) + (f.warnings?.rules ?? []) { ruleCodes.insert(r.code) }
            if f.validations?.remote != nil { hasRemoteRules = true }
        }
        var sectionSpecs: [SectionSpec] = []
        var fieldSpecs: [FieldSpec] = []
        var s = 0
        for group in definition.groups {
            for section in group.sections {
                let start = fieldSpecs.count
                var template: Int?
                if section.isDynamic, let id = section.id {
                    template = templateIndex[id]
                    if template == nil {
                        error(section.path, "dynamic section \"\(id)\" has no template in templates.sections")
                    }
                }
                for field in section.fields {
                    fieldSpecs.append(compileField(field, template: nil, section: s))
                }
                let targets = section.isDynamic ? compileTargets(section.targets, template: nil) : []
                sectionSpecs.append(
                    SectionSpec(section: section, id: section.id, template: template, fields: start..<fieldSpecs.count, targets: targets))
                s += 1
            }
        }
        var templateSpecs: [TemplateSpec] = []
        for (t, template) in definition.templates.enumerated() {
            let section = sectionSpecs.firstIndex { $0.template == t }
            let fields = template.fields.map { compileField($0, template: t, section: section ?? 0) }
            let parts = template.fields.map { f -> (prefix: String, suffix: String) in  // labelled as stored (see `dropped`)
                guard let r = f.id.firstRange(ofText: ":index") else { return (f.id, "") }
                return (String(f.id[..<r.lowerBound]), String(f.id[r.upperBound...]))
            }
            templateSpecs.append(
                TemplateSpec(
                    template: template, id: template.id, fields: fields, section: section, idParts: parts,
                    attrIndex: templateAttr[t]))
        }
        checkSecretsStayPut(fields: fieldSpecs, templates: templateSpecs)
        let order = formulaOrder(fields: fieldSpecs, templates: templateSpecs)
        checkConditionsOutsideCycles()
        let formMessages = compileMessages(definition.messages, path: "messages", field: false)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        return FormPlan(
            definition: definition, fields: fieldSpecs, sections: sectionSpecs, templates: templateSpecs,
            fieldIndex: fieldIndex, sectionIndex: sectionIndex, templateIndex: templateIndex, formulaOrder: order,
            formMessages: formMessages)
    }

    /// A formula that reads a secret field would copy it into a field that is echoed: refused
    /// (conditions and `compare_to` may read secrets; they only decide).
    private mutating func checkSecretsStayPut(fields: [FieldSpec], templates: [TemplateSpec]) {
        func spec(_ v: VariableRef) -> FieldSpec? {
            switch v {
            case .scalar(.field(let i)): fields.indices.contains(i) ? fields[i] : nil
            case .scalar(.local(let t, let a)), .scalar(.instance(let t, _, let a)), .aggregate(let t, let a):
                templates.indices.contains(t) && templates[t].fields.indices.contains(a) ? templates[t].fields[a] : nil
            }
        }
        for f in fields + templates.flatMap({ $0.fields }) {
            guard let formula = f.formula else { continue }
            for v in formula.variables {
                guard let read = spec(v), read.isSecret else { continue }
                error(f.path + ".formula", "formula reads the secret field \"\(read.id)\" and would copy its value into \"\(f.id)\", which answers echo; secret fields are never echoed")
                break
            }
        }
    }

    // MARK: - Complexity (SEMANTICS §11)

    /// Refuses definitions past `DefinitionLimits` before compiling anything, so their cost is
    /// one count: what a form costs to load and to evaluate grows with these numbers.
    private mutating func checkComplexity() -> Bool {
        var fields = 0, targets = 0
        var ok = true
        func count(_ list: [Field]) {
            for f in list {
                fields += 1
                targets += f.targets.count + (f.validations?.rules.count ?? 0) + (f.warnings?.rules.count ?? 0)
                if f.options.count > DefinitionLimits.maxOptionsPerField {
                    error(f.path + ".values", "\(f.options.count) options, over the limit of \(DefinitionLimits.maxOptionsPerField) per field")
                    ok = false
                }
                for o in f.options { targets += o.targets.count }
            }
        }
        for g in definition.groups { for s in g.sections { count(s.fields); targets += s.targets.count } }
        for t in definition.templates { count(t.fields) }
        if fields > DefinitionLimits.maxFields {
            error("", "\(fields) fields, over the limit of \(DefinitionLimits.maxFields) per definition")
            ok = false
        }
        if targets > DefinitionLimits.maxTargets {
            error("", "\(targets) targets, over the limit of \(DefinitionLimits.maxTargets) per definition")
            ok = false
        }
        return ok
    }

    // MARK: - Ids

    private mutating func indexIDs() {
        var s = 0
        var f = 0
        for group in definition.groups {
            for section in group.sections {
                if let id = section.id {
                    if sectionIndex[id] != nil {
                        error(section.path + ".id", "duplicate section id \"\(id)\"")
                    } else {
                        sectionIndex[id] = s
                    }
                }
                for field in section.fields {
                    if fieldIndex[field.id] != nil {
                        error(field.path + ".id", "duplicate field id \"\(field.id)\"")
                    } else {
                        fieldIndex[field.id] = f
                    }
                    f += 1
                }
                s += 1
            }
        }
        for (t, template) in definition.templates.enumerated() {
            if templateIndex[template.id] != nil {
                error(template.path + ".id", "duplicate section template id \"\(template.id)\"")
            } else {
                templateIndex[template.id] = t
            }
            var attrs: [String: Int] = [:]
            for (a, field) in template.fields.enumerated() {
                if attrs[field.id] != nil || fieldIndex[field.id] != nil {
                    error(field.path + ".id", "duplicate field id \"\(field.id)\"")
                } else {
                    attrs[field.id] = a
                }
            }
            templateAttr.append(attrs)
        }
        // A static field named like an instance field (`items[0].quantity`, with a template
        // `items` that has `items[:index].quantity`) would take over instance 0's value and skip
        // the template's rules: a load error.
        for group in definition.groups {
            for section in group.sections {
                for field in section.fields {
                    guard let key = InstanceKey(field.id) else { continue }
                    for (t, attrs) in templateAttr.enumerated() where attrs[key.pattern] != nil {
                        error(
                            field.path + ".id",
                            "field id \"\(field.id)\" names instance \(key.index) of the template \"\(definition.templates[t].id)\"; instance fields come from the template")
                    }
                }
            }
        }
    }

    /// Resolves a field id seen from `template` (nil outside templates).
    func resolveField(_ name: String, template: Int?) -> FieldRef? {
        if let i = fieldIndex[name] { return .field(i) }
        if let t = template, let a = templateAttr[t][name] { return .local(template: t, attr: a) }
        if let (t, n, a) = concreteInstance(name) { return .instance(template: t, index: n, attr: a) }
        return nil
    }

    func resolveVariable(_ name: String, template: Int?) -> VariableRef? {
        if let r = resolveField(name, template: template) { return .scalar(r) }
        if let (t, a) = aggregate(name) { return .aggregate(template: t, attr: a) }
        return nil
    }

    /// `T[n].attr` with a template attribute `T[:index].attr`.
    func concreteInstance(_ name: String) -> (Int, Int, Int)? {
        guard let key = InstanceKey(name) else { return nil }
        for (t, attrs) in templateAttr.enumerated() {
            if let a = attrs[key.pattern] { return (t, key.index, a) }
        }
        return nil
    }

    /// `T[*].attr`.
    func aggregate(_ name: String) -> (Int, Int)? {
        guard let r = name.firstRange(ofText: "[*]") else { return nil }
        let pattern = String(name[..<r.lowerBound]) + "[:index]" + String(name[r.upperBound...])
        for (t, attrs) in templateAttr.enumerated() {
            if let a = attrs[pattern] { return (t, a) }
        }
        return nil
    }

    // MARK: - Fields

    private mutating func compileField(_ field: Field, template: Int?, section: Int) -> FieldSpec {
        // Options.
        var options: [OptionSpec] = []
        // By a key that is equal exactly when `OptionMatch.sameID` is: a linear scan per option
        // made loading quadratic in a field's options (40,000 took 4 s).
        var seen = Set<String>()
        for option in field.options {
            if let id = option.id, !seen.insert(OptionMatch.idKey(id)).inserted {
                error(option.path + ".id", "option id \(id.compactText) repeats in field \"\(field.id)\"")
            }
            var number: FormNumber?
            if let v = option.value { number = FormNumber(literal: v.text) }
            options.append(
                OptionSpec(
                    id: option.id, number: number, targets: compileTargets(option.targets, template: template),
                    label: option.title ?? option.id?.choiceText ?? "", localizedLabel: option.localizedTitle))
        }
        let coercer = ValueCoercer(
            kind: field.kind, formatter: InputFormatter.forField(id: field.id, type: field.type),
            optionIDs: field.options.map({ $0.id }))

        // Default (SEMANTICS §3): the JSON `value`, else the first default option.
        var defaultValue: JSONValue?
        if let v = field.value, field.kind.holdsValue {
            switch coercer.coerce(v) {
            case .value(let c): defaultValue = c
            case .asSent: defaultValue = v
            case .none: break
            case .invalid:
                error(field.path + ".value", "value \(v.compactText) cannot be held by a \(field.kind.expectedName) field")
            }
        }
        if defaultValue == nil, field.kind == .multiSelect {
            // Every option marked `default` (SEMANTICS §3).
            let ids = field.options.filter({ $0.isDefault }).compactMap({ $0.id })
            if !ids.isEmpty { defaultValue = .array(ids) }
        } else if defaultValue == nil, let option = field.options.first(where: { $0.isDefault && $0.id != nil }) {
            defaultValue = option.id
        }

        // Formula.
        var formula: CompiledFormula?
        if let text = field.formula {
            do {
                formula = try CompiledFormula(
                    source: text, numeric: field.kind.isNumeric,
                    resolve: { name in self.resolveVariable(name, template: template) })
            } catch let issue {
                error(field.path + ".formula", issue.message, stringOffset: issue.offset)
            }
        }

        // Validations, and the warnings block (the same vocabulary).
        let validationSpec = field.validations.map {
            compileValidations($0, field: field, template: template, coercer: coercer, path: field.path + ".validations")
        }
        var warnings: WarningChecks?
        if let w = field.warnings {
            if w.pureForm == nil {
                let spec = compileValidations(w, field: field, template: template, coercer: coercer, path: field.path + ".warnings")
                warnings = WarningChecks(rules: spec, field: FieldSpec.Shape(kind: field.kind, hasOptions: !field.options.isEmpty))
            }
            if !field.kind.holdsValue { warning(field.path + ".warnings", "a \(field.kind.expectedName) holds no value: its warnings never apply") }
        }

        let targets = field.options.isEmpty ? compileTargets(field.targets, template: template) : []
        let all = targets + options.flatMap({ $0.targets })
        let idCheck = IDCheck.forField(id: field.id)
        return FieldSpec(
            field: field, id: field.id, kind: field.kind, template: template, section: section, coercer: coercer,
            defaultValue: defaultValue, options: options, targets: targets, formula: formula,
            validations: validationSpec, warnings: warnings, idCheck: idCheck, hasStructuralTargets: all.contains { $0.isStructural },
            hasValueTargets: all.contains { !$0.isStructural })
    }

    /// A `validations` (or `warnings`) block: patterns compiled, references resolved, conditions
    /// bound and type-checked, rule messages resolved per locale.
    private mutating func compileValidations(
        _ v: Validations, field: Field, template: Int?, coercer: ValueCoercer, path: String
    ) -> ValidationSpec {
        var pattern: FormatPattern?
        if let f = v.format {
            do { pattern = try FormatPattern.interned(f) } catch {
                self.error(path + ".format", "regex does not compile: \(error.message)", stringOffset: error.offset)
            }
        }
        for (key, bound) in [("min_selections", v.minSelections), ("max_selections", v.maxSelections)]
        where bound != nil && field.kind != .multiSelect {
            error(path + "." + key, "\(key) applies to multi_select fields only")
        }
        if let min = v.minSelections, let max = v.maxSelections, min > max {
            error(path + ".min_selections", "min_selections (\(min)) is above max_selections (\(max))")
        }
        var compare: FieldRef?
        if let other = v.compareTo {
            compare = resolveField(other, template: template)
            if compare == nil {
                error(path + ".compare_to", "compare_to names no field: \"\(other)\"")
            }
        }
        let requiredWhen = v.requiredWhen.flatMap { compileCheckedCondition($0, template: template, path: path + ".required", what: "required") }
        if v.rules.count > DefinitionLimits.maxRulesPerField {
            error(path + ".rules", "\(v.rules.count) rules, over the limit of \(DefinitionLimits.maxRulesPerField) per field")
        }
        var rules: [CompiledRule] = []
        for rule in v.rules.prefix(DefinitionLimits.maxRulesPerField) {
            guard let c = compileCheckedCondition(rule.condition, template: template, path: rule.path + ".condition", what: "rule") else {
                continue
            }
            rules.append(
                CompiledRule(
                    condition: c, code: rule.code, messages: ruleMessages(rule, fieldMessages: v.messages), source: rule.condition))
            ruleConditions.append((c, rule.path + ".condition"))
        }
        if let c = requiredWhen { ruleConditions.append((c, path + ".required")) }
        return ValidationSpec(
            required: v.required, minLength: v.minLength, maxLength: v.maxLength,
            minValue: v.minValue.flatMap { n in FormNumber(literal: n.text).map { (n.text, $0) } },
            maxValue: v.maxValue.flatMap { n in FormNumber(literal: n.text).map { (n.text, $0) } },
            format: pattern, compareTo: compare, compareToText: v.compareTo, compareRule: v.compareRule,
            minSelections: v.minSelections, maxSelections: v.maxSelections,
            messageTable: compileMessages(v.messages, path: path + ".messages", field: true),
            pureForm: v.pureForm.map { compilePureForm($0, field: field, coercer: coercer) },
            requiredWhen: requiredWhen, rules: rules,
            remote: v.remote.map { name in
                let (line, column) = locate(path + ".remote") ?? (1, 1)
                return RemoteRuleReference(validator: name, field: field.id, path: path + ".remote", line: line, column: column)
            },
            remoteMessages: v.remote == nil ? nil : v.messages)
    }

    /// A condition of `required` or of a rule: parsed, bound, and checked for operands that can
    /// never compare as written (`ConditionTypeCheck`).
    private mutating func compileCheckedCondition(_ text: String, template: Int?, path: String, what: String) -> CompiledCondition? {
        do {
            let c = try CompiledCondition(source: text, resolve: { name in self.resolveVariable(name, template: template) })
            let fields = staticFieldList, templates = definition.templates
            let problems = ConditionTypeCheck(field: { ref in Self.definitionField(ref, fields, templates) }).check(c)
            for p in problems {
                error(path, "\(what) condition: \(p.message)", stringOffset: p.offset)
            }
            return problems.isEmpty ? c : nil
        } catch let issue {
            error(path, "\(what) condition: " + issue.message, stringOffset: issue.offset)
            return nil
        }
    }

    /// The definition's field a reference names (a template's attribute for instance references).
    func definitionField(_ ref: VariableRef) -> Field? { Self.definitionField(ref, staticFieldList, definition.templates) }

    static func definitionField(_ ref: VariableRef, _ statics: [Field], _ templates: [SectionTemplate]) -> Field? {
        switch ref {
        case .scalar(.field(let i)): return statics.indices.contains(i) ? statics[i] : nil
        case .scalar(.local(let t, let a)), .scalar(.instance(let t, _, let a)), .aggregate(let t, let a):
            guard templates.indices.contains(t) else { return nil }
            let fields = templates[t].fields
            return fields.indices.contains(a) ? fields[a] : nil
        }
    }

    /// A rule's message per locale, first match wins (SEMANTICS §9): the field's
    /// `messages[code]`, the form's `messages[locale][code]`, the rule's own `message`, the form's
    /// `messages.en[code]`, the built-in text of `rule`.
    private func ruleMessages(_ rule: ValidationRule, fieldMessages: JSONObject?) -> [MessageTemplate] {
        func text(_ v: JSONValue?, _ locale: SupportedLocale) -> String? {
            switch v {
            case .string(let s)?: return s
            case .object(let o)?: return o.members.first { SupportedLocale(rawValue: $0.key) == locale }?.value.stringValue
            default: return nil
            }
        }
        func form(_ locale: SupportedLocale) -> String? {
            definition.messages?.members.first { SupportedLocale(rawValue: $0.key) == locale }?.value.objectValue?[rule.code]?.stringValue
        }
        return SupportedLocale.allCases.map { locale in
            if let t = text(fieldMessages?[rule.code], locale) ?? form(locale) ?? rule.message?.resolved(for: locale) ?? form(.en) {
                return MessageTemplate(t)
            }
            return MessageCatalog.builtIn.template(for: .rule, locale: locale, field: nil, form: nil) ?? MessageTemplate("{label}")
        }
    }

    /// A rule or a conditional `required` that reads a field of a formula cycle would see a value
    /// that is never computed: named at the condition, with the cycle.
    private mutating func checkConditionsOutsideCycles() {
        guard !cycleNames.isEmpty else { return }
        for (c, path) in ruleConditions {
            for v in c.variables {
                let node: FormPlan.FormulaNode
                switch v {
                case .scalar(.field(let i)): node = .field(i)
                case .scalar(.local(let t, let a)), .scalar(.instance(let t, _, let a)), .aggregate(let t, let a): node = .template(t, attr: a)
                }
                if let cycle = cycleNames[node] {
                    error(path, "condition reads \"\(definitionField(v)?.id ?? "?")\", a member of the formula cycle \(cycle)")
                    break
                }
            }
        }
    }

    /// A PureForm input's patterns (matched in full, case-sensitively) and its `equal` constant.
    private mutating func compilePureForm(_ rules: PureFormRules, field: Field, coercer: ValueCoercer) -> CompiledPureFormRules {
        var patterns: [(pattern: FormatPattern, source: String, messageKey: String)] = []  // labelled as stored
        for p in rules.patterns {
            let source = p.fullName && rules.quirks.contains(.lowercaseFullName) ? PureFormRules.lowercaseFullNamePattern : p.source
            do {
                patterns.append((try PureFormRules.compileFullMatch(source), source, p.messageKey))
            } catch {
                self.error(field.path, "regex does not compile: \(error.message)")
            }
        }
        var equal: JSONValue?
        if let e = rules.equal {
            equal = coercer.coerce(e).canonical(of: e)
            if equal == nil { error(field.path, "equal: \(e.compactText) is never a value of this \(field.kind.expectedName) input") }
        }
        return CompiledPureFormRules(rules: rules, patterns: patterns, equal: equal, immediateCodes: rules.immediateCodes)
    }

    private mutating func compileMessages(_ messages: JSONObject?, path: String, field: Bool) -> MessageTable? {
        guard let messages else { return nil }
        var problems: [MessageDiagnostic] = []
        let table =
            field
            ? MessageTable.fieldOverrides(.object(messages), diagnostics: &problems)
            : MessageTable.formOverrides(.object(messages), diagnostics: &problems)
        for p in problems {
            // Codes of the form's rules are codes too (SEMANTICS §9).
            let code = field ? p.path.first : p.path.dropFirst().first
            if p.message == "unknown error code", let code, ruleCodes.contains(code) || (hasRemoteRules && ValidationRule.isValidCode(code)) {
                continue
            }
            warning(([path] + p.path).joined(separator: "."), p.message)
        }
        return table
    }

    // MARK: - Targets

    private mutating func compileTargets(_ targets: [Target], template: Int?) -> [TargetSpec] {
        var out: [TargetSpec] = []
        // Duplicates by hash (`Target.DedupKey` is equal exactly when `isDuplicate` is): a scan
        // of the kept targets per target made loading quadratic (100,000 targets took 25 s).
        var kept = Set<Target.DedupKey>()
        for target in targets {
            guard let action = target.action else { continue }
            guard kept.insert(target.dedupKey).inserted else { continue }
            var destination = TargetSpec.Destination.nothing
            let id = target.id ?? ""
            let isSection = target.kind == .section
            if isSection {
                if action == .show || action == .hide {
                    if let s = resolveSection(id, template: template) {
                        destination = .section(s)
                    } else if target.id != nil {
                        warning(target.path + ".id", "section target names no section: \"\(id)\"")
                    }
                }
            } else if target.kind == .field || !(action == .show || action == .hide) {
                if let f = resolveField(id, template: template) {
                    destination = .field(f)
                } else if target.id != nil && resolveSection(id, template: template) == nil {
                    warning(target.path + ".id", "target names no field: \"\(id)\"")
                }
            }
            var condition: CompiledCondition?
            if let text = target.condition {
                do {
                    condition = try CompiledCondition(
                        source: text, resolve: { name in self.resolveVariable(name, template: template) })
                } catch let issue {
                    error(target.path + ".condition", issue.message, stringOffset: issue.offset)
                }
            }
            out.append(
                TargetSpec(
                    target: target, action: action, destination: destination, condition: condition, idText: id,
                    typeText: target.typeName ?? "field"))
        }
        return out
    }

    func resolveSection(_ id: String, template: Int?) -> SectionRef? {
        if let s = sectionIndex[id] { return .section(s) }
        if let t = template, id == definition.templates[t].id + "[:index]" { return .localInstance(template: t) }
        // `T[n]`
        if id.hasSuffix("]"), let open = id.lastIndex(of: "["),
            let n = Int(id[id.index(after: open)..<id.index(before: id.endIndex)]), n >= 0,
            let t = templateIndex[String(id[..<open])]
        {
            return .instance(template: t, index: n)
        }
        return nil
    }

    // MARK: - Formula order and cycles

    private mutating func formulaOrder(fields: [FieldSpec], templates: [TemplateSpec]) -> [FormPlan.FormulaNode] {
        var nodes: [Node] = []
        for (i, f) in fields.enumerated() where f.formula != nil { nodes.append(.field(i)) }
        for (t, tpl) in templates.enumerated() {
            for (a, f) in tpl.fields.enumerated() where f.formula != nil { nodes.append(.template(t, attr: a)) }
        }
        func spec(_ n: Node) -> FieldSpec {
            switch n {
            case .field(let i): fields[i]
            case .template(let t, let a): templates[t].fields[a]
            }
        }
        func edges(_ n: Node) -> [Node] {
            var out: [Node] = []
            for ref in spec(n).formula?.variables ?? [] {
                let m: Node
                switch ref {
                case .scalar(.field(let i)): m = .field(i)
                case .scalar(.local(let t, let a)), .scalar(.instance(let t, _, let a)), .aggregate(let t, let a):
                    m = .template(t, attr: a)
                }
                if spec(m).formula != nil && !out.contains(m) { out.append(m) }
            }
            return out
        }
        // Depth-first post-order gives dependencies first; a grey node met again closes a cycle.
        var state: [Node: Int] = [:]  // 1 = in progress, 2 = done
        var order: [Node] = []
        var reported = Set<Node>()
        for root in nodes where state[root] == nil {
            var stack: [(Node, [Node], Int)] = [(root, edges(root), 0)]
            state[root] = 1
            while !stack.isEmpty {
                let (node, next, k) = stack[stack.count - 1]
                if k < next.count {
                    stack[stack.count - 1].2 += 1
                    let m = next[k]
                    switch state[m] {
                    case nil:
                        state[m] = 1
                        stack.append((m, edges(m), 0))
                    case 1?:
                        // Cycle: the members are on the stack from m to node.
                        let members = stack.map({ $0.0 }).drop { $0 != m }
                        if reported.isDisjoint(with: members) {
                            reported.formUnion(members)
                            reportCycle(Array(members), nodes: nodes, name: { spec($0).id }, edges: edges, path: { spec($0).path })
                        }
                    default: break
                    }
                } else {
                    state[node] = 2
                    order.append(node)
                    stack.removeLast()
                }
            }
        }
        return order
    }

    /// `formula cycle: a -> b -> a`, starting from the member that comes first in definition order.
    private mutating func reportCycle(
        _ members: [FormPlan.FormulaNode], nodes: [FormPlan.FormulaNode], name: (FormPlan.FormulaNode) -> String,
        edges: (FormPlan.FormulaNode) -> [FormPlan.FormulaNode], path: (FormPlan.FormulaNode) -> String
    ) {
        let set = Set(members)
        guard let first = nodes.first(where: { set.contains($0) }) else { return }
        // Shortest way round from `first` back to itself, inside the cycle's members.
        var previous: [FormPlan.FormulaNode: FormPlan.FormulaNode] = [:]
        var queue = [first]
        var head = 0
        var closing: FormPlan.FormulaNode?
        search: while head < queue.count {
            let n = queue[head]
            head += 1
            for m in edges(n) where set.contains(m) {
                if m == first {
                    closing = n
                    break search
                }
                if previous[m] == nil {
                    previous[m] = n
                    queue.append(m)
                }
            }
        }
        var chain = [first]
        if var n = closing {
            var back: [FormPlan.FormulaNode] = []
            while n != first {
                back.append(n)
                n = previous[n]!
            }
            chain += back.reversed()
        }
        chain.append(first)
        let text = chain.map(name).joined(separator: " -> ")
        for m in members { cycleNames[m] = text }
        error(path(first) + ".formula", "formula cycle: " + text)
    }

    // MARK: - Diagnostics

    mutating func error(_ path: String, _ message: String, stringOffset: Int? = nil) {
        add(.error, path, message, stringOffset: stringOffset)
    }

    mutating func warning(_ path: String, _ message: String) { add(.warning, path, message, stringOffset: nil) }

    private mutating func add(_ severity: Diagnostic.Severity, _ path: String, _ message: String, stringOffset: Int?) {
        var loc = locate(path)
        if let o = stringOffset, let l = locateInString(path, o) { loc = l }
        let (line, column) = loc ?? locate(parentPath(path)) ?? (1, 1)
        diagnostics.append(Diagnostic(severity, path: path, message: message, line: line, column: column))
    }

    private func parentPath(_ path: String) -> String {
        guard let i = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return "" }
        return String(path[..<i])
    }
}

/// `T[n].attr` split into the template pattern `T[:index].attr` and `n`.
struct InstanceKey {
    let pattern: String
    let index: Int

    /// Replaces the first `[digits]` with `[:index]`; `n` is parsed as a number (at most 9 digits).
    init?(_ key: String) {
        // Native strings are contiguous UTF-8: no copy of the key.
        guard let parsed = key.utf8.withContiguousStorageIfAvailable({ Self.parse($0) }) ?? Self.parse(Array(key.utf8))
        else { return nil }
        (pattern, index) = parsed
    }

    private static func parse<C: RandomAccessCollection>(_ u: C) -> (pattern: String, index: Int)?
    where C.Element == UInt8, C.Index == Int {
        var i = u.startIndex
        while i < u.endIndex {
            if u[i] == UInt8(ascii: "[") {
                var j = i + 1
                var n = 0
                while j < u.endIndex, u[j] >= 48, u[j] <= 57, j - i <= 9 {
                    n = n * 10 + Int(u[j] - 48)
                    j += 1
                }
                if j > i + 1, j < u.endIndex, u[j] == UInt8(ascii: "]") {
                    let pattern = String(decoding: u[..<i], as: UTF8.self) + "[:index]"
                        + String(decoding: u[(j + 1)...], as: UTF8.self)
                    return (pattern, n)
                }
            }
            i += 1
        }
        return nil
    }
}

extension OptionMatch {
    /// Option ids repeat when they are the same JSON value (numbers by value).
    static func sameID(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): numericEqual(x.text, y.text)
        default: a == b
        }
    }

    /// Equal for two ids exactly when `sameID` is: numbers by their parsed value.
    static func idKey(_ id: JSONValue) -> String {
        switch id {
        case .number(let n):
            guard let p = DecimalText.parse(n.text) else { return "n" + n.text }
            return (p.negative ? "n-" : "n") + String(decoding: p.digits, as: UTF8.self) + "e\(p.exponent)"
        case .string(let s): return "s" + s
        case .bool(let b): return b ? "t" : "f"
        default: return "o" + id.compactText
        }
    }
}

/// For `formulaOrder`. At file scope: Embedded Swift (WebAssembly) rejects a local typealias
/// that the function's nested functions use.
private typealias Node = FormPlan.FormulaNode
