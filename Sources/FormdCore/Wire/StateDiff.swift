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
