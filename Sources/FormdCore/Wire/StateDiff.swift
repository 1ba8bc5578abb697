/// How one ordered list of unique ids became another (API.md §5.1), as Heckel-style diffs report
/// it: `removed` at positions of the old list, `inserted` at positions of the new one, and
/// `moved` for ids in both whose order changed. Ids kept in order are the longest increasing run
/// of their new positions, so a removal or an insertion never reports the ids after it as moved.
///
/// Applying it: remove the `removed` and the `moved` ids from the old list, highest old position
/// first; then insert the `inserted` and the `moved` ids at their new positions, lowest first.
struct ListDiff: Equatable {
    var removed: [(id: String, from: Int)] = []
    var inserted: [(id: String, at: Int)] = []
    var moved: [(id: String, from: Int, to: Int)] = []

    var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty }

    init(from old: [String], to new: [String]) {
        var newIndex: [String: Int] = [:]
        newIndex.reserveCapacity(new.count)
        for (i, id) in new.enumerated() { newIndex[id] = i }
        var oldSet = Set<String>()
        oldSet.reserveCapacity(old.count)
        // Ids in both, in old order, with their positions.
        var common: [(id: String, from: Int, to: Int)] = []
        for (i, id) in old.enumerated() {
            oldSet.insert(id)
            if let j = newIndex[id] { common.append((id, i, j)) } else { removed.append((id, i)) }
        }
        for (j, id) in new.enumerated() where !oldSet.contains(id) { inserted.append((id, j)) }
        let kept = Self.longestIncreasingRun(common.map({ $0.to }))
        for (k, c) in common.enumerated() where !kept.contains(k) { moved.append(c) }
    }

    /// Indices into `values` of one longest strictly increasing subsequence (patience sorting).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = Array(repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0
            var hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var run = Set<Int>()
        var k = tails.last ?? -1
        while k >= 0 {
            run.insert(k)
            k = previous[k]
        }
        return run
    }

    static func == (a: ListDiff, b: ListDiff) -> Bool {
        a.removed.map({ $0.id }) == b.removed.map({ $0.id }) && a.removed.map({ $0.from }) == b.removed.map({ $0.from })
            && a.inserted.map({ $0.id }) == b.inserted.map({ $0.id }) && a.inserted.map({ $0.at }) == b.inserted.map({ $0.at })
            && a.moved.map({ $0.id }) == b.moved.map({ $0.id }) && a.moved.map({ $0.from }) == b.moved.map({ $0.from })
            && a.moved.map({ $0.to }) == b.moved.map({ $0.to })
    }

    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.key("removed")
        w.beginArray()
        for r in removed {
            w.beginObject()
            w.key("id")
            w.string(r.id)
            w.key("from")
            w.number(r.from)
            w.endObject()
        }
        w.endArray()
        w.key("inserted")
        w.beginArray()
        for i in inserted {
            w.beginObject()
            w.key("id")
            w.string(i.id)
            w.key("at")
            w.number(i.at)
            w.endObject()
        }
        w.endArray()
        w.key("moved")
        w.beginArray()
        for m in moved {
            w.beginObject()
            w.key("id")
            w.string(m.id)
            w.key("from")
            w.number(m.from)
            w.key("to")
            w.number(m.to)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}

extension FormPlan {
    /// The id a snapshot's section has in answers: its own, `T[n]` for an instance, `#i` for a
    /// static section without one (keyed by its position in the definition).
    func sectionKey(_ s: StateSnapshot.Section) -> String {
        let spec = sections[s.section]
        if s.instance >= 0, let t = spec.template { return "\(templates[t].id)[\(s.instance)]" }
        return spec.id ?? "#\(s.section)"
    }

    func fieldID(_ f: StateSnapshot.Field, instance: Int) -> String {
        f.spec.template < 0
            ? fields[Int(f.spec.index)].id
            : templates[Int(f.spec.template)].instanceFieldID(attr: Int(f.spec.index), index: instance)
    }
}

extension Evaluation {
    /// `"state"` (the token of this answer, or null when it is too large to carry) and
    /// `"changes"` from `previous` to this state (API.md §5.1).
    func writeStateChanges(previous: StateSnapshot, form: String, version: String, into w: inout JSONWriter) {
        let (current, errorsByID, formErrors) = snapshot()
        w.key("state")
        if let token = current.token(form: form, version: version) { w.string(token) } else { w.null() }
        w.key("changes")
        w.beginObject()

        // The visible order: sections, then each section's fields.
        func visibleSections(_ s: StateSnapshot) -> [String] {
            s.sections.filter { $0.flags.contains(.visible) }.map { plan.sectionKey($0) }
        }
        func visibleFields(_ s: StateSnapshot) -> [String: [String]] {
            var out: [String: [String]] = [:]
            for section in s.sections {
                out[plan.sectionKey(section)] = section.fields.filter { $0.flags.contains(.visible) }
                    .map { plan.fieldID($0, instance: section.instance) }
            }
            return out
        }
        w.key("order")
        w.beginObject()
        w.key("sections")
        ListDiff(from: visibleSections(previous), to: visibleSections(current)).write(&w)
        w.key("fields")
        w.beginObject()
        let oldFields = visibleFields(previous)
        let newFields = visibleFields(current)
        var keys = current.sections.map { plan.sectionKey($0) }
        for s in previous.sections where newFields[plan.sectionKey(s)] == nil { keys.append(plan.sectionKey(s)) }
        for key in keys {
            let diff = ListDiff(from: oldFields[key] ?? [], to: newFields[key] ?? [])
            guard !diff.isEmpty else { continue }
            w.key(key)
            diff.write(&w)
        }
        w.endObject()
        w.endObject()

        // Attributes of fields and sections that are new or changed.
        var oldFieldByID: [String: StateSnapshot.Field] = [:]
        var oldSectionByID: [String: StateSnapshot.Section] = [:]
        for s in previous.sections {
            oldSectionByID[plan.sectionKey(s)] = s
            for f in s.fields { oldFieldByID[plan.fieldID(f, instance: s.instance)] = f }
        }
        var newFieldIDs = Set<String>()
        var newSectionIDs = Set<String>()
        w.key("fields")
        w.beginObject()
        // The snapshot's sections are the slotMap's, in the same order, fields and all.
        for (k, o) in slotMap.sectionOrder.enumerated() {
            let range = slotMap.sectionFields[Int(o)]
            for (j, s) in (Int(range.lowerBound)..<Int(range.upperBound)).enumerated() {
                let id = slotMap.ids[s]
                newFieldIDs.insert(id)
                let now = current.sections[k].fields[j]
                let before = oldFieldByID[id]
                let value = before == nil || before!.value != now.value || before!.flags.contains(.hasValue) != now.flags.contains(.hasValue)
                let visible = before == nil || before!.flags.contains(.visible) != now.flags.contains(.visible)
                let enabled = before == nil || before!.flags.contains(.enabled) != now.flags.contains(.enabled)
                let required = before == nil || before!.flags.contains(.required) != now.flags.contains(.required)
                let errors = before == nil || before!.errors != now.errors
                guard value || visible || enabled || required || errors else { continue }
                w.key(id)
                w.beginObject()
                if value {
                    w.key("value")
                    if let v = outputValue(s) { w.writeValue(v) } else { w.null() }
                }
                if visible {
                    w.key("visible")
                    w.bool(now.flags.contains(.visible))
                }
                if enabled {
                    w.key("enabled")
                    w.bool(now.flags.contains(.enabled))
                }
                if required {
                    w.key("required")
                    w.bool(now.flags.contains(.required))
                }
                if errors { AnswerWriter.writeErrors(errorsByID[id] ?? [], into: &w) }
                w.endObject()
            }
        }
        w.endObject()
        w.key("sections")
        w.beginObject()
        for s in current.sections {
            let id = plan.sectionKey(s)
            newSectionIDs.insert(id)
            let before = oldSectionByID[id]
            let visible = before == nil || before!.flags.contains(.visible) != s.flags.contains(.visible)
            let errors = before == nil || before!.errors != s.errors
            guard visible || errors else { continue }
            w.key(id)
            w.beginObject()
            if visible {
                w.key("visible")
                w.bool(s.flags.contains(.visible))
            }
            if errors { AnswerWriter.writeErrors(errorsByID[id] ?? [], into: &w) }
            w.endObject()
        }
        w.endObject()
        w.key("removed")
        w.beginObject()
        w.key("fields")
        w.beginArray()
        for s in previous.sections {
            for f in s.fields {
                let id = plan.fieldID(f, instance: s.instance)
                if !newFieldIDs.contains(id) { w.string(id) }
            }
        }
        w.endArray()
        w.key("sections")
        w.beginArray()
        for s in previous.sections where !newSectionIDs.contains(plan.sectionKey(s)) { w.string(plan.sectionKey(s)) }
        w.endArray()
        w.endObject()
        if previous.formErrors != current.formErrors { AnswerWriter.writeErrors(formErrors, into: &w) }
        w.endObject()
    }
}
