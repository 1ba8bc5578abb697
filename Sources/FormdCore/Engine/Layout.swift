/// The fields and sections of one request in output order: static ones, with each dynamic
/// section's instances right after it, by index, their fields in template order (SEMANTICS §7).
struct Layout: Sendable {
    struct SpecRef: Hashable, Sendable {
        /// -1 for fields outside templates.
        var template: Int32
        var index: Int32
    }

    /// What evaluation's per-slot loops ask of a field, copied next to the slot so that those
    /// loops read one contiguous array instead of visiting every `FieldSpec`.
    struct Flags: OptionSet, Sendable {
        let rawValue: UInt16
        static let holdsValue = Flags(rawValue: 1)
        static let hasFormula = Flags(rawValue: 2)
        static let hasOptions = Flags(rawValue: 4)
        static let hasStructuralTargets = Flags(rawValue: 8)
        static let baseHidden = Flags(rawValue: 16)
        static let baseDisabled = Flags(rawValue: 32)
        static let hasDefault = Flags(rawValue: 64)
        /// Some formula reads the field (set by `FormPlan`).
        static let formulaInput = Flags(rawValue: 128)
        /// Some structural target's condition reads the field (set by `FormPlan`).
        static let conditionInput = Flags(rawValue: 256)
    }

    /// 40 bytes. Instance numbers have at most 9 digits (`InstanceKey`), so 32 bits hold them.
    struct FieldSlot: Sendable {
        let spec: SpecRef
        private let instance32: Int32
        private let ordinal32: Int32
        private let sectionSlot32: Int32
        let flags: Flags
        let id: String

        init(spec: SpecRef, instance: Int, ordinal: Int, sectionSlot: Int, flags: Flags, id: String) {
            self.spec = spec
            self.instance32 = Int32(truncatingIfNeeded: instance)
            self.ordinal32 = Int32(truncatingIfNeeded: ordinal)
            self.sectionSlot32 = Int32(truncatingIfNeeded: sectionSlot)
            self.flags = flags
            self.id = id
        }

        /// The same field in another section slot (static fields when instances shift sections).
        func moved(toSection sectionSlot: Int) -> FieldSlot {
            FieldSlot(spec: spec, instance: instance, ordinal: ordinal, sectionSlot: sectionSlot, flags: flags, id: id)
        }

        /// The instance number `n`, or -1.
        var instance: Int { Int(instance32) }
        /// Position of the instance in `instances[template]` (its ordinal), or -1.
        var ordinal: Int { Int(ordinal32) }
        var sectionSlot: Int { Int(sectionSlot32) }
    }

    struct SectionSlot: Sendable {
        let section: Int
        let template: Int
        let instance: Int
        let id: String?
    }

    var fields: [FieldSlot] = []
    var sections: [SectionSlot] = []
    /// Static field index → slot.
    var staticSlot: [Int] = []
    /// Static section index → section slot.
    var staticSectionSlot: [Int] = []
    /// Per template: instance numbers in order.
    var instances: [[Int]] = []
    /// Per template, per ordinal: slot of the instance's first field (attr a is at base + a).
    var instanceBase: [[Int]] = []
    /// Per template, per ordinal: the instance's section slot.
    var instanceSection: [[Int]] = []

    /// The layout without instances (built once per plan).
    init(fields: [FieldSpec], sections: [SectionSpec], templates: [TemplateSpec], flags: SpecTable<Flags>) {
        self.init(fields: fields, sections: sections, templates: templates, flags: flags, instances: [], staticLayout: nil)
    }

    /// The layout of one request. Static slots are copied from `staticLayout` (contiguous) rather
    /// than rebuilt from the specs, so a request with instances does not visit every `FieldSpec`.
    init(
        fields: [FieldSpec], sections: [SectionSpec], templates: [TemplateSpec], flags: SpecTable<Flags>,
        instances: [[Int]], staticLayout: Layout?
    ) {
        self.instances = instances.isEmpty ? Array(repeating: [], count: templates.count) : instances
        staticSlot = Array(repeating: 0, count: fields.count)
        staticSectionSlot = Array(repeating: 0, count: sections.count)
        instanceBase = self.instances.map { Array(repeating: 0, count: $0.count) }
        instanceSection = instanceBase
        var instanceFields = 0
        var instanceCount = 0
        for (t, list) in self.instances.enumerated() where t < templates.count {
            instanceFields += list.count * templates[t].fields.count
            instanceCount += list.count
        }
        self.fields.reserveCapacity(fields.count + instanceFields)
        self.sections.reserveCapacity(sections.count + instanceCount)
        for (s, section) in sections.enumerated() {
            let sectionSlot = self.sections.count
            staticSectionSlot[s] = sectionSlot
            self.sections.append(SectionSlot(section: s, template: -1, instance: -1, id: section.id))
            for i in section.fields {
                staticSlot[i] = self.fields.count
                if let base = staticLayout {
                    self.fields.append(base.fields[base.staticSlot[i]].moved(toSection: sectionSlot))
                } else {
                    self.fields.append(
                        FieldSlot(
                            spec: SpecRef(template: -1, index: Int32(i)), instance: -1, ordinal: -1,
                            sectionSlot: sectionSlot, flags: flags[staticField: i], id: fields[i].id))
                }
            }
            guard let t = section.template else { continue }
            let template = templates[t]
            for (ordinal, n) in self.instances[t].enumerated() {
                let instanceSlot = self.sections.count
                instanceSection[t][ordinal] = instanceSlot
                self.sections.append(SectionSlot(section: s, template: t, instance: n, id: "\(template.id)[\(n)]"))
                instanceBase[t][ordinal] = self.fields.count
                for a in template.fields.indices {
                    self.fields.append(
                        FieldSlot(
                            spec: SpecRef(template: Int32(t), index: Int32(a)), instance: n, ordinal: ordinal,
                            sectionSlot: instanceSlot, flags: flags[.attribute(t, a)],
                            id: template.instanceFieldID(attr: a, index: n)))
                }
            }
        }
    }

    /// The ordinal of instance `n` of template `t`, if it exists.
    func ordinal(template t: Int, instance n: Int) -> Int? {
        let list = instances[t]
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < n { lo = mid + 1 } else { hi = mid }
        }
        return lo < list.count && list[lo] == n ? lo : nil
    }

    /// The slot a field reference names, seen from a slot's instance context.
    func slot(of ref: FieldRef, contextTemplate: Int, contextOrdinal: Int) -> Int? {
        switch ref {
        case .field(let i): return staticSlot[i]
        case .local(let t, let a):
            guard t == contextTemplate, contextOrdinal >= 0 else { return nil }
            return instanceBase[t][contextOrdinal] + a
        case .instance(let t, let n, let a):
            guard let o = ordinal(template: t, instance: n) else { return nil }
            return instanceBase[t][o] + a
        }
    }

    func sectionSlot(of ref: SectionRef, contextTemplate: Int, contextOrdinal: Int) -> Int? {
        switch ref {
        case .section(let s): return staticSectionSlot[s]
        case .localInstance(let t):
            guard t == contextTemplate, contextOrdinal >= 0 else { return nil }
            return instanceSection[t][contextOrdinal]
        case .instance(let t, let n):
            guard let o = ordinal(template: t, instance: n) else { return nil }
            return instanceSection[t][o]
        }
    }
}
