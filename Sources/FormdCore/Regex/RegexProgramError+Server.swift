/// A pattern the linear parser calls invalid is one ICU, the server's engine, refuses too
/// (`RegexProgramTests` holds the two to it). A build without ICU (WebAssembly) refuses such a
/// definition at load with ICU's words, so the page gets the problem `formd check` prints and
/// never accepts a definition the server refuses (docs/WASM.md).
extension RegexProgramError {
    /// The refusal of `pattern` as ICU words and places it (`reason (U_REGEX_…)`,
    /// `ICUStatus.message`; the offset of the character ICU was reading, so the problem's
    /// LINE:COL is the server's), or nil for a pattern that is not invalid (unsupported by the
    /// linear matcher: left to the server).
    func serverRefusal(in pattern: String) -> FormatPatternError? {
        guard case .invalid(let message, let linearOffset) = self else { return nil }
        let scalars = Array(pattern.unicodeScalars)
        let last = Swift.max(scalars.count - 1, 0)
        let at: UInt32? = linearOffset < scalars.count ? scalars[linearOffset].value : nil
        var offset = Swift.min(linearOffset, last)  // ICU reads the last character when the pattern ends too soon
        switch message {
        case "unbalanced parenthesis" where at == 0x28:
            offset = last  // a group never closed: ICU finds out at the end
        case "in {min,max}, max is less than min" where at == 0x7D:
            offset = Swift.min(linearOffset + 1, last)  // ICU has read past the `}`
        case "invalid Unicode property":
            offset = last  // `\p{` never closed
        default:
            break
        }
        let icu: String
        switch message {
        case "unbalanced parenthesis": icu = "unbalanced parenthesis (U_REGEX_MISMATCHED_PAREN)"
        case "nothing to repeat", "unexpected }": icu = "syntax error (e.g. nothing to repeat) (U_REGEX_RULE_SYNTAX)"
        case "invalid {min,max} repetition": icu = "invalid {min,max} repetition (U_REGEX_BAD_INTERVAL)"
        case "in {min,max}, max is less than min": icu = "in {min,max}, max is less than min (U_REGEX_MAX_LT_MIN)"
        case "trailing backslash": icu = "unrecognized backslash escape (U_REGEX_BAD_ESCAPE_SEQUENCE)"
        case "invalid Unicode property": icu = "invalid Unicode property (U_REGEX_PROPERTY_SYNTAX)"
        case "missing closing bracket": icu = "missing closing bracket (U_REGEX_MISSING_CLOSE_BRACKET)"
        case "invalid character range": icu = "invalid character range (U_REGEX_INVALID_RANGE)"
        default: icu = message
        }
        return FormatPatternError(message: icu, offset: offset)
    }
}
