/// Strings made from a form post's bytes.
enum UTF8Text {
    /// The bytes as a string, or nil when they are not UTF-8. ASCII (almost every key and value
    /// of a form post) is made with `String(decoding:)`, which is specialized and exact for it;
    /// only other text goes through `String(validating:)`, whose generic path looks up type
    /// metadata on every call.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var high: UInt8 = 0
        for b in bytes { high |= b }
        if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `bytes` are `lowercase` in any ASCII case. `lowercase` is lowercase ASCII.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let want = lowercase.utf8Start
        for i in 0..<bytes.count {
            let c = bytes[i]
            if (c >= 65 && c <= 90 ? c | 0x20 : c) != want[i] { return false }
        }
        return true
    }
}
