/// Strong entity tags: two independent 64-bit FNV-1a hashes of the bytes, as 32 hex digits.
package enum ETag {
    package static func strong(of bytes: [UInt8]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x84222325_cbf29ce4
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b &+ UInt64(byte)) &* 0x9E37_79B9_7F4A_7C15
            b ^= b >> 29
        }
        return "\"" + hex(a) + hex(b ^ UInt64(bytes.count)) + "\""
    }

    private static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
