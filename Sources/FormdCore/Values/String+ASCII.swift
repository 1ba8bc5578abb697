extension String {
    /// A string of `bytes`, which must be ASCII (they are not checked again): the parser's plain
    /// strings, number texts. Up to 15 bytes make a small (inline) string.
    @inline(__always)
    init(ascii bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        if n == 0 {
            self = ""
        } else if n > 15 {
            self = String(decoding: bytes, as: UTF8.self)
        } else {
            #if _pointerBitWidth(_64) && _endian(little)
            self = Self.smallASCII(bytes)
            #else
            self = String(unsafeUninitializedCapacity: n) { out in
                out.baseAddress.unsafelyUnwrapped.initialize(from: bytes.baseAddress.unsafelyUnwrapped, count: n)
                return n
            }
            #endif
        }
    }

    #if _pointerBitWidth(_64) && _endian(little)
    /// 1-15 ASCII bytes as a small string, laid out as the standard library lays one out on
    /// 64-bit platforms: the bytes in order in two words, the top byte holding the kind (small,
    /// ASCII: 0xE) and the count. `String(unsafeUninitializedCapacity:)` makes the same two
    /// words through a closure and a second validation (some 90 instructions a string).
    /// `StringASCIITests` holds the two to the same strings, for every length.
    @inline(__always)
    static func smallASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        words.1 |= (0xE0 | UInt64(bytes.count)) &<< 56
        return unsafeBitCast(words, to: String.self)
    }
    #endif
}
