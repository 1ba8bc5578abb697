/// SEMANTICS §5.2: `update` (with `target_value`) and `clear` targets run only for the fields
/// named in `changed`, in that order, before formulas; they do not cascade.
extension Evaluation {
    mutating func runValueTargets(_ changed: [String]) {
        for id in Self.lastOccurrences(changed) {
            var targets: [TargetSpec] = []
            var context: Int?
            switch plan.route(id) {
            case .field(let i):
                context = slotMap.staticSlot[i]
            case .instance(let t, let n, let a):
                guard let o = slotMap.ordinal(template: t, instance: n) else { continue }
                context = slotMap.instanceBase[t][o] + a
            case .unknown:
                if let s = plan.sectionIndex[id] { targets = plan.sections[s].targets }
            }
            if let s = context {
                let spec = plan.spec(slotMap.fields[s].spec)
                if spec.hasOptions {
                    guard let v = value(s) else { continue }
                    if case .array(let chosen) = v {
                        // A multiple choice runs every chosen option's targets, in definition order.
                        targets = chosen.compactMap { spec.option(for: $0) }.flatMap({ $0.targets })
                    } else {
                        guard let option = spec.option(for: v) else { continue }
                        targets = option.targets
                    }
                } else {
                    targets = spec.targets
                }
            }
            for t in targets where !t.isStructural { run(t, context: context) }
        }
    }

    /// Each id of `changed` once, where it last appears: a client that names a field twice
    /// (`[a, b, a]`) changed it last after `b`, so its targets run after `b`'s; repeating an id
    /// never repeats its targets (a list naming one field 142,800 times cost 20 s of CPU).
    static func lastOccurrences(_ changed: [String]) -> [String] {
        guard changed.count > 1 else { return changed }
        var seen = Set<String>(minimumCapacity: changed.count)
        var out: [String] = []
        for id in changed.reversed() where seen.insert(id).inserted { out.append(id) }
        if out.count == changed.count { return changed }
        out.reverse()
        return out
    }

    private mutating func run(_ t: TargetSpec, context: Int?) {
        guard case .field(let ref) = t.destination else { return }
        let contextSlot = context.map { slotMap.fields[$0] }
        guard
            let d = slotMap.slot(
                of: ref, contextTemplate: contextSlot.map { Int($0.spec.template) } ?? -1,
                contextOrdinal: contextSlot?.ordinal ?? -1)
        else { return }
        let spec = plan.spec(slotMap.fields[d].spec)
        guard spec.holdsValue else { return }
        if let c = t.condition, !conditionHolds(c, context: context ?? -1) { return }
        switch t.action {
        case .update:
            // Without target_value it only triggered formulas in the original: nothing to do.
            guard let tv = t.targetValue, spec.formula == nil else { return }
            let coerced = spec.coercer.coerce(tv)
            if let c = coerced.canonical(of: tv) {
                setValue(d, c)
                if !cleared.isEmpty { cleared[d] = false }
                Self.record(action(t, from: context, value: c), into: &actions, seen: &actionSet)
            } else if coerced == .none {
                setValue(d, nil)
                Self.record(action(t, from: context, value: .null), into: &actions, seen: &actionSet)
            } else {
                return  // a select without that option, or a value the kind cannot hold: nothing happens
            }
        case .clear:
            setValue(d, nil)
            if cleared.isEmpty { cleared = Array(filledWith: false, count: slotMap.fields.count) }
            cleared[d] = true
            Self.record(action(t, from: context, value: nil), into: &actions, seen: &actionSet)
        case .show, .hide, .enable, .disable:
            return
        }
    }
}
