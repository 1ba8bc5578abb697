/// Writes a response head into the encoder's scratch memory: plain copies, no per-piece array
/// bookkeeping; the head then goes into the output in one append.
struct HeadWriter {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func write(_ p: UnsafeBufferPointer<UInt8>) {
        guard let from = p.baseAddress else { return }
        if count + p.count > capacity { grow(p.count) }
        (base + count).update(from: from, count: p.count)
        count += p.count
    }

    @inline(__always)
    mutating func write(_ s: StaticString) {
        write(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func write(_ s: String) {
        var s = s
        s.withUTF8 { write($0) }
    }

    @inline(__always)
    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// A non-negative integer in decimal.
    mutating func writeDecimal(_ v: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: Int.max has 19 digits
        withUnsafeMutableBytes(of: &digits) { d in
            var n = v, k = d.count
            repeat {
                k -= 1
                d[k] = UInt8(48 + n % 10)
                n /= 10
            } while n > 0
            write(UnsafeBufferPointer(start: d.baseAddress!.assumingMemoryBound(to: UInt8.self) + k, count: d.count - k))
        }
    }

    /// Moves to a larger block (the old one is freed: the encoder keeps `base` after each head).
    private mutating func grow(_ needed: Int) {
        let newCapacity = max(capacity * 2, count + needed)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }
}
