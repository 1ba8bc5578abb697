/// One value per field spec, in contiguous arrays: static fields by index, template attributes
/// per template. The per-request passes read what they need of a field here, sequentially,
/// instead of visiting every `FieldSpec`: on forms too large for the caches each visited object
/// cost a cache miss, and time grew about twice as fast as the form.
struct SpecTable<Element: Sendable>: Sendable {
    private(set) var statics: [Element]
    private(set) var templates: [[Element]]

    init(fields: [FieldSpec], templates: [TemplateSpec], _ make: (FieldSpec) -> Element) {
        statics = fields.map(make)
        self.templates = templates.map { $0.fields.map(make) }
    }

    @inline(__always) subscript(ref: SlotMap.SpecRef) -> Element {
        get { ref.template < 0 ? statics[Int(ref.index)] : templates[Int(ref.template)][Int(ref.index)] }
        set {
            if ref.template < 0 {
                statics[Int(ref.index)] = newValue
            } else {
                templates[Int(ref.template)][Int(ref.index)] = newValue
            }
        }
    }

    @inline(__always) subscript(staticField i: Int) -> Element { statics[i] }
}

extension SlotMap.SpecRef {
    static func staticField(_ i: Int) -> Self { Self(template: -1, index: Int32(i)) }
    static func attribute(_ t: Int, _ a: Int) -> Self { Self(template: Int32(t), index: Int32(a)) }
}
