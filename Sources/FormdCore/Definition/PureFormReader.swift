/// Reads a PureForm definition (a top-level array of `<section>` markers and cell descriptors)
/// into a `FormDefinition`, so that everything after reading (checks, compiling, evaluation,
/// schemas, clients) is the same as for a Hyper definition (SEMANTICS §12).
///
/// Each input property (a name ending in `?`) of each cell becomes a field: its id is `<key>`, or
/// `unknown_key_N` for the N-th input without one (counted from 0 in document order, as
/// PureForm's own output map names them); its kind comes from the control the property names.
struct PureFormReader {
    typealias Locator = DefinitionReader.Locator

    private let locate: Locator
    private(set) var diagnostics: [Diagnostic] = []

    init(locate: @escaping Locator) { self.locate = locate }

    /// A document in PureForm's shape: an array with an object whose first key is in angle
    /// brackets (`<section>`, `<Cell + Identifier>`, or formd's `<formd>`). No key of a Hyper
    /// group is, so an array of groups is never read as PureForm, and a PureForm document with a
    /// malformed element is still read as one (and that element reported).
    static func recognizes(_ root: JSONValue) -> Bool {
        guard case .array(let items) = root else { return false }
        return items.contains { item in
            guard case .object(let o) = item, let key = o.members.first?.key else { return false }
            return key.hasPrefix("<") && key.hasSuffix(">")
        }
    }

    /// Validator names, each with its code(s) and PureForm's message key.
    static let validatorNames: [String: String] = [
        "equal": "PFValidationEqualFailure", "equal_next": "PFValidationEqualNextFailure",
        "equal_previous": "PFValidationEqualPreviousFailure", "equal_length": "PFValidationEqualLengthFailure",
        "min_length": "PFValidationMinLengthFailure", "max_length": "PFValidationMaxLengthFailure",
        "min_value": "PFValidationMinValueFailure", "max_value": "PFValidationMaxValueFailure",
        "required": "PFValidationRequiredFailure", "type": "PFValidationTypeFailure", "custom": "PFValidationCustomFailure",
    ]

    private struct Input {
        var field: Field
        var section: Int
        var row: Int
        var neighbour: (name: String, path: String, next: Bool)?
    }

    mutating func read(_ items: [JSONValue]) -> FormDefinition? {
        var title: String?
        var quirks: Set<PureFormRules.Quirk> = []
        var inputs: [Input] = []
        var rowsBySection: [Int: Int] = [:]
        var section = 0
        var sectionsSeen: Set<Int> = [0]
        var sectionMarkerPath: [Int: String] = [:]
        var keyless = 0
        var usedIDs: [String: String] = [:]
        var previousClass = "", previousIdentifier = ""
        var anyCell = false
        // `<formd>` first: its quirks change how inputs are read, wherever it stands.
        for (i, item) in items.enumerated() {
            guard case .object(let o) = item, let member = o.members.first, member.key == "<formd>" else { continue }
            readOptions(member.value, path: JSONDocument.memberPath(JSONDocument.elementPath("", i), "<formd>"), title: &title, quirks: &quirks)
        }
        for (i, item) in items.enumerated() {
            let p = JSONDocument.elementPath("", i)
            guard case .object(let o) = item, let member = o.members.first else {
                error(p, "a PureForm element must be an object with one key: \"<section>\" or \"<Cell + Identifier>\"")
                continue
            }
            if o.count > 1 {
                for extra in o.members.dropFirst() {
                    warning(JSONDocument.memberPath(p, extra.key), "ignored: a PureForm element has one key (PureForm dropped the others too)")
                }
            }
            let key = member.key
            let mp = JSONDocument.memberPath(p, key)
            switch key {
            case "<section>":
                guard case .number(let n) = member.value, let k = Int(n.text), k >= 0 else {
                    error(mp, "\"<section>\" must be a section number (0, 1, 2, ...)")
                    continue
                }
                // Numbered without gaps, so never past the number of elements: a larger one is a
                // gap (and must not make formd build that many sections).
                guard k < items.count else {
                    error(mp, "section \(k): sections are numbered 0, 1, 2, ... without gaps, and this document has \(items.count) elements")
                    continue
                }
                section = k
                if sectionsSeen.insert(k).inserted { sectionMarkerPath[k] = mp }
            case "<formd>":
                continue  // read above
            default:
                guard key.hasPrefix("<"), key.hasSuffix(">") else {
                    error(mp, "a cell is keyed \"<CellClass + identifier>\", not \"\(key)\"")
                    continue
                }
                anyCell = true
                let names = key.dropFirst().dropLast().filter { $0 != " " }.split(separator: "+", omittingEmptySubsequences: false)
                guard names.count == 2, !names[0].isEmpty, !names[1].isEmpty else {
                    error(mp, "a cell key is \"<CellClass + identifier>\" (either may be \"=\" for the previous cell's)")
                    continue
                }
                let cls = names[0] == "=" ? previousClass : String(names[0])
                let ident = names[1] == "=" ? previousIdentifier : String(names[1])
                if cls.isEmpty || ident.isEmpty { error(mp, "\"=\" refers to the previous cell, and there is none") }
                previousClass = cls
                previousIdentifier = ident
                guard case .object(let properties) = member.value else {
                    error(mp, "a cell's value must be an object of its properties")
                    continue
                }
                let row = rowsBySection[section, default: 0]
                rowsBySection[section] = row + 1
                let label = Self.label(properties)
                for property in properties.members where property.key.hasSuffix("?") {
                    let pp = JSONDocument.memberPath(mp, property.key)
                    guard case .object(let params) = property.value else {
                        error(pp, "an input's value must be an object of its parameters")
                        continue
                    }
                    guard var input = readInput(
                        property.key, params, path: pp, cellProperties: properties, label: label, quirks: quirks,
                        keyless: &keyless)
                    else { continue }
                    input.section = section
                    input.row = row
                    if let first = usedIDs[input.field.id] {
                        error(
                            JSONDocument.memberPath(pp, "<key>"),
                            "the key \"\(input.field.id)\" is also used at \(first) (PureForm kept the later one; formd needs each once)")
                        continue
                    }
                    usedIDs[input.field.id] = pp
                    inputs.append(input)
                }
            }
        }
        if !anyCell && inputs.isEmpty && diagnostics.isEmpty { warning("", "a PureForm definition without cells") }
        // Sections are numbered from 0 without gaps (PureForm indexed an array by them).
        let numbers = sectionsSeen.sorted()
        let count = (numbers.last ?? 0) + 1
        // The first gap, reported at the marker after it.
        if let k = numbers.indices.first(where: { numbers[$0] != $0 }) {
            error(sectionMarkerPath[numbers[k]] ?? "", "section \(k) is missing: sections are numbered 0, 1, 2, ... without gaps")
        }
        // Neighbours: the first input of the next (previous) row of the same section.
        var firstInput: [Int: [Int: String]] = [:]
        for input in inputs where firstInput[input.section]?[input.row] == nil { firstInput[input.section, default: [:]][input.row] = input.field.id }
        for k in inputs.indices {
            guard let n = inputs[k].neighbour else { continue }
            let row = inputs[k].row + (n.next ? 1 : -1)
            if let other = firstInput[inputs[k].section]?[row] {
                inputs[k].field.validations?.compareTo = other
                inputs[k].field.validations?.compareRule = .equal
            } else {
                warning(n.path, "\(n.name): there is no \(n.next ? "next" : "previous") row with an input in this section, so it never fails (as in PureForm)")
            }
        }
        // Quirks apply to every input.
        for k in inputs.indices { inputs[k].field.validations?.pureForm?.quirks = quirks }
        var sections: [Section] = []
        for k in 0..<count {
            let fields = inputs.filter { $0.section == k }.map({ $0.field })
            sections.append(
                Section(
                    id: "section-\(k)", fields: fields, isDynamic: false, actionTitle: nil, targets: [], minInstances: nil,
                    maxInstances: nil, raw: JSONObject(), path: sectionMarkerPath[k] ?? ""))
        }
        return FormDefinition(
            title: title, groups: [Group(id: nil, title: title, sections: sections, raw: JSONObject(), path: "")], templates: [],
            fieldTemplates: nil, messages: nil, isObjectShape: false)
    }

    private mutating func readOptions(
        _ value: JSONValue, path: String, title: inout String?, quirks: inout Set<PureFormRules.Quirk>
    ) {
        guard case .object(let options) = value else {
            error(path, "\"<formd>\" must be an object: {\"title\": ..., \"quirks\": [...]}")
            return
        }
        for m in options.members {
            let op = JSONDocument.memberPath(path, m.key)
            switch m.key {
            case "title":
                if let t = m.value.stringValue { title = t } else { error(op, "\"title\" must be a string") }
            case "quirks":
                guard case .array(let names) = m.value else {
                    error(op, "\"quirks\" must be an array of names")
                    continue
                }
                for (k, name) in names.enumerated() {
                    if let s = name.stringValue, let q = PureFormRules.Quirk(rawValue: s) {
                        quirks.insert(q)
                    } else {
                        error(
                            JSONDocument.elementPath(op, k),
                            "unknown quirk \(name.compactText); known: \(PureFormRules.Quirk.allCases.map({ $0.rawValue }).joined(separator: ", "))")
                    }
                }
            default:
                warning(op, "unknown key \"\(m.key)\" in \"<formd>\" (known: title, quirks)")
            }
        }
    }

    /// The cell's visible label: the `text` of its first presentational property (a
    /// `titleLabel`), else nil.
    private static func label(_ properties: JSONObject) -> String? {
        for p in properties.members where !p.key.hasSuffix("?") {
            if case .object(let params) = p.value, let t = params["text"]?.stringValue ?? params["text*"]?.stringValue { return t }
        }
        return nil
    }

    /// The kind of the control a property names (`textField?`, `aSwitch?`, `segmentedControl?`).
    static func kind(ofProperty name: String) -> String? {
        let n = name.lowercased()
        if n.containsText("textfield") || n.containsText("textview") { return "text" }
        if n.containsText("switch") { return "switch" }
        if n.containsText("segment") { return "count" }
        if n.containsText("stepper") || n.containsText("slider") { return "float" }
        return nil
    }

    private mutating func readInput(
        _ name: String, _ params: JSONObject, path pp: String, cellProperties: JSONObject, label: String?,
        quirks: Set<PureFormRules.Quirk>, keyless: inout Int
    ) -> Input? {
        guard let kind = Self.kind(ofProperty: String(name.dropLast())) else {
            error(pp, "cannot tell what \"\(name)\" holds: name the input after its control (textField?, textView?, switch?, segmentedControl?, stepper?, slider?)")
            return nil
        }
        var id: String
        if case .string(let k)? = params["<key>"], !k.isEmpty {
            id = k
        } else {
            if let k = params["<key>"], k != .null, k.stringValue == nil {
                error(JSONDocument.memberPath(pp, "<key>"), "\"<key>\" must be a string")
            }
            id = "unknown_key_\(keyless)"
            keyless += 1
        }
        if let display = params["<display>"] {
            if let d = display.stringValue, cellProperties[d] != nil {
            } else {
                warning(JSONDocument.memberPath(pp, "<display>"), "\"<display>\" names no property of this cell")
            }
        }
        var rules = PureFormRules()
        var validations = Validations()
        var neighbour: (String, String, Bool)?
        if let v = params["<validators>"] {
            let vp = JSONDocument.memberPath(pp, "<validators>")
            guard case .object(let list) = v else {
                error(vp, "\"<validators>\" must be an object of validator name to operand")
                return nil
            }
            for member in list.members {
                var name = member.key
                let p = JSONDocument.memberPath(vp, name)
                var immediate = false
                if let last = name.last, "!?*".contains(last) {
                    immediate = true
                    if last != "!" { warning(p, "read as \"\(name.dropLast())!\": \"!\" marks an immediate validator") }
                    name.removeLast()
                }
                guard let messageKey = Self.validatorNames[name] else {
                    error(p, "unknown validator \"\(name)\" (PureForm read it as \"equal\"); known: \(Self.validatorNames.keys.sorted().joined(separator: ", "))")
                    continue
                }
                func rule(_ code: ErrorCode) { rules.rules.append(.init(code: code, immediate: immediate, messageKey: messageKey)) }
                let operand = member.value
                func count() -> Int? {
                    guard case .number(let n) = operand, let c = Int(n.text), c >= 0 else {
                        error(p, "\(name) takes a whole number of 0 or more")
                        return nil
                    }
                    return c
                }
                switch name {
                case "required":
                    guard case .bool(let on) = operand else {
                        error(p, "required takes true or false")
                        continue
                    }
                    guard on || quirks.contains(.requiredIgnoresOperand) else { continue }
                    validations.required = true
                    rules.requireTrue = kind == "switch" && !quirks.contains(.falsePassesRequired)
                    rule(.required)
                case "min_length", "max_length", "equal_length":
                    guard let c = count() else { continue }
                    if name != "max_length" {
                        if validations.minLength != nil { error(p, "a second minimum length (min_length and equal_length together)") }
                        validations.minLength = c
                        rule(.minLength)
                    }
                    if name != "min_length" {
                        if validations.maxLength != nil { error(p, "a second maximum length (max_length and equal_length together)") }
                        validations.maxLength = c
                        rule(.maxLength)
                    }
                case "min_value", "max_value":
                    guard case .number(let n) = operand else {
                        error(p, "\(name) takes a number")
                        continue
                    }
                    // PureForm's text fields held strings, which it never compared.
                    if kind == "text" && quirks.contains(.stringsSkipValueBounds) { continue }
                    if name == "min_value" { validations.minValue = n } else { validations.maxValue = n }
                    rule(name == "min_value" ? .minValue : .maxValue)
                case "equal":
                    switch operand {
                    case .string, .number, .bool: rules.equal = operand
                    default:
                        error(p, "equal takes a string or a number")
                        continue
                    }
                    rule(.compare)
                case "equal_next", "equal_previous":
                    guard case .bool(let on) = operand else {
                        error(p, "\(name) takes true")
                        continue
                    }
                    guard on else { continue }
                    if neighbour != nil || rules.compareKey != nil {
                        error(p, "one of equal_next and equal_previous per input")
                        continue
                    }
                    neighbour = (name, p, name == "equal_next")
                    rules.compareKey = messageKey
                    rule(.compare)
                case "type":
                    switch operand.stringValue {
                    case "email"?: rules.patterns.append((PureFormRules.emailPattern, false, messageKey))
                    case "full_name"?: rules.patterns.append((PureFormRules.fullNamePattern, true, messageKey))
                    default:
                        error(p, "type is \"email\" or \"full_name\" (write other patterns as custom)")
                        continue
                    }
                    rule(.format)
                default:  // custom
                    guard let source = operand.stringValue, !source.isEmpty else {
                        error(p, "custom takes a regular expression")
                        continue
                    }
                    do {
                        _ = try PureFormRules.compileFullMatch(source)
                    } catch {
                        self.error(p, "regex does not compile: \(error.message)")
                        continue
                    }
                    rules.patterns.append((source, false, messageKey))
                    rule(.format)
                }
            }
        }
        let hasRules = !rules.rules.isEmpty
        if hasRules { validations.pureForm = rules }
        var field = Field(
            id: id, type: kind, inputType: nil, title: label ?? params["placeholder"]?.stringValue, hidden: false, disabled: false,
            value: params["<value>"].flatMap { $0 == .null ? nil : $0 }, options: [], validations: hasRules ? validations : nil,
            formula: nil, targets: [], raw: params, path: pp)
        // A secure text entry is a password: never echoed (SEMANTICS §8).
        if case .bool(true)? = params["secureTextEntry"] { field.secret = true }
        return Input(field: field, section: 0, row: 0, neighbour: neighbour.map { (name: $0.0, path: $0.1, next: $0.2) })
    }

    private mutating func error(_ path: String, _ message: String) { add(.error, path, message) }
    private mutating func warning(_ path: String, _ message: String) { add(.warning, path, message) }

    private mutating func add(_ severity: Diagnostic.Severity, _ path: String, _ message: String) {
        let loc = locate(path) ?? (1, 1)
        diagnostics.append(Diagnostic(severity, path: path, message: message, line: loc.line, column: loc.column))
    }
}
