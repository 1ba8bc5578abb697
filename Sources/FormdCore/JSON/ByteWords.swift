/// Bytes read eight at a time (a 64-bit word, little-endian), for the scans every request runs
/// over submitted and written strings (the parser's strings, the writer's escapes, the e-mail
/// check). Each mask sets the high bit of the bytes it finds; a mask is exact
/// at its lowest set byte and says exactly whether any byte is found (a subtraction's borrow
/// only runs upwards from a byte that is found), but not which bytes above the lowest are.
enum ByteWords {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `p`.
    @inline(__always) static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The bytes of `w` equal to `byte`.
    @inline(__always) static func equal(_ w: UInt64, _ byte: UInt8) -> UInt64 {
        let x = w ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// The bytes of `w` below `bound` (at most 0x80).
    @inline(__always) static func below(_ w: UInt64, _ bound: UInt8) -> UInt64 {
        (w &- ones &* UInt64(bound)) & ~w & highs
    }

    /// Whether `bytes` has `byte`.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Bool {
        guard let p = bytes.baseAddress else { return false }
        let n = bytes.count
        var i = 0
        while n &- i >= 8 {
            if equal(load(p + i), byte) != 0 { return true }
            i &+= 8
        }
        while i < n {
            if p[i] == byte { return true }
            i &+= 1
        }
        return false
    }
}
