// The regex engine of WebAssembly builds (Embedded Swift): none yet. ICU does not exist there, and
// a second backtracking engine would answer differently from the server's, so a pattern
// `SimplePattern` (the engine-free fast path, FormatPattern.swift) cannot decide is not guessed:
// its check is `.deferred`, the answer lists the field in `FormAnswer.deferredFormats`, and the
// server's answer decides (docs/WASM.md). The engine's own linear matcher replaces this file.
#if hasFeature(Embedded)
enum FormatEngine: Sendable, CaseIterable {
    case deferred

    static var preferred: FormatEngine { .deferred }

    /// Accepts every pattern: the definition was (or will be) checked by the server, whose
    /// `formd check` refuses the patterns ICU refuses.
    func compile(_ pattern: String) throws(FormatPatternError) -> any FormatMatcher {
        DeferredFormatMatcher()
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
