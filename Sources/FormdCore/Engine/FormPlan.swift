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
        self.staticLayout = Layout(fields: fields, sections: sections, templates: templates)
    }

    func spec(_ ref: Layout.SpecRef) -> FieldSpec {
        ref.template < 0 ? fields[Int(ref.index)] : templates[Int(ref.template)].fields[Int(ref.index)]
    }
}
