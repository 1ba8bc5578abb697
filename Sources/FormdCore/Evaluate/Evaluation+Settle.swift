/// SEMANTICS §4 and §5.3 step 4: formulas and structural targets, repeated until nothing changes.
extension Evaluation {
    /// Each round recomputes the formulas, then the structural targets, until neither changes.
    /// A round skips either pass when none of its inputs changed since it last ran (what it
    /// would compute is then what it computed before), so a typical form settles with one full
    /// pass of each instead of two: on large forms the second pass cost as much as the first,
    /// since its data no longer fitted in the caches. Round counts, and so `unstable`, are
    /// exactly those of running every pass each round.
    ///
    /// A round that runs the targets writes its flags into `next*` (from the base flags: no
    /// section hidden before settling), compares them with the current ones and swaps them in.
    mutating func settle() {
        // (fields + 1) rounds, counting the definition's fields rather than the request's slots:
        // a chain of targets runs through the definition's fields (an instance's targets reach its
        // own instance and the static fields), so more instances do not need more rounds, and a
        // request with thousands of instances of mutually hiding fields cannot make the loop
        // quadratic (SEMANTICS §5.3, §11).
        let maxRounds = min(slotMap.fields.count, 2 * plan.definitionFieldCount) + 1
        var round = 0
        // Whether the formulas / targets may compute something else than last time.
        var formulasDirty = true
        var targetsDirty = true
        // The targets that fire, in source order; applied shows, then hides, then enables, then
        // disables (one list: four cost four allocations per request).
        var fired = FiredTargets()
        while true {
            round += 1
            // In the last allowed round, keep the values to name formula fields that kept changing.
            let valuesBefore = round >= maxRounds ? Array(cells) : nil
            var formulasChanged = false
            if formulasDirty {
                var targetInputChanged = false
                formulasChanged = computeFormulas(targetInputChanged: &targetInputChanged)
                if targetInputChanged { targetsDirty = true }
            }
            if targetsDirty {
                fired.removeAll()
                // By index: `for s32 in slotMap.structuralSources` held (retained) the shared array.
                for k in slotMap.structuralSources.indices {
                    let s = Int(slotMap.structuralSources[k])
                    guard isVisible(s) && hasValue(s) else { continue }
                    let ref = slotMap.fields[s].spec
                    var selected: Int32 = -1
                    // A multiple choice: every chosen option's targets are in force (SEMANTICS §5.2).
                    var chosen: [JSONValue]?
                    if slotMap.fields[s].flags.contains(.hasOptions) {
                        if cells[s].option >= 0 {
                            selected = cells[s].option  // found by coercion (`Cell.option`)
                        } else {
                            guard let v = value(s) else { continue }
                            if case .array(let items) = v {
                                chosen = items
                            } else {
                                guard let k = plan.optionIndex(for: v, ref) else { continue }
                                selected = Int32(k)
                            }
                        }
                    }
                    for e in plan.edgeRanges[ref] {
                        let edge = Int(e)
                        if let chosen {
                            let option = Int(plan.edges[edge].option)
                            guard option >= 0, chosen.contains(where: { plan.optionIndex(for: $0, ref) == option }) else { continue }
                        } else {
                            guard plan.edges[edge].option == selected else { continue }
                        }
                        if let simple = plan.edges[edge].simple {
                            guard simpleHolds(simple.comparison, simple.variable, context: s) else { continue }
                        } else if let c = plan.edges[edge].condition, !conditionHolds(c, context: s) {
                            continue
                        }
                        switch plan.edges[edge].action {
                        case .show, .hide, .enable, .disable: fired.append(Fired(edge: e, source: Int32(truncatingIfNeeded: s)))
                        case .update, .clear: break
                        }
                    }
                }
                nextHidden.load(flagMemory.baseHidden)
                nextDisabled.load(flagMemory.baseDisabled)
                nextSectionHidden.clear()
                for kind in Self.applyOrder {
                    for i in 0..<fired.count {
                        let f = fired[i]
                        guard plan.edges[Int(f.edge)].action == kind else { continue }
                        switch kind {
                        case .show: apply(f, fields: nextHidden, sections: nextSectionHidden, flag: false)
                        case .hide: apply(f, fields: nextHidden, sections: nextSectionHidden, flag: true)
                        case .enable: apply(f, fields: nextDisabled, sections: nextSectionHidden, reachesSections: false, flag: false)
                        default: apply(f, fields: nextDisabled, sections: nextSectionHidden, reachesSections: false, flag: true)
                        }
                    }
                }
                targetsDirty = false
            } else {
                nextHidden.load(hidden)
                nextDisabled.load(disabled)
                nextSectionHidden.load(sectionHidden)
            }

            let visibilityChanged = !nextHidden.same(as: hidden) || !nextSectionHidden.same(as: sectionHidden)
            let stable = !formulasChanged && !visibilityChanged && nextDisabled.same(as: disabled)
            if stable || round >= maxRounds {
                if !stable {
                    var names: [String] = []
                    for s in slotMap.outputOrder
                    where nextHidden[s] != hidden[s] || nextDisabled[s] != disabled[s] || (valuesBefore.map { $0[s].stored != cells[s].stored } ?? false)
                        || sectionHidden[slotMap.fields[s].sectionSlot]
                            != nextSectionHidden[slotMap.fields[s].sectionSlot]
                    {
                        names.append(slotMap.ids[s])
                    }
                    unstableFields = names
                }
                swapFlags()
                // Only evaluate answers list actions (API reference §5).
                guard mode == .evaluate else { return }
                // Built in a local array: appending to `self.structuralActions` while calling a
                // method on `self` copied the array on every append (quadratic on large forms).
                var recorded: [Action] = []
                var seen: Set<Action> = []
                recorded.reserveCapacity(fired.count)
                for kind in Self.applyOrder {
                    for i in 0..<fired.count where plan.edges[Int(fired[i].edge)].action == kind {
                        Self.record(action(fired[i]), into: &recorded, seen: &seen)
                    }
                }
                structuralActions = recorded
                return
            }
            // Which passes the next round must run: only visibility moves effective values here
            // (the formulas ran in dependency order, so they agree with each other).
            formulasDirty = false
            if visibilityChanged {
                func mark(_ s: Int) {
                    let flags = slotMap.fields[s].flags
                    if flags.contains(.formulaInput) { formulasDirty = true }
                    if !flags.isDisjoint(with: [.conditionInput, .hasStructuralTargets]) { targetsDirty = true }
                }
                if nextSectionHidden.same(as: sectionHidden) {
                    // Only fields' own flags moved: visit those, found eight flags at a time.
                    var s = nextHidden.firstDifference(from: 0, hidden)
                    while s < nextHidden.count && !(formulasDirty && targetsDirty) {
                        mark(s)
                        s = nextHidden.firstDifference(from: s + 1, hidden)
                    }
                } else {
                    for s in slotMap.fields.indices {
                        let section = slotMap.fields[s].sectionSlot
                        guard nextHidden[s] != hidden[s] || nextSectionHidden[section] != sectionHidden[section] else { continue }
                        mark(s)
                        if formulasDirty && targetsDirty { break }
                    }
                }
            }
            if visibilityChanged { aggregates?.invalidateAll() }
            swapFlags()
        }
    }

    /// The next round's flags become the current ones (the current ones, the next round's memory).
    private mutating func swapFlags() {
        swap(&hidden, &nextHidden)
        swap(&disabled, &nextDisabled)
        swap(&sectionHidden, &nextSectionHidden)
    }

    /// A structural target that fires: `plan.edges[edge]`, from field slot `source`.
    struct Fired {
        let edge: Int32
        let source: Int32
    }

    /// The order structural targets are applied and listed in (SEMANTICS §5.2).
    static let applyOrder: [Target.Action] = [.show, .hide, .enable, .disable]

    /// Sets the flag of the field or section `f` reaches (sections only for show and hide:
    /// `reachesSections` false for enable and disable, which do not reach them).
    private func apply(_ f: Fired, fields: SlotFlags, sections: SlotFlags, reachesSections: Bool = true, flag: Bool) {
        let slot = slotMap.fields[Int(f.source)]
        let template = Int(slot.spec.template)
        switch plan.edges[Int(f.edge)].destination {
        case .field(let ref):
            if let d = slotMap.slot(of: ref, contextTemplate: template, contextOrdinal: slot.ordinal) { fields[d] = flag }
        case .section(let ref):
            if reachesSections, let d = slotMap.sectionSlot(of: ref, contextTemplate: template, contextOrdinal: slot.ordinal) {
                sections[d] = flag
            }
        case .nothing: break
        }
    }

    /// The action of a structural target that fired; ids get `:index` substituted.
    private func action(_ f: Fired) -> Action {
        let e = Int(f.edge)
        var id = plan.edges[e].idText
        let instance = slotMap.fields[Int(f.source)].instance
        if instance >= 0 && plan.edges[e].idHasIndex { id = IndexPlaceholder.substitute(id, instance) }
        return Action(id: id, type: plan.edges[e].typeText, action: plan.edges[e].action, value: nil)
    }

    /// `{"id", "type", "action"}` (plus `"value"`) of a target; ids get `:index` substituted.
    func action(_ t: TargetSpec, from source: Int?, value: JSONValue?) -> Action {
        var id = t.idText
        if let s = source, slotMap.fields[s].instance >= 0 {
            id = IndexPlaceholder.substitute(id, slotMap.fields[s].instance)
        }
        return Action(id: id, type: t.typeText, action: t.action, value: value)
    }

    /// Appends `a` unless `list` has it. A short list is searched; from 16 actions on, `seen` holds the members of `list` (made then), so recording stays O(1): most
    /// forms record a few actions, for which a set (allocated, every action hashed) cost more
    /// than the rest of settling.
    static func record(_ a: Action, into list: inout [Action], seen: inout Set<Action>) {
        if list.count < 16 {
            if !list.contains(a) { list.append(a) }
            return
        }
        if seen.isEmpty { seen = Set(list) }
        if seen.insert(a).inserted { list.append(a) }
    }


    /// Recomputes every formula in dependency order; true when any value changed.
    /// `targetInputChanged` becomes true when a changed field is read by structural targets.
    mutating func computeFormulas(targetInputChanged: inout Bool) -> Bool {
        var changed = false
        // By index: `for node in plan.formulaOrder` held (retained) the plan's array, an atomic
        // write to memory every worker thread shares.
        for k in plan.formulaOrder.indices {
            switch plan.formulaOrder[k] {
            case .field(let i):
                changed = computeFormula(slot: slotMap.staticSlot[i], targetInputChanged: &targetInputChanged) || changed
            case .template(let t, let a):
                for base in slotMap.instanceBase[t] {
                    changed = computeFormula(slot: base + a, targetInputChanged: &targetInputChanged) || changed
                }
            }
        }
        return changed
    }

    private mutating func computeFormula(slot s: Int, targetInputChanged: inout Bool) -> Bool {
        let flags = slotMap.fields[s].flags
        guard flags.contains(.hasFormula) else { return false }
        let result = formulaValue(slot: s)
        // Formula slots never hold the submitted value (they are not coerced): `stored` is theirs.
        if result != cells[s].stored {
            cells[s].stored = result
            cells[s].option = -1
            cells[s].sentNumber = false
            let spec = slotMap.fields[s].spec
            if spec.template >= 0 { aggregates?.changed(template: spec.template, attr: spec.index) }
            if !flags.isDisjoint(with: [.conditionInput, .hasStructuralTargets]) { targetInputChanged = true }
            return true
        }
        return false
    }

    /// The value of slot `s`'s formula: its program when numeric, else its text template.
    mutating func formulaValue(slot s: Int) -> JSONValue? {
        let ref = slotMap.fields[s].spec
        let program = plan.programs[ref]
        guard program.depth > 0 else {
            let spec = plan.spec(ref)
            guard let formula = spec.formula else { return nil }
            var tooLong = false
            let value = withUnsafePointer(to: &self) { formula.evaluate(in: $0, context: s, kind: spec.kind, tooLong: &tooLong) }
            if tooLong { textTooLong.insert(s) } else if !textTooLong.isEmpty { textTooLong.remove(s) }
            return value
        }
        return withUnsafePointer(to: &self) { e in
            // Not retained (the evaluation holds it): a retain is an atomic write to memory that
            // every worker thread evaluating the form shares.
            unowned(unsafe) let plan = e.pointee.plan
            let env = EvaluationEnvironment(
                evaluation: e, refs: plan.formulaRefs, base: Int(program.refsBase), context: s, use: .formula)
            let ops = Int(program.ops.lowerBound)..<Int(program.ops.upperBound)
            return FormulaProgram.evaluate(plan.formulaOps, ops, depth: Int(program.depth), in: env)
                .flatMap { CompiledFormula.canonical($0, kind: program.kind) }
        }
    }
}
