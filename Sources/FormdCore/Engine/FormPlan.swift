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
    /// `Layout.Flags` of each static field and of each template attribute, including who reads
    /// the field (`formulaInput`, `conditionInput`), which the settle loop uses to skip passes
    /// whose inputs did not change.
    let staticFlags: [Layout.Flags]
    let templateFlags: [[Layout.Flags]]
    /// Each spec's coercer and checks, contiguous, in the same shape (see `FieldChecks`): the
    /// per-request passes read these instead of visiting every `FieldSpec`.
    let staticCoercers: [ValueCoercer]
    let templateCoercers: [[ValueCoercer]]
    let staticChecks: [FieldChecks]
    let templateChecks: [[FieldChecks]]

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
        (staticFlags, templateFlags) = Self.slotFlags(fields: fields, templates: templates)
        staticCoercers = fields.map(\.coercer)
        templateCoercers = templates.map { $0.fields.map(\.coercer) }
        staticChecks = fields.map(FieldChecks.init)
        templateChecks = templates.map { $0.fields.map(FieldChecks.init) }
        self.staticLayout = Layout(
            fields: fields, sections: sections, templates: templates, staticFlags: staticFlags,
            templateFlags: templateFlags)
    }

    /// Each field's own flags, plus `formulaInput` on every field a formula reads and
    /// `conditionInput` on every field a structural target's condition reads. A field named
    /// through any instance (`items[2].qty`, `items[:index].qty`, `items[*].qty`) marks the
    /// template attribute, so every instance of it counts: conservative, never wrong.
    private static func slotFlags(fields: [FieldSpec], templates: [TemplateSpec]) -> ([Layout.Flags], [[Layout.Flags]]) {
        var staticFlags = fields.map(\.slotFlags)
        var templateFlags = templates.map { $0.fields.map(\.slotFlags) }
        func mark(_ variables: [VariableRef], _ flag: Layout.Flags) {
            for v in variables {
                switch v {
                case .scalar(.field(let i)): staticFlags[i].insert(flag)
                case .scalar(.local(let t, let a)), .scalar(.instance(let t, _, let a)), .aggregate(let t, let a):
                    templateFlags[t][a].insert(flag)
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
        return (staticFlags, templateFlags)
    }

    func spec(_ ref: Layout.SpecRef) -> FieldSpec {
        ref.template < 0 ? fields[Int(ref.index)] : templates[Int(ref.template)].fields[Int(ref.index)]
    }

    /// `spec(ref).coercer.coerce(value)`, without visiting the spec.
    @inline(__always) func coerce(_ value: JSONValue, _ ref: Layout.SpecRef) -> Coerced {
        ref.template < 0
            ? staticCoercers[Int(ref.index)].coerce(value)
            : templateCoercers[Int(ref.template)][Int(ref.index)].coerce(value)
    }

    @inline(__always) func checks(_ ref: Layout.SpecRef) -> FieldChecks {
        ref.template < 0 ? staticChecks[Int(ref.index)] : templateChecks[Int(ref.template)][Int(ref.index)]
    }
}
