// Unicode data for the linear matcher (`RegexProgram`): case folding and the character classes of
// ICU's regex dialect, from the Swift standard library's own tables (no Foundation, no ICU, so the
// same code runs in the WebAssembly build). Both ICU 76 and the Swift 6.3 standard library follow
// Unicode 16; the differential test (`RegexDifferentialTests`) checks the two agree.

/// Case folding and the classes `\w`, `\d`, `\s`, `\b`'s word characters and general categories.
enum RegexUnicode {
    /// Simple case folding (CaseFolding.txt's C + S mappings), computed as the lower case of the
    /// upper case when both are single scalars, else the lower case when that is one scalar, else
    /// the scalar itself. Folds differ from CaseFolding.txt's in which member of an equivalence class
    /// represents it (Cherokee folds to lower case here) but the classes are the same, and only
    /// equality of folds is ever used.
    static func simpleFold(_ c: UInt32) -> UInt32 {
        if c < 0x80 { return c >= 0x41 && c <= 0x5A ? c + 32 : c }
        // Dotted and dotless i have no simple folding outside Turkic case folding.
        if c == 0x130 || c == 0x131 { return c }
        guard let scalar = Unicode.Scalar(c) else { return c }
        let props = scalar.properties
        guard props.changesWhenCaseMapped || props.changesWhenCaseFolded else { return c }
        if let upper = single(props.uppercaseMapping), let lower = single(upper.properties.lowercaseMapping) {
            return lower.value
        }
        if let lower = single(props.lowercaseMapping) { return lower.value }
        return c
    }

    /// Full case folding (C + F): `ß` is `ss`, `ﬁ` is `fi`, `İ` is `i` + U+0307. At most three scalars.
    static func fullFold(_ c: UInt32, into out: inout [UInt32]) {
        if c < 0x80 {
            out.append(c >= 0x41 && c <= 0x5A ? c + 32 : c)
            return
        }
        if c == 0x131 { out.append(c); return }  // dotless i folds to itself (İ folds to i + U+0307)
        guard let scalar = Unicode.Scalar(c) else { out.append(c); return }
        let props = scalar.properties
        guard props.changesWhenCaseMapped || props.changesWhenCaseFolded else { out.append(c); return }
        // The lower case of each scalar of the upper case; a result that still folds further
        // (`ẞ` → `ß`, whose upper case is `SS`) is folded again.
        for u in props.uppercaseMapping.unicodeScalars {
            for l in u.properties.lowercaseMapping.unicodeScalars {
                let lp = l.properties
                if l.value >= 0x80, lp.changesWhenCaseMapped, single(lp.uppercaseMapping) == nil {
                    for u2 in lp.uppercaseMapping.unicodeScalars {
                        for l2 in u2.properties.lowercaseMapping.unicodeScalars { out.append(l2.value) }
                    }
                } else {
                    out.append(l.value)
                }
            }
        }
    }

    private static func single(_ s: String) -> Unicode.Scalar? {
        var it = s.unicodeScalars.makeIterator()
        guard let first = it.next(), it.next() == nil else { return nil }
        return first
    }

    /// Every scalar whose simple fold is not itself, with its fold (sorted by scalar): what a
    /// case-insensitive class adds to its members (`[k]` also matches U+212A KELVIN SIGN).
    static let foldedScalars: [(scalar: UInt32, fold: UInt32)] = {
        var result: [(scalar: UInt32, fold: UInt32)] = []
        // Cased scripts end below U+1F000 (Adlam, U+1E900–U+1E94B, is the last).
        var c: UInt32 = 0
        while c < 0x1F000 {
            let f = simpleFold(c)
            if f != c { result.append((c, f)) }
            c += 1
        }
        return result
    }()

    /// ICU's `\w`: `[\p{Alphabetic}\p{Mark}\p{Decimal_Number}\p{Connector_Punctuation}\u200c\u200d]`.
    static func isWord(_ c: UInt32) -> Bool {
        if c < 0x80 {
            return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
        }
        if c == 0x200C || c == 0x200D { return true }
        guard let scalar = Unicode.Scalar(c) else { return false }
        let props = scalar.properties
        if props.isAlphabetic { return true }
        switch props.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }

    /// ICU's `\d`: `\p{Nd}`.
    static func isDigit(_ c: UInt32) -> Bool {
        if c < 0x80 { return c >= 0x30 && c <= 0x39 }
        guard let scalar = Unicode.Scalar(c) else { return false }
        return scalar.properties.generalCategory == .decimalNumber
    }

    /// ICU's `\s`: `\p{White_Space}`.
    static func isSpace(_ c: UInt32) -> Bool {
        if c < 0x80 { return c == 0x20 || (c >= 0x09 && c <= 0x0D) }
        guard let scalar = Unicode.Scalar(c) else { return false }
        return scalar.properties.isWhitespace
    }

    /// Line terminators: what `.` does not match and what `$` may precede at the end.
    static func isLineTerminator(_ c: UInt32) -> Bool {
        (c >= 0x0A && c <= 0x0D) || c == 0x85 || c == 0x2028 || c == 0x2029
    }

    /// Characters `\b` looks through (ICU: Grapheme_Extend or general category Cf).
    static func isBoundaryTransparent(_ c: UInt32) -> Bool {
        if c < 0x80 { return false }
        guard let scalar = Unicode.Scalar(c) else { return false }
        let props = scalar.properties
        return props.isGraphemeExtend || props.generalCategory == .format
    }

    /// A general-category property of `\p{…}`.
    enum Category: Sendable, Equatable {
        case letter, upper, lower, title, modifierLetter, otherLetter
        case mark, number, decimalNumber, punctuation, symbol, separator

        /// The category named in `\p{name}` (short or long names of the ones above), nil otherwise.
        init?(name: [UInt32]) {
            var bytes: [UInt8] = []
            for c in name {
                guard c < 0x80 else { return nil }
                let b = UInt8(c)
                if b == 0x20 || b == 0x5F || b == 0x2D { continue }  // ICU's loose matching of names
                bytes.append(b >= 0x41 && b <= 0x5A ? b + 32 : b)
            }
            switch String(decoding: bytes, as: UTF8.self) {
            case "l", "letter": self = .letter
            case "lu", "uppercaseletter": self = .upper
            case "ll", "lowercaseletter": self = .lower
            case "lt", "titlecaseletter": self = .title
            case "lm", "modifierletter": self = .modifierLetter
            case "lo", "otherletter": self = .otherLetter
            case "m", "mark": self = .mark
            case "n", "number": self = .number
            case "nd", "decimalnumber": self = .decimalNumber
            case "p", "punctuation": self = .punctuation
            case "s", "symbol": self = .symbol
            case "z", "separator": self = .separator
            default: return nil
            }
        }

        func contains(_ c: UInt32) -> Bool {
            guard let scalar = Unicode.Scalar(c) else { return false }
            let gc = scalar.properties.generalCategory
            switch self {
            case .letter:
                switch gc {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
                default: return false
                }
            case .upper: return gc == .uppercaseLetter
            case .lower: return gc == .lowercaseLetter
            case .title: return gc == .titlecaseLetter
            case .modifierLetter: return gc == .modifierLetter
            case .otherLetter: return gc == .otherLetter
            case .mark:
                switch gc {
                case .nonspacingMark, .spacingMark, .enclosingMark: return true
                default: return false
                }
            case .number:
                switch gc {
                case .decimalNumber, .letterNumber, .otherNumber: return true
                default: return false
                }
            case .decimalNumber: return gc == .decimalNumber
            case .punctuation:
                switch gc {
                case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                     .initialPunctuation, .finalPunctuation, .otherPunctuation: return true
                default: return false
                }
            case .symbol:
                switch gc {
                case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: return true
                default: return false
                }
            case .separator:
                switch gc {
                case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
                default: return false
                }
            }
        }
    }
}
