/// A checked definition compiled for evaluation: ids resolved to indices, expressions parsed,
/// patterns compiled and formula order fixed, once at load (SEMANTICS §1, §4).
package final class FormPlan: Sendable {
    package let definition: FormDefinition
    let fields: [FieldSpec]
    let sections: [SectionSpec]
    let templates: [TemplateSpec]
    /// Static fields plus one instance of each template's fields.
    var definitionFieldCount: Int { staticSlotMap.fields.count + templates.reduce(0) { $0 + $1.fields.count } }
    let fieldIndex: [String: Int]
    /// Static field ids by index, contiguous: `route(_:after:)` tries the next ids here before
    /// the hash table, since clients send keys in form order.
    let fieldIDs: [String]
    let sectionIndex: [String: Int]
    /// Whether some static field id has the shape of an instance key (`x[3].y`). Usually not:
    /// then a key of that shape is looked up among the templates only.
    let staticIDsLookLikeInstances: Bool
    /// Per static section: whether it is dynamic (read per request without copying the
    /// `SectionSpec`, whose copy retained every reference it holds).
    let sectionIsDynamic: [Bool]
    let templateIndex: [String: Int]
    /// Dynamic sections with an id, which a submission may send as rows (`{"items": [...]}`,
    /// `NestedRows`): empty for forms without repeating sections, which then pay nothing.
    let rowSections: [NestedRows.Section]
    /// Bit n set: some row section id is n UTF-8 bytes long (bit 63: 63 or more), so that most
    /// keys are told apart from every section id by their length alone.
    let rowSectionLengths: UInt64
    /// Formula fields in dependency order: every formula comes after the formulas it uses.
    let formulaOrder: [FormulaNode]
    /// The form's compiled `messages` overrides.
    let formMessages: MessageTable?
    /// The slotMap without template instances: every request of a form without dynamic sections
    /// uses it as is, and requests with instances share its slots and add theirs after them.
    let staticSlotMap: SlotMap
    /// The static slots a submitted value is always dropped from, or compared with a computed
    /// one: fields without input (`holdsValue` unset) and formula fields. A request that sent
    /// none of them, with nothing hidden, drops nothing (`Evaluation.dropsNothing`). In a block
    /// the plan owns.
    nonisolated(unsafe) let valuelessStaticSlots: UnsafeBufferPointer<Int32>
    /// Fields holding values (formula fields included, buttons and spacers not, template fields once).
    package let valueFieldCount: Int
    /// `SlotMap.Flags` of each spec, including who reads the field (`formulaInput`,
    /// `conditionInput`), which the settle loop uses to skip passes whose inputs did not change.
    let flags: SpecTable<SlotMap.Flags>
    let coercers: SpecTable<CoercionRule>
    let checks: SpecTable<FieldChecks>
    let valueLimits: [ValueLimits]
    let compares: SpecTable<CompareCheck?>
    /// Each field's `format` pattern, unretained: the spec that owns it lives as long as the
    /// plan. Read with `_withUnsafeGuaranteedRef`, a check touches no reference count; binding
    /// the spec, its rules and the pattern retained three objects every worker thread shares.
    let formats: SpecTable<Unmanaged<FormatPattern>?>
    /// Every option of every spec in definition order, in one array: ids (for coercion and
    /// the settle loop) and numeric payloads (`value`, for formulas); `optionRanges` says
    /// where each spec's are. `coercers` hold no option ids of their own.
    let optionIDs: [JSONValue?]
    let optionNumbers: [FormNumber?]
    let optionRanges: SpecTable<Range<Int32>>
    /// Each option id's text, for matching a string read in place (`sentOption`): where it is in
    /// `optionText` and its length when it is an ASCII string; -1 when it is no string, -2 when it
    /// is one beyond ASCII (canonical equivalence is no longer equality of bytes there).
    nonisolated(unsafe) let optionText: UnsafeBufferPointer<UInt8>
    nonisolated(unsafe) let optionSpans: UnsafeBufferPointer<(start: Int32, count: Int32)>
    /// Every numeric formula as a postfix program (`FormulaProgram`), in one array, with the
    /// variables their slots read in another; `programs` says where each spec's are.
    /// Both in blocks the plan owns (`UnsafeBufferPointer.ownedCopy(of:)`, freed in `deinit`).
    nonisolated(unsafe) let formulaOps: UnsafeBufferPointer<FormulaProgram.Op>
    nonisolated(unsafe) let formulaRefs: UnsafeBufferPointer<VariableRef>
    let programs: SpecTable<ProgramRef>
    /// Every spec's structural targets (`StructuralEdge`), and each spec's range in it.
    let edges: [StructuralEdge]
    /// Some structural target names a section: only then can a section be hidden in a request.
    let targetsSections: Bool
    let edgeRanges: SpecTable<Range<Int32>>
    /// Some field is a `multi_select`: answers then carry `labels` (API.md §4).
    let hasMultipleChoice: Bool
    /// Some field has a `warnings` block: answers then carry `warnings` (SEMANTICS §6.1).
    let hasWarnings: Bool
    /// Some field has `clear_when_hidden` (SEMANTICS §5.4).
    let hasClearWhenHidden: Bool
    /// Every `"remote"` rule, in definition order (SEMANTICS §6.2).
    let remoteRules: [RemoteRuleReference]

    /// Where a spec's numeric formula program is: `ops` in `formulaOps`, its variables from
    /// `refsBase` in `formulaRefs`. `depth` 0: no program (no formula, or a text template).
    struct ProgramRef: Sendable {
        let ops: Range<Int32>
        let refsBase: Int32
        let depth: Int32
        let kind: FieldKind
    }

    enum FormulaNode: Hashable, Sendable {
        case field(Int)
        case template(Int, attr: Int)
    }

    init(
        definition: FormDefinition, fields: [FieldSpec], sections: [SectionSpec], templates: [TemplateSpec],
        fieldIndex: [String: Int], sectionIndex: [String: Int], templateIndex: [String: Int],
        formulaOrder: [FormulaNode], formMessages: MessageTable?
    ) {
        self.formMessages = formMessages
        self.definition = definition
        self.fields = fields
        self.sections = sections
        self.templates = templates
        self.fieldIndex = fieldIndex
        self.fieldIDs = fields.map({ $0.id })
        self.sectionIndex = sectionIndex
        self.staticIDsLookLikeInstances = fields.contains { InstanceKey($0.id) != nil }
        self.sectionIsDynamic = sections.map { $0.template != nil }
        self.templateIndex = templateIndex
        var rowSections: [NestedRows.Section] = []
        for (t, tpl) in templates.enumerated() {
            guard let s = tpl.section, let id = sections[s].id else { continue }
            rowSections.append(NestedRows.Section(id: id, template: t, idLength: id.utf8.count))
        }
        self.rowSections = rowSections
        rowSectionLengths = rowSections.reduce(0) { $0 | (1 << UInt64(min($1.idLength, 63))) }
        self.formulaOrder = formulaOrder
        self.valueFieldCount =
            fields.filter({ $0.holdsValue }).count + templates.reduce(0) { $0 + $1.fields.filter({ $0.holdsValue }).count }
        flags = Self.slotFlags(fields: fields, templates: templates)
        coercers = SpecTable(fields: fields, templates: templates) { $0.coercer.rule }
        var limits: [ValueLimits] = []
        checks = SpecTable(fields: fields, templates: templates) { spec in
            guard let l = ValueLimits(spec) else { return FieldChecks(spec, limits: -1) }
            limits.append(l)
            return FieldChecks(spec, limits: Int32(limits.count - 1))
        }
        valueLimits = limits
        compares = SpecTable(fields: fields, templates: templates, CompareCheck.init)
        formats = SpecTable(fields: fields, templates: templates) { spec in spec.validations?.format.map { Unmanaged.passUnretained($0) } }
        var ids: [JSONValue?] = []
        var numbers: [FormNumber?] = []
        optionRanges = SpecTable(fields: fields, templates: templates) { spec in
            let start = Int32(ids.count)
            ids += spec.coercer.optionIDs
            numbers += spec.options.map({ $0.number })
            return start..<Int32(ids.count)
        }
        optionIDs = ids
        optionNumbers = numbers
        var text: [UInt8] = []
        var spans: [(start: Int32, count: Int32)] = []
        for id in ids {
            guard case .string(let s)? = id else {
                spans.append((-1, 0))
                continue
            }
            guard s.utf8.allSatisfy({ $0 < 0x80 }) else {
                spans.append((-2, 0))
                continue
            }
            spans.append((Int32(text.count), Int32(s.utf8.count)))
            text += s.utf8
        }
        optionText = .ownedCopy(of: text)
        optionSpans = .ownedCopy(of: spans)
        var ops: [FormulaProgram.Op] = []
        var refs: [VariableRef] = []
        programs = SpecTable(fields: fields, templates: templates) { spec in
            guard let f = spec.formula, case .numeric(let formula) = f.body else {
                return ProgramRef(ops: 0..<0, refsBase: 0, depth: 0, kind: spec.kind)
            }
            let start = Int32(ops.count)
            let base = Int32(refs.count)
            refs += f.variables
            let depth = FormulaProgram.compile(formula, into: &ops)
            return ProgramRef(ops: start..<Int32(ops.count), refsBase: base, depth: Int32(max(depth, 1)), kind: spec.kind)
        }
        formulaOps = .ownedCopy(of: ops)
        formulaRefs = .ownedCopy(of: refs)
        var edges: [StructuralEdge] = []
        edgeRanges = SpecTable(fields: fields, templates: templates) { spec in
            let start = Int32(edges.count)
            edges += StructuralEdge.edges(of: spec)
            return start..<Int32(edges.count)
        }
        self.edges = edges
        targetsSections = edges.contains {
            if case .section = $0.destination { return true }
            return false
        }
        hasMultipleChoice = (fields + templates.flatMap({ $0.fields })).contains { $0.kind == .multiSelect }
        // A remote rule may answer `remote_unchecked`, a warning (SEMANTICS §6.2).
        hasWarnings = (fields + templates.flatMap({ $0.fields })).contains { $0.warnings != nil || $0.validations?.remote != nil }
        remoteRules = (fields + templates.flatMap({ $0.fields })).compactMap { $0.validations?.remote }
        hasClearWhenHidden = (fields + templates.flatMap({ $0.fields })).contains { $0.clearWhenHidden }
        let slotMap = SlotMap(fields: fields, sections: sections, templates: templates, flags: flags)
        staticSlotMap = slotMap
        valuelessStaticSlots = .ownedCopy(
            of: slotMap.fields.indices.compactMap { s in
                let f = slotMap.fields[s].flags
                return !f.contains(.holdsValue) || f.contains(.hasFormula) ? Int32(s) : nil
            })
    }

    /// Each field's own flags, plus `formulaInput` on every field a formula reads and
    /// `conditionInput` on every field a structural target's condition reads. A field named
    /// through any instance (`items[2].qty`, `items[:index].qty`, `items[*].qty`) marks the
    /// template attribute, so every instance of it counts: conservative, never wrong.
    private static func slotFlags(fields: [FieldSpec], templates: [TemplateSpec]) -> SpecTable<SlotMap.Flags> {
        var flags = SpecTable(fields: fields, templates: templates) { $0.slotFlags }
        func mark(_ variables: [VariableRef], _ flag: SlotMap.Flags) {
            for v in variables {
                switch v {
                case .scalar(.field(let i)): flags[.staticField(i)].insert(flag)
                case .scalar(.local(let t, let a)), .scalar(.instance(let t, _, let a)), .aggregate(let t, let a):
                    flags[.attribute(t, a)].insert(flag)
                }
            }
        }
        for spec in fields + templates.flatMap({ $0.fields }) {
            if let f = spec.formula { mark(f.variables, .formulaInput) }
            for t in spec.targets where t.isStructural {
                if let c = t.condition { mark(c.variables, .conditionInput) }
            }
            for o in spec.options {
                for t in o.targets where t.isStructural {
                    if let c = t.condition { mark(c.variables, .conditionInput) }
                }
            }
        }
        return flags
    }

    deinit {
        formulaOps.freeOwned()
        optionText.freeOwned()
        optionSpans.freeOwned()
        formulaRefs.freeOwned()
        valuelessStaticSlots.freeOwned()
    }

    func spec(_ ref: SlotMap.SpecRef) -> FieldSpec {
        ref.template < 0 ? fields[Int(ref.index)] : templates[Int(ref.template)].fields[Int(ref.index)]
    }

    /// `spec(ref).coercer.coerce(value)`, without visiting the spec.
    /// Only the kinds with options get a slice of `optionIDs`: making one retained the form's
    /// array, a write to memory every worker thread shares.
    @inline(__always) func coerce(_ value: JSONValue, _ ref: SlotMap.SpecRef) -> Coerced {
        let rule = coercers[ref]
        guard rule.kind.hasOptions else { return rule.coerce(value, options: ArraySlice()) }
        let r = optionRanges[ref]
        return rule.coerce(value, options: optionIDs[Int(r.lowerBound)..<Int(r.upperBound)])
    }

    /// `coerce(.string(s), ref)` for a string sent without escapes, from `utf8`, its bytes in the
    /// body, where that is quick (`CoercionRule.coerceSent`; a select's or segment's option by its
    /// id's bytes, `sentOption`, its index among the spec's options into `option`); nil where
    /// the string is needed.
    @inline(__always)
    func coerceSent(utf8: UnsafeBufferPointer<UInt8>, _ ref: SlotMap.SpecRef, option: inout Int32) -> Coerced? {
        let rule = coercers[ref]
        guard rule.kind == .select || rule.kind == .segment else { return rule.coerceSent(utf8: utf8) }
        if utf8.isEmpty { return Coerced.none }
        guard let k = sentOption(utf8, ref, rule) else { return nil }
        let index = Int32(truncatingIfNeeded: k - Int(optionRanges[ref].lowerBound))
        // A string id sent as itself is its own canonical value: kept as sent, not copied.
        if case .string? = optionIDs[k] {
            option = index
            return .asSent
        }
        guard let id = optionIDs[k] else { return nil }
        option = index
        return .value(id)
    }

    /// `coerce(value, ref)` for a number, `true` or `false` sent as `utf8`, its text in the body,
    /// where the bytes decide it (`CoercionRule.coerceSentScalar`); nil where the value is needed.
    @inline(__always) func coerceSentScalar(utf8: UnsafeBufferPointer<UInt8>, _ ref: SlotMap.SpecRef) -> Coerced? {
        coercers[ref].coerceSentScalar(utf8: utf8)
    }

    /// For `coerce(.string(s))` of a select or segment given `s` as bytes read in place: the
    /// position in `optionIDs` of the first option whose id is that string
    /// (`ValueCoercer.matchOption`'s first rule), found by its bytes. Nil when it is not that simple (no such option before an id beyond ASCII, which
    /// could equal the string canonically with other bytes; a value that may be blank or that
    /// the formatter changes): the caller coerces the value.
    private func sentOption(_ utf8: UnsafeBufferPointer<UInt8>, _ ref: SlotMap.SpecRef, _ rule: CoercionRule) -> Int? {
        guard rule.readsAsWritten(utf8), let base = utf8.baseAddress else { return nil }
        let r = optionRanges[ref]
        for i in Int(r.lowerBound)..<Int(r.upperBound) {
            let span = optionSpans[i]
            if span.start == -2 { return nil }
            guard span.start >= 0, Int(span.count) == utf8.count else { continue }
            if KeyHints.equal(base, optionText.baseAddress.unsafelyUnwrapped + Int(span.start), utf8.count) { return i }
        }
        return nil
    }

    /// The position of the option `value` chose among the spec's options.
    @inline(__always) func optionIndex(for value: JSONValue, _ ref: SlotMap.SpecRef) -> Int? {
        let r = optionRanges[ref]
        return optionPosition(of: value, Int(r.lowerBound)..<Int(r.upperBound)).map { $0 - Int(r.lowerBound) }
    }

    /// The number of the spec's option at `index` (`Evaluation.Cell.option`).
    @inline(__always) func optionNumber(at index: Int, _ ref: SlotMap.SpecRef) -> FormNumber? {
        optionNumbers[Int(optionRanges[ref].lowerBound) + index]
    }

    /// `spec(ref).option(for: value)?.number`, without visiting the spec.
    @inline(__always) func optionNumber(for value: JSONValue, _ ref: SlotMap.SpecRef) -> FormNumber? {
        let r = optionRanges[ref]
        guard let k = optionPosition(of: value, Int(r.lowerBound)..<Int(r.upperBound)) else { return nil }
        return optionNumbers[k]
    }

    /// `ValueCoercer.optionIndex(for:in:)` over `optionIDs[range]`, read in place: a slice
    /// retained the form's array, a write to memory every worker thread shares.
    private func optionPosition(of value: JSONValue, _ range: Range<Int>) -> Int? {
        for i in range where optionIDs[i] == value { return i }
        for i in range {
            if let id = optionIDs[i], OptionMatch.sameID(id, value) { return i }
        }
        return nil
    }
}
