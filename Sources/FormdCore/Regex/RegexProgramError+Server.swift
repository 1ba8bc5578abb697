/// A pattern the linear parser calls invalid is one ICU, the server's engine, refuses too
/// (`RegexProgramTests` holds the two to it). A build without ICU (WebAssembly) refuses such a
/// definition at load with ICU's words, so the page gets the problem `formd check` prints and
/// never accepts a definition the server refuses (docs/WASM.md).
extension RegexProgramError {
    /// The refusal as ICU words it (`reason (U_REGEX_…)`, `ICUStatus.message`), or nil for a
    /// pattern that is not invalid (unsupported by the linear matcher: left to the server).
    var serverRefusal: FormatPatternError? {
        guard case .invalid(let message, let offset) = self else { return nil }
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
