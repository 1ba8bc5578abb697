import FormdTestSupport
import Testing
@testable import FormdCore

/// The word-at-a-time reads of an evaluation's flags against a flag-by-flag reading.
@Suite struct SlotFlagsTests {
    /// Random flags of `count` slots, and a second set that differs at `changes`.
    private func withFlags(count: Int, _ rng: inout SplitMix64, changes: [Int], _ body: (SlotFlags, SlotFlags) -> Void) {
        let a = UnsafeMutablePointer<Bool>.allocate(capacity: max(count, 1))
        let b = UnsafeMutablePointer<Bool>.allocate(capacity: max(count, 1))
        defer { a.deallocate(); b.deallocate() }
        for k in 0..<count {
            a[k] = rng.below(2) == 1
            b[k] = a[k]
        }
        for k in changes { b[k].toggle() }
        body(SlotFlags(a, count: count), SlotFlags(b, count: count))
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200])
    func firstDifferenceFindsEveryChangedFlag(count: Int) {
        var rng = SplitMix64(state: UInt64(count))
        for round in 1...6 {
            var changes: [Int] = []
            for k in 0..<count where rng.below(5) == 0 || (k == count - 1 && round == 1) { changes.append(k) }
            withFlags(count: count, &rng, changes: changes) { a, b in
                var found: [Int] = []
                var s = a.firstDifference(from: 0, b)
                while s < count {
                    found.append(s)
                    s = a.firstDifference(from: s + 1, b)
                }
                #expect(found == changes, "count \(count), round \(round)")
                #expect(a.same(as: b) == changes.isEmpty)
                #expect(a.firstDifference(from: count, b) == count)
            }
        }
    }
}
