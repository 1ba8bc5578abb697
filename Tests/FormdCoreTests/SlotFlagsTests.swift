import Testing
@testable import FormdCore

/// The word-at-a-time reads of an evaluation's flags against a flag-by-flag reading.
@Suite struct SlotFlagsTests {
    /// Flags of `count` slots from a seed, and a second set that differs at `changes`.
    private func withFlags(count: Int, seed: UInt64, changes: [Int], _ body: (SlotFlags, SlotFlags) -> Void) {
        let a = UnsafeMutablePointer<Bool>.allocate(capacity: max(count, 1))
        let b = UnsafeMutablePointer<Bool>.allocate(capacity: max(count, 1))
        defer { a.deallocate(); b.deallocate() }
        var state = seed
        for k in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            a[k] = state >> 63 == 1
            b[k] = a[k]
        }
        for k in changes where k < count { b[k].toggle() }
        body(SlotFlags(a, count: count), SlotFlags(b, count: count))
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200])
    func firstDifferenceFindsEveryChangedFlag(count: Int) {
        for seed: UInt64 in 1...6 {
            var changes: [Int] = []
            var state = seed &* 0x9E37_79B9_7F4A_7C15
            for k in 0..<count {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                if state % 5 == 0 || k == count - 1 && seed == 1 { changes.append(k) }
            }
            withFlags(count: count, seed: seed, changes: changes) { a, b in
                var found: [Int] = []
                var s = a.firstDifference(from: 0, b)
                while s < count {
                    found.append(s)
                    s = a.firstDifference(from: s + 1, b)
                }
                #expect(found == changes, "count \(count), seed \(seed)")
                #expect(a.same(as: b) == changes.isEmpty)
                #expect(a.firstDifference(from: count, b) == count)
            }
        }
    }
}
