/// The keys a top-level object is expected to have, most likely in this order: a form's field
/// ids, for decoding its submissions (`Form.values(json:)`). A key written exactly as the
/// expected id's JSON string is taken as that id's `String`, shared, instead of a new one being
/// decoded and made: one comparison of bytes instead of a string scan and (for ids longer than
/// 15 bytes) an allocation. Any other key is decoded as usual, so the result is the same.
final class KeyHints: Sendable {
    let ids: [String]
    let quoted: QuotedKeys
    /// Per id: all ASCII (what the duplicate check wants to know of a key).
    let ascii: [Bool]

    init(ids: [String], quoted: QuotedKeys) {
        self.ids = ids
        self.quoted = quoted
        ascii = ids.map { $0.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// The id whose JSON string starts `buf` at `i` (at its opening quote), trying `expected`
    /// and the two after it (clients leave out formula fields and the like), and the index just
    /// past its closing quote; `expected` moves past the id found. Only ids after the last one
    /// matched are tried, so the ids matched in one object are distinct.
    @inline(__always) func match(_ buf: UnsafeBufferPointer<UInt8>, at i: Int, expected: inout Int) -> (id: Int, end: Int)? {
        var k = expected
        let last = min(expected + 3, ids.count)
        while k < last {
            let end: Int? = quoted.withString(k) { q in
                let n = q.count
                guard i + n <= buf.count, let b = buf.baseAddress, let qb = q.baseAddress else { return nil }
                return Self.equal(b + i, qb, n) ? i + n : nil
            }
            if let end {
                expected = k + 1
                return (k, end)
            }
            k += 1
        }
        return nil
    }

    /// Whether `n` bytes at `a` and `b` are the same, eight at a time (no libc: the engine
    /// builds for WebAssembly without it).
    @inline(__always) static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var k = 0
        while k + 8 <= n {
            if UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) {
                return false
            }
            k += 8
        }
        while k < n {
            if a[k] != b[k] { return false }
            k += 1
        }
        return true
    }
}
