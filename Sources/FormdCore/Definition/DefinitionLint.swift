/// Warnings for definitions that load but probably do not do what their author meant
/// (docs/FORMAT.md §10): a `type` that resembles a built-in kind, and show/hide targets that form
/// a loop through `hide`, which can keep the state from settling (SEMANTICS §5.3, `unstable`).
/// Unknown keys get their "did you mean" from `suggestion(for:among:)`.
struct DefinitionLint {
    typealias Locator = (String) -> (line: Int, column: Int)?

    let definition: FormDefinition
    let locate: Locator
    private(set) var diagnostics: [Diagnostic] = []

    init(definition: FormDefinition, locate: @escaping Locator) {
        self.definition = definition
        self.locate = locate
    }

    mutating func run() {
        for field in allFields {
            lintKind(field)
            lintOptionIDs(field)
        }
        lintTargetLoops()
        lintTextGrowth()
        lintRulesAndHiddenOptions()
    }

    // MARK: - Rules, warnings and the hidden-field options (SEMANTICS §5.4, §6)

    /// A rule or conditional `required` that names no field is constant (always or never); a
    /// `validate_when_hidden` / `clear_when_hidden` on a field nothing can hide does nothing.
    private mutating func lintRulesAndHiddenOptions() {
        var hideable = Set<String>()
        func collect(_ targets: [Target]) {
            for t in targets where t.action == .hide { if let id = t.id { hideable.insert(id) } }
        }
        for g in definition.groups {
            for s in g.sections {
                collect(s.targets)
                for f in s.fields { collect(f.targets); for o in f.options { collect(o.targets) } }
            }
        }
        for t in definition.templates { for f in t.fields { collect(f.targets); for o in f.options { collect(o.targets) } } }
        func constant(_ text: String) -> Bool {
            guard let c = try? Condition(parsing: text) else { return false }
            return c.variables.isEmpty && c.aggregates.isEmpty
        }
        func lint(_ v: Validations?, _ path: String) {
            guard let v else { return }
            if let r = v.requiredWhen, constant(r) {
                warn(path + ".required", "the condition names no field, so it never changes: write true or false")
            }
            for rule in v.rules where constant(rule.condition) {
                warn(rule.path + ".condition", "the rule names no field, so it always passes or always fails")
            }
        }
        func lint(_ f: Field, section: Section?, template: SectionTemplate?) {
            lint(f.validations, f.path + ".validations")
            lint(f.warnings, f.path + ".warnings")
            guard f.validateWhenHidden || f.clearWhenHidden else { return }
            var canHide = f.hidden || hideable.contains(f.id) || (section?.id.map(hideable.contains) ?? false)
            if let template {
                canHide = canHide || hideable.contains(template.id) || hideable.contains(template.id + "[:index]")
                    || !hideable.filter { $0.hasPrefix(template.id + "[") }.isEmpty
            }
            if !canHide {
                let key = f.validateWhenHidden ? "validate_when_hidden" : "clear_when_hidden"
                warn(f.path + "." + key, "nothing hides \"\(f.id)\" (no \"hidden\": true, no hide target for it or its section), so \(key) does nothing")
            }
        }
        for g in definition.groups { for s in g.sections { for f in s.fields { lint(f, section: s, template: nil) } } }
        for t in definition.templates {
            let section = definition.groups.flatMap({ $0.sections }).first { $0.isDynamic && $0.id == t.id }
            for f in t.fields { lint(f, section: section, template: t) }
        }
    }

    private var allFields: [Field] {
        definition.groups.flatMap { $0.sections.flatMap({ $0.fields }) } + definition.templates.flatMap({ $0.fields })
    }

    // MARK: - Kinds

    /// Names other form systems and JSON Schema use for formd's kinds.
    static let kindAliases: [String: String] = [
        "integer": "count", "int": "count", "long": "count", "decimal": "float", "double": "float",
        "numeric": "float", "real": "float", "string": "text", "textarea": "text", "boolean": "switch",
        "bool": "switch", "checkbox": "switch", "toggle": "switch", "dropdown": "select", "radio": "segment",
        "enum": "select", "choice": "select", "datetime": "date_time", "date-time": "date_time",
        "timestamp": "date_time", "mail": "email", "e-mail": "email", "multiselect": "multi_select",
        "multi-select": "multi_select", "multiple": "multi_select", "checkboxes": "multi_select", "multiple_select": "multi_select",
    ]
    static let kinds = [
        "text", "name", "email", "password", "number", "count", "float", "switch", "select", "segment",
        "multi_select", "date", "date_time", "time", "button", "spacer",
    ]

    private mutating func lintKind(_ field: Field) {
        guard let type = field.type, field.kind == .custom else { return }
        let lower = type.lowercased()
        var meant: String?
        if let alias = Self.kindAliases[lower] {
            meant = alias
        } else if Self.kinds.contains(lower) {
            meant = lower
        } else {
            // One edit away only: custom kinds such as the original's "counter" are deliberate.
            meant = Self.suggestion(for: type, among: Self.kinds, within: 1)
        }
        guard let meant else { return }
        let hint =
            meant == "count" || meant == "float"
            ? "use \"count\" for whole numbers or \"float\" for decimals" : "did you mean \"\(meant)\"?"
        warn(
            "\(field.path).type",
            "\"\(type)\" is not a built-in kind: the field is custom, so values are kept as sent without a type check (\"abc\" passes a min_value); \(hint)"
        )
    }

    // MARK: - Option ids

    /// Option ids that differ as JSON but match the same submitted values (`1` and `"1"`,
    /// `1` and `"01"`, `true` and `"true"`): which one a client meant depends on how it sends it.
    private mutating func lintOptionIDs(_ field: Field) {
        guard field.options.count > 1 else { return }
        // Each id's spellings under the relaxed matches; ids sharing one may collide. Linear in
        // the options (a pairwise check took minutes on 40,000), confirmed pairwise per hit.
        var first: [String: Int] = [:]
        var reported = Set<Int>()
        var numericStrings = 0
        for (j, option) in field.options.enumerated() {
            guard let b = option.id else { continue }
            // A string id that reads as a number: a JSON client that sends the number gets a
            // `type` error (a string id matches only that string). Said once per field.
            if case .string(let s) = b, numericStrings == 0, DecimalText.parse(s) != nil {
                numericStrings += 1
                warn(
                    "\(field.path).values[\(j)].id",
                    "option id \(b.jsonText) is a string that reads as a number: a client that sends \(DecimalText.canonical(literal: s)) as a JSON number gets a type error; write the id as the number \(DecimalText.canonical(literal: s)) if clients send numbers (HTML posts send \(b.jsonText) and still match)"
                )
            }
            for spelling in Self.spellings(b) {
                guard let i = first[spelling] else {
                    first[spelling] = j
                    continue
                }
                guard let a = field.options[i].id, !reported.contains(j), !OptionMatch.exactly(id: a, value: b),
                    OptionMatch.matches(id: a, value: b) || OptionMatch.matches(id: b, value: a)
                else { continue }
                reported.insert(j)
                warn(
                    "\(field.path).values[\(j)].id",
                    "option ids \(a.jsonText) and \(b.jsonText) both match the submitted value \(b.jsonText): it chooses the option written exactly so, and a client that sends the other spelling gets the other option; give the options distinct ids"
                )
            }
        }
    }

    /// The submitted texts an option id can be chosen by (numbers in canonical form).
    static func spellings(_ id: JSONValue) -> [String] {
        switch id {
        case .number(let n): return [DecimalText.canonical(literal: n.text)]
        case .string(let s):
            if DecimalText.parse(s) != nil { return [s, DecimalText.canonical(literal: s)] }
            return [s]
        case .bool(let b): return b ? ["true", "1"] : ["false", "0"]
        default: return []
        }
    }

    // MARK: - Target loops

    /// Nodes are fields and sections by id (template fields with `:index` as written). An edge
    /// runs from a source to what its show/hide targets name, and from a section to its fields,
    /// because hiding a section hides them. A strongly connected component that contains a `hide`
    /// edge can oscillate: the hidden source stops hiding, and so on.
    private mutating func lintTargetLoops() {
        var index: [String: Int] = [:]
        var names: [String] = []
        var paths: [String] = []
        func node(_ id: String, _ path: String) -> Int {
            if let i = index[id] { return i }
            index[id] = names.count
            names.append(id)
            paths.append(path)
            return names.count - 1
        }
        struct Edge { var from: Int, to: Int, hides: Bool, path: String }
        var edges: [Edge] = []
        var pending: [(from: Int, target: Target)] = []
        func add(_ field: Field) {
            let f = node("f:" + field.id, field.path)
            for t in field.targets { pending.append((f, t)) }
            for o in field.options { for t in o.targets { pending.append((f, t)) } }
        }
        for group in definition.groups {
            for section in group.sections {
                let s = section.id.map { node("s:" + $0, section.path) }
                for field in section.fields {
                    add(field)
                    if let s { edges.append(Edge(from: s, to: index["f:" + field.id]!, hides: false, path: section.path)) }
                }
            }
        }
        for template in definition.templates { for field in template.fields { add(field) } }
        for (from, t) in pending {
            guard let id = t.id, let action = t.action, action == .hide || action == .show, t.kind != .none,
                let to = index[(t.kind == .field ? "f:" : "s:") + id]
            else { continue }
            edges.append(Edge(from: from, to: to, hides: action == .hide, path: t.path))
        }
        guard edges.contains(where: { $0.hides }) else { return }

        var adjacency = [[Int]](repeating: [], count: names.count)
        for (i, e) in edges.enumerated() { adjacency[e.from].append(i) }
        let component = Self.stronglyConnectedComponents(count: names.count) { adjacency[$0].map { edges[$0].to } }
        var reported = Set<Int>()
        for e in edges where e.hides && component[e.from] == component[e.to] && !reported.contains(component[e.from]) {
            reported.insert(component[e.from])
            let loop = Self.cycle(from: e.to, to: e.from, within: component[e.from], component: component) {
                adjacency[$0].map { edges[$0].to }
            }
            let described = ([e.from] + loop).map { names[$0].dropFirst(2) }.joined(separator: " -> ")
            warn(
                e.path,
                "show/hide targets form a loop through hide (\(described)): when these fields hold values the state may never settle, and the form gets an \"unstable\" error"
            )
        }
    }

    /// Tarjan's algorithm, iterative: the component number of each node.
    static func stronglyConnectedComponents(count: Int, successors: (Int) -> [Int]) -> [Int] {
        var indexOf = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var component = [Int](repeating: -1, count: count)
        var stack: [Int] = []
        var next = 0
        var components = 0
        for root in 0..<count where indexOf[root] < 0 {
            var work: [(node: Int, children: [Int], at: Int)] = [(root, successors(root), 0)]
            indexOf[root] = next
            low[root] = next
            next += 1
            stack.append(root)
            onStack[root] = true
            while !work.isEmpty {
                let top = work.count - 1
                let v = work[top].node
                if work[top].at < work[top].children.count {
                    let w = work[top].children[work[top].at]
                    work[top].at += 1
                    if indexOf[w] < 0 {
                        indexOf[w] = next
                        low[w] = next
                        next += 1
                        stack.append(w)
                        onStack[w] = true
                        work.append((w, successors(w), 0))
                    } else if onStack[w] {
                        low[v] = min(low[v], indexOf[w])
                    }
                } else {
                    work.removeLast()
                    if let parent = work.last?.node { low[parent] = min(low[parent], low[v]) }
                    if low[v] == indexOf[v] {
                        while let w = stack.popLast() {
                            onStack[w] = false
                            component[w] = components
                            if w == v { break }
                        }
                        components += 1
                    }
                }
            }
        }
        return component
    }

    /// A shortest path `from` → … → `to` inside one component (breadth first), `from` included.
    static func cycle(from: Int, to: Int, within c: Int, component: [Int], successors: (Int) -> [Int]) -> [Int] {
        var previous: [Int: Int] = [from: from]
        var queue = [from]
        var head = 0
        while head < queue.count, previous[to] == nil {
            let v = queue[head]
            head += 1
            for w in successors(v) where component[w] == c && previous[w] == nil {
                previous[w] = v
                queue.append(w)
            }
        }
        var path = [to]
        while let last = path.last, last != from, let p = previous[last] { path.append(p) }
        return path.reversed()
    }

    // MARK: - Text growth

    /// How many copies of an input's text a text formula can hold: a template that names another
    /// template twice doubles it, so a chain of them grows exponentially (SEMANTICS §11 bounds
    /// the result; this says so before a request does).
    static let textGrowthWarning = 64

    private mutating func lintTextGrowth() {
        let fields = allFields
        var byID: [String: Field] = [:]
        for f in fields where byID[f.id] == nil { byID[f.id] = f }
        var growth: [String: Int] = [:]
        var visiting = Set<String>()
        func copies(_ id: String) -> Int {
            if let g = growth[id] { return g }
            guard let f = byID[id], let formula = f.formula, !f.kind.isNumeric, visiting.insert(id).inserted else { return 1 }
            var total = 0
            for case .word(let name, _) in TextTemplate(parsing: formula).segments where byID[name] != nil {
                total = min(total + copies(name), 1 << 40)
            }
            visiting.remove(id)
            growth[id] = max(total, 1)
            return max(total, 1)
        }
        // Report the first field of each chain that passes the threshold, not every later one.
        var reported = Set<String>()
        for f in fields where f.formula != nil && !f.kind.isNumeric {
            let n = copies(f.id)
            guard n >= Self.textGrowthWarning else { continue }
            let words = TextTemplate(parsing: f.formula!).segments.compactMap { s -> String? in
                if case .word(let name, _) = s, byID[name] != nil { return name }
                return nil
            }
            if words.contains(where: { reported.contains($0) }) {
                reported.insert(f.id)
                continue
            }
            reported.insert(f.id)
            let shown = n >= 1 << 40 ? "more than 10^12" : String(n)
            warn(
                "\(f.path).formula",
                "this text formula repeats other text formulas so that it holds \(shown) copies of an input's text (it grows exponentially along the chain); results past the server's text limit (limits.max_text_bytes) get the error text_too_long"
            )
        }
    }

    // MARK: - Suggestions

    /// The closest of `candidates` within `within` edits (ties: the first), for "did you mean".
    static func suggestion(for word: String, among candidates: some Sequence<String>, within: Int = 2) -> String? {
        let w = Array(word.lowercased().utf8)
        guard w.count <= 64 else { return nil }
        var best: (String, Int)?
        for c in candidates {
            let d = editDistance(w, Array(c.utf8), limit: within)
            if d <= within, d < (best?.1 ?? within + 1) { best = (c, d) }
        }
        return best?.0
    }

    /// Levenshtein distance with adjacent transpositions; anything above `limit` is `limit + 1`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMin = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, previous2[j - 2] + 1) }
                current[j] = d
                rowMin = min(rowMin, d)
            }
            if rowMin > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    private mutating func warn(_ path: String, _ message: String) {
        let loc = locate(path) ?? (1, 1)
        diagnostics.append(Diagnostic(.warning, path: path, message: message, line: loc.line, column: loc.column))
    }
}
