// The regex engine of WebAssembly builds (Embedded Swift): none. ICU does not exist there, and a
// second backtracking engine would answer differently from the server's. The linear matcher
// (`RegexProgram`, FormatPattern.swift) decides the patterns of the shared dialect; a pattern it
// cannot read is not guessed: its check is `.deferred`, the answer lists the field in
// `FormAnswer.deferredFormats`, and the server's answer decides (docs/WASM.md). A pattern the
// linear parser calls invalid, which ICU refuses too, is refused here at load with ICU's words
// (`RegexProgramError.serverRefusal`), as the server refuses it.
#if hasFeature(Embedded)
enum FormatEngine: Sendable, CaseIterable {
    case deferred

    static var preferred: FormatEngine { .deferred }

    /// Refuses what the linear parser calls invalid (ICU refuses it too), with ICU's words;
    /// accepts the rest: what the linear matcher cannot read is deferred to the server.
    func compile(_ pattern: String) throws(FormatPatternError) -> any FormatMatcher {
        do throws(RegexProgramError) {
            _ = try RegexProgram(pattern)
        } catch {
            if let refusal = error.serverRefusal(in: pattern) { throw refusal }
        }
        return DeferredFormatMatcher()
    }
}

/// Decides nothing: every check it is asked is left to the server.
final class DeferredFormatMatcher: FormatMatcher {
    func evaluate(_ text: String, budget: inout MatchBudget) -> FormatPattern.Outcome { .deferred }
}

/// No clock in a module that imports nothing: budgets are never spent by time (the matcher that
/// replaces the deferral must be linear in the input, so it needs none).
enum MonotonicClock {
    static func now() -> UInt64 { 0 }
}

enum ThreadCPUClock {
    static func now() -> UInt64 { 0 }
}
#endif
