/// The fields and sections of one request, as slots the per-request arrays are indexed by.
/// Output order (`outputOrder`, `sectionOrder`) is the static sections with each dynamic
/// section's instances right after it, by index, their fields in template order (SEMANTICS §7);
/// slot numbers put the static fields first (shared by every request) and instances after.
///
/// A class, immutable once built: an evaluation holds one reference (the plan's, for a request
/// without instances) instead of the 13 arrays of a struct, each retained when the evaluation
/// is made and released when it ends.
final class SlotMap: Sendable {
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
        /// A secret field: validated, never written into an answer or a state token.
        static let secret = Flags(rawValue: 512)
        /// `validate_when_hidden`: checked while hidden (SEMANTICS §5.4).
        static let validateWhenHidden = Flags(rawValue: 1024)
        /// `clear_when_hidden`: a value sent while hidden is cleared (SEMANTICS §5.4).
        static let clearWhenHidden = Flags(rawValue: 2048)
    }

    /// 24 bytes, no references (ids are in `SlotMap.ids`): every pass of an evaluation reads
    /// these. Instance numbers have at most 9 digits (`InstanceKey`), so 32 bits hold them.
    struct FieldSlot: Sendable {
        let spec: SpecRef
        private let instance32: Int32
        private let ordinal32: Int32
        private let sectionSlot32: Int32
        let flags: Flags

        init(spec: SpecRef, instance: Int, ordinal: Int, sectionSlot: Int, flags: Flags) {
            self.spec = spec
            self.instance32 = Int32(truncatingIfNeeded: instance)
            self.ordinal32 = Int32(truncatingIfNeeded: ordinal)
            self.sectionSlot32 = Int32(truncatingIfNeeded: sectionSlot)
            self.flags = flags
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

    /// Field slots: the static fields first, numbered as in the slotMap without instances and
    /// shared with it (a request with instances does not copy them), then the instances' fields.
    struct FieldSlots: Sendable {
        /// The static slots, in memory of their own.
        let statics: StaticFieldSlots
        var instances: [FieldSlot] = []
        /// `statics`' pointer and count, copied here: a read then loads them from the slot map
        /// itself, not through the object that owns the memory first (one dependent load fewer
        /// on every slot read).
        nonisolated(unsafe) private let staticBase: UnsafeMutablePointer<FieldSlot>
        private let staticCount: Int

        init(statics: StaticFieldSlots, instances: [FieldSlot] = []) {
            self.statics = statics
            self.instances = instances
            staticBase = statics.base
            staticCount = statics.count
        }

        /// Every pass of an evaluation reads slots through here (about a hundred reads a
        /// request): the static ones from a plain pointer, with the one comparison that is also
        /// the bounds check, instead of through an array (its reference, count and bounds
        /// check, about 15 instructions a read).
        @inline(__always) subscript(s: Int) -> FieldSlot {
            let n = staticCount
            if UInt(bitPattern: s) < UInt(bitPattern: n) { return staticBase[s] }
            return instances[s &- n]
        }

        var count: Int { staticCount + instances.count }
        /// Slot numbers, not output order (see `SlotMap.outputOrder`).
        var indices: Range<Int> { 0..<count }
    }

    /// The static field slots of a plan, immutable, in memory this object owns: `FieldSlots`
    /// reads them through `base` without an array's checks (it compares the slot with `count`).
    final class StaticFieldSlots: @unchecked Sendable {
        let base: UnsafeMutablePointer<FieldSlot>
        let count: Int

        init(_ slots: [FieldSlot]) {
            count = slots.count
            base = .allocate(capacity: max(1, slots.count))
            slots.withUnsafeBufferPointer { if let p = $0.baseAddress { base.initialize(from: p, count: slots.count) } }
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    let fields: FieldSlots
    /// Field ids by slot (instance ids with their number), in the same two parts as `fields`.
    let ids: FieldIDs

    struct FieldIDs: Sendable {
        let statics: [String]
        var instances: [String] = []

        @inline(__always) subscript(s: Int) -> String {
            s < statics.count ? statics[s] : instances[s - statics.count]
        }
    }
    /// Section slots: static sections first (as in the slotMap without instances), then the
    /// instances' sections.
    let sections: [SectionSlot]
    /// Per section slot: its fields' slots (static sections list their own fields, not instances').
    let sectionFields: [Range<Int32>]
    /// Section slots in output order: each dynamic section followed by its instances.
    let sectionOrder: [Int32]
    /// Static field index → slot.
    let staticSlot: [Int]
    /// Static section index → section slot.
    let staticSectionSlot: [Int]
    /// Per template: instance numbers in order.
    let instances: [[Int]]
    /// Per template, per ordinal: slot of the instance's first field (attr a is at base + a).
    let instanceBase: [[Int]]
    /// Per template, per ordinal: the instance's section slot.
    let instanceSection: [[Int]]
    /// Field slots with structural targets, in output order (the sources settle visits).
    let structuralSources: [Int32]
    /// Field slots in output order: sections in order, each with its fields (SEMANTICS §7).
    /// Listed once per map: answers walk it several times, and an iterator over the sections
    /// retained both section arrays and read them at every step.
    let outputOrder: [Int]
    /// Per field slot: hidden, and disabled, by the definition (before any target).
    /// In blocks this map owns (`UnsafeBufferPointer.ownedCopy(of:)`, freed in `deinit`): every
    /// request starts its flags from them.
    nonisolated(unsafe) let baseHidden: UnsafeBufferPointer<Bool>
    nonisolated(unsafe) let baseDisabled: UnsafeBufferPointer<Bool>
    /// Per section slot: false. What an evaluation starts from, shared by its requests.
    let noSectionHidden: [Bool]
    /// The static slots' ids as answer keys, by slot.
    let quotedStaticIDs: QuotedKeys
    /// The same ids, for decoding submissions (`Form.values(json:)`).
    let submissionKeys: KeyHints

    /// Per slot of `fields`: whether its flags have `flag`.
    private static func slots(_ fields: FieldSlots, with flag: Flags) -> [Bool] {
        var out = [Bool](filledWith: false, count: fields.count)
        for s in fields.indices where fields[s].flags.contains(flag) { out[s] = true }
        return out
    }

    /// The slots of `fields` whose flags have `.hasStructuralTargets`, in output order.
    private static func structuralSources(_ fields: FieldSlots, _ order: [Int]) -> [Int32] {
        var sources: [Int32] = []
        for s in order where fields[s].flags.contains(.hasStructuralTargets) { sources.append(Int32(s)) }
        return sources
    }

    deinit {
        baseHidden.freeOwned()
        baseDisabled.freeOwned()
    }

    /// The slotMap without instances (built once per plan).
    init(fields: [FieldSpec], sections: [SectionSpec], templates: [TemplateSpec], flags: SpecTable<Flags>) {
        var slots: [FieldSlot] = []
        var staticIDs: [String] = []
        var sectionSlots: [SectionSlot] = []
        var sectionFields: [Range<Int32>] = []
        slots.reserveCapacity(fields.count)
        staticIDs.reserveCapacity(fields.count)
        var staticSlot = Array(repeating: 0, count: fields.count)
        for (s, section) in sections.enumerated() {
            sectionSlots.append(SectionSlot(section: s, template: -1, instance: -1, id: section.id))
            let first = slots.count
            for i in section.fields {
                staticSlot[i] = slots.count
                slots.append(
                    FieldSlot(
                        spec: SpecRef(template: -1, index: Int32(i)), instance: -1, ordinal: -1, sectionSlot: s,
                        flags: flags[staticField: i]))
                staticIDs.append(fields[i].id)
            }
            sectionFields.append(Int32(first)..<Int32(slots.count))
        }
        self.fields = FieldSlots(statics: StaticFieldSlots(slots))
        ids = FieldIDs(statics: staticIDs)
        quotedStaticIDs = QuotedKeys(staticIDs)
        submissionKeys = KeyHints(ids: staticIDs, quoted: quotedStaticIDs)
        self.sections = sectionSlots
        self.sectionFields = sectionFields
        self.staticSlot = staticSlot
        staticSectionSlot = Array(sections.indices)
        sectionOrder = (0..<Int32(sections.count)).map { $0 }
        instances = Array(repeating: [], count: templates.count)
        instanceBase = instances
        instanceSection = instances
        outputOrder = Array(OutputOrder(sectionOrder: sectionOrder, sectionFields: sectionFields))
        structuralSources = Self.structuralSources(self.fields, outputOrder)
        baseHidden = .ownedCopy(of: Self.slots(self.fields, with: .baseHidden))
        baseDisabled = .ownedCopy(of: Self.slots(self.fields, with: .baseDisabled))
        noSectionHidden = [Bool](filledWith: false, count: sectionSlots.count)
    }

    /// The slotMap of one request: `base` (the plan's slotMap without instances) with the given
    /// instances (per template, instance numbers in order) added after its slots.
    init(base: SlotMap, sections: [SectionSpec], templates: [TemplateSpec], flags: SpecTable<Flags>, instances: [[Int]]) {
        var instanceBase = base.instanceBase
        var instanceSection = base.instanceSection
        var sectionSlots = base.sections
        var sectionFields = base.sectionFields
        var instanceFields: [FieldSlot] = []
        var instanceIDs: [String] = []
        var baseHidden = Array(base.baseHidden)
        var baseDisabled = Array(base.baseDisabled)
        var order: [Int32] = []
        order.reserveCapacity(base.sections.count + instances.reduce(0) { $0 + $1.count })
        for (s, section) in sections.enumerated() {
            order.append(Int32(s))
            guard let t = section.template else { continue }
            let template = templates[t]
            instanceBase[t] = []
            instanceSection[t] = []
            instanceBase[t].reserveCapacity(instances[t].count)
            instanceSection[t].reserveCapacity(instances[t].count)
            for (ordinal, n) in instances[t].enumerated() {
                let instanceSlot = sectionSlots.count
                instanceSection[t].append(instanceSlot)
                order.append(Int32(instanceSlot))
                sectionSlots.append(SectionSlot(section: s, template: t, instance: n, id: "\(template.id)[\(n)]"))
                let first = base.fields.statics.count + instanceFields.count
                instanceBase[t].append(first)
                for a in template.fields.indices {
                    let f = flags[.attribute(t, a)]
                    instanceFields.append(
                        FieldSlot(
                            spec: SpecRef(template: Int32(t), index: Int32(a)), instance: n, ordinal: ordinal,
                            sectionSlot: instanceSlot, flags: f))
                    baseHidden.append(f.contains(.baseHidden))
                    baseDisabled.append(f.contains(.baseDisabled))
                    instanceIDs.append(template.instanceFieldID(attr: a, index: n))
                }
                sectionFields.append(Int32(first)..<Int32(first + template.fields.count))
            }
        }
        fields = FieldSlots(statics: base.fields.statics, instances: instanceFields)
        ids = FieldIDs(statics: base.ids.statics, instances: instanceIDs)
        quotedStaticIDs = base.quotedStaticIDs
        submissionKeys = base.submissionKeys
        self.instances = instances
        self.instanceBase = instanceBase
        self.instanceSection = instanceSection
        self.sections = sectionSlots
        self.sectionFields = sectionFields
        sectionOrder = order
        staticSlot = base.staticSlot
        staticSectionSlot = base.staticSectionSlot
        outputOrder = Array(OutputOrder(sectionOrder: order, sectionFields: sectionFields))
        structuralSources = Self.structuralSources(fields, outputOrder)
        self.baseHidden = .ownedCopy(of: baseHidden)
        self.baseDisabled = .ownedCopy(of: baseDisabled)
        noSectionHidden = [Bool](filledWith: false, count: sectionSlots.count)
    }

    /// The sections in output order, each with its fields' slots: what `outputOrder` lists.
    struct OutputOrder: Sequence {
        let sectionOrder: [Int32]
        let sectionFields: [Range<Int32>]

        struct Iterator: IteratorProtocol {
            let order: OutputOrder
            var section = 0
            var cursor: Int32 = 0
            var end: Int32 = 0

            mutating func next() -> Int? {
                while cursor == end {
                    guard section < order.sectionOrder.count else { return nil }
                    let r = order.sectionFields[Int(order.sectionOrder[section])]
                    section += 1
                    cursor = r.lowerBound
                    end = r.upperBound
                }
                defer { cursor += 1 }
                return Int(cursor)
            }
        }

        func makeIterator() -> Iterator { Iterator(order: self) }
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
