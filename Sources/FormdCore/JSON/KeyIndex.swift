/// Duplicate-key detection for large JSON objects: an open-addressing table of member
/// positions keyed by each key's hash, which is kept so that growing the table never hashes a
/// key again (a `Set<String>` rehashed every key at each doubling, and on a 100,000-key
/// submission that was a large share of parsing). The hash is Swift's seeded `hashValue`, so
/// crafted keys cannot make the probes collide.
struct KeyIndex {
    /// Member index + 1 per bucket; 0 is empty. The count is a power of two.
    private var buckets: [Int32]
    /// Per indexed member, its key's hash.
    private var hashes: [Int] = []

    /// An index of `members` (whose keys are distinct).
    init(_ members: UnsafeBufferPointer<JSONObject.Member>) {
        var size = 64
        while size < members.count * 2 { size *= 2 }
        buckets = Array(repeating: 0, count: size)
        hashes.reserveCapacity(members.count * 2)
        for (i, m) in members.enumerated() {
            let inserted = insert(m.key, at: i, in: members)
            assert(inserted)
        }
    }

    /// Records that member `index` of `members` (being appended next) has `key`; false when an
    /// earlier member has an equal key.
    mutating func insert(_ key: String, at index: Int, in members: UnsafeBufferPointer<JSONObject.Member>) -> Bool {
        precondition(index == hashes.count, "members are indexed in order")
        if (hashes.count + 1) * 2 > buckets.count { grow() }
        let h = key.hashValue
        let mask = buckets.count - 1
        var b = h & mask
        while buckets[b] != 0 {
            let j = Int(buckets[b]) - 1
            if hashes[j] == h && members[j].key == key { return false }
            b = (b + 1) & mask
        }
        buckets[b] = Int32(index + 1)
        hashes.append(h)
        return true
    }

    private mutating func grow() {
        let size = buckets.count * 2
        let mask = size - 1
        buckets = Array(repeating: 0, count: size)
        for (j, h) in hashes.enumerated() {
            var b = h & mask
            while buckets[b] != 0 { b = (b + 1) & mask }
            buckets[b] = Int32(j + 1)
        }
    }
}
