/// A checked definition compiled for evaluation: ids resolved to indices, expressions parsed,
/// patterns compiled and formula order fixed, once at load (SEMANTICS §1, §4).
public final class FormPlan: Sendable {
    public let definition: FormDefinition
    let fields: [FieldSpec]
    let sections: [SectionSpec]
    let templates: [TemplateSpec]
    let fieldIndex: [String: Int]
    /// Static field ids by index, contiguous: `route(_:after:)` tries the next ids here before
    /// the hash table, since clients send keys in form order.
    let fieldIDs: [String]
    let sectionIndex: [String: Int]
    let templateIndex: [String: Int]
    /// Formula fields in dependency order: every formula comes after the formulas it uses.
    let formulaOrder: [FormulaNode]
    /// The form's compiled `messages` overrides.
    let formMessages: MessageTable?
    /// The output layout when no template instance exists (every request of a form without
    /// dynamic sections uses it as is).
    let staticLayout: Layout
    /// Fields holding values (formula fields included, buttons and spacers not, template fields once).
    public let valueFieldCount: Int
    /// `Layout.Flags` of each spec, including who reads the field (`formulaInput`,
    /// `conditionInput`), which the settle loop uses to skip passes whose inputs did not change.
    let flags: SpecTable<Layout.Flags>
    let coercers: SpecTable<ValueCoercer>
    let checks: SpecTable<FieldChecks>
    /// Where each spec's options start in `optionNumbers` (options in definition order).
    let optionBase: SpecTable<Int32>
    /// The numeric payload (`value`) of every option of every spec, for formulas.
    let optionNumbers: [FormNumber?]
    /// Every numeric formula as a postfix program (`FormulaProgram`), in one array, with the
    /// variables their slots read in another; `programs` says where each spec's are.
    let formulaOps: [FormulaProgram.Op]
    let formulaRefs: [VariableRef]
    let programs: SpecTable<ProgramRef>
    /// Every spec's structural targets (`StructuralEdge`), and each spec's range in it.
    let edges: [StructuralEdge]
    let edgeRanges: SpecTable<Range<Int32>>

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
        self.fieldIDs = fields.map(\.id)
        self.sectionIndex = sectionIndex
        self.templateIndex = templateIndex
        self.formulaOrder = formulaOrder
        self.valueFieldCount =
            fields.filter(\.holdsValue).count + templates.reduce(0) { $0 + $1.fields.filter(\.holdsValue).count }
        flags = Self.slotFlags(fields: fields, templates: templates)
        coercers = SpecTable(fields: fields, templates: templates) { $0.coercer }
        checks = SpecTable(fields: fields, templates: templates, FieldChecks.init)
        var numbers: [FormNumber?] = []
        optionBase = SpecTable(fields: fields, templates: templates) { spec in
            defer { numbers += spec.options.map(\.number) }
            return Int32(numbers.count)
        }
        optionNumbers = numbers
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
        formulaOps = ops
        formulaRefs = refs
        var edges: [StructuralEdge] = []
        edgeRanges = SpecTable(fields: fields, templates: templates) { spec in
            let start = Int32(edges.count)
            edges += StructuralEdge.edges(of: spec)
            return start..<Int32(edges.count)
        }
        self.edges = edges
        self.staticLayout = Layout(fields: fields, sections: sections, templates: templates, flags: flags)
    }

    /// Each field's own flags, plus `formulaInput` on every field a formula reads and
    /// `conditionInput` on every field a structural target's condition reads. A field named
    /// through any instance (`items[2].qty`, `items[:index].qty`, `items[*].qty`) marks the
    /// template attribute, so every instance of it counts: conservative, never wrong.
    private static func slotFlags(fields: [FieldSpec], templates: [TemplateSpec]) -> SpecTable<Layout.Flags> {
        var flags = SpecTable(fields: fields, templates: templates) { $0.slotFlags }
        func mark(_ variables: [VariableRef], _ flag: Layout.Flags) {
            for v in variables {
                switch v {
                case .scalar(.field(let i)): flags[.staticField(i)].insert(flag)
                case .scalar(.local(let t, let a)), .scalar(.instance(let t, _, let a)), .aggregate(let t, let a):
                    flags[.attribute(t, a)].insert(flag)
                }
            }
        }
        for spec in fields + templates.flatMap(\.fields) {
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

    func spec(_ ref: Layout.SpecRef) -> FieldSpec {
        ref.template < 0 ? fields[Int(ref.index)] : templates[Int(ref.template)].fields[Int(ref.index)]
    }

    /// `spec(ref).option(for: value)?.number`, without visiting the spec.
    @inline(__always) func optionNumber(for value: JSONValue, _ ref: Layout.SpecRef) -> FormNumber? {
        guard let k = coercers[ref].optionIndex(for: value) else { return nil }
        return optionNumbers[Int(optionBase[ref]) + k]
    }
}
