/// The locales formd ships message catalogues for (SEMANTICS §9).
public enum SupportedLocale: String, Sendable, Hashable, CaseIterable {
    case en
    case nb
    case es

    /// Dense index, for the flat message tables.
    var index: Int {
        switch self {
        case .en: 0
        case .nb: 1
        case .es: 2
        }
    }

    /// Matches a BCP 47 language tag, case-insensitively, by its primary language subtag
    /// (`nb-NO` → `nb`, `es-419` → `es`; `_` is accepted as a separator too).
    ///
    /// Norwegian without a written standard (`no`) and Nynorsk (`nn`) map to Bokmål: a Norwegian
    /// reader is better served by Bokmål than by the English fallback.
    /// Malformed tags (not `1*8ALPHA *("-" 1*8alphanum)`) match nothing.
    public init?(tag: String) {
        var tag = tag
        let found: SupportedLocale? = tag.withUTF8 { SupportedLocale.match(tagBytes: $0) }
        guard let found else { return nil }
        self = found
    }

    /// The matcher behind `init(tag:)`, on raw bytes so that header parsing allocates nothing.
    static func match(tagBytes b: UnsafeBufferPointer<UInt8>) -> SupportedLocale? {
        // Validate the shape: primary subtag of letters, then subtags of letters and digits.
        var i = 0
        var subtagLength = 0
        var primaryLength = -1
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "-") || c == UInt8(ascii: "_") {
                if subtagLength == 0 { return nil }
                if primaryLength < 0 { primaryLength = subtagLength }
                subtagLength = 0
            } else {
                let isAlpha = (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
                let isDigit = c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
                if !(isAlpha || (isDigit && primaryLength >= 0)) { return nil }
                subtagLength += 1
                if subtagLength > 8 { return nil }
            }
            i += 1
        }
        if subtagLength == 0 { return nil }
        if primaryLength < 0 { primaryLength = subtagLength }
        guard primaryLength == 2 else { return nil }
        let c0 = b[0] | 0x20, c1 = b[1] | 0x20
        switch (c0, c1) {
        case (UInt8(ascii: "e"), UInt8(ascii: "n")): return .en
        case (UInt8(ascii: "n"), UInt8(ascii: "b")),
             (UInt8(ascii: "n"), UInt8(ascii: "o")),
             (UInt8(ascii: "n"), UInt8(ascii: "n")): return .nb
        case (UInt8(ascii: "e"), UInt8(ascii: "s")): return .es
        default: return nil
        }
    }
}
