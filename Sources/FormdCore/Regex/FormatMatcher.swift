import Foundation

/// A compiled pattern in one concrete engine. Implementations are thread-safe.
protocol FormatMatcher: Sendable {
    /// Unanchored, case-insensitive search; gives up when `budget` is spent.
    func evaluate(_ text: String, budget: MatchBudget) -> FormatPattern.Outcome
}

/// Limits of one check. The engine looks at them every "step" (ICU: 10,000
/// backtracking state saves, ~0.2–0.3 ms on the reference host).
struct MatchBudget: Sendable {
    /// `MonotonicClock.now()` value after which the search is abandoned: the hard bound.
    var deadline: UInt64
    /// Steps after which the search is abandoned regardless of the clock. Makes
    /// the outcome deterministic (independent of host load) when the step
    /// limit, not the clock, ends the search. ICU engine only.
    var steps: Int32

    @inline(__always)
    func isSpent(afterSteps done: Int32) -> Bool {
        done >= steps || MonotonicClock.now() >= deadline
    }
}

/// The regex engines `FormatPattern` can use.
enum FormatEngine: Sendable, CaseIterable {
    /// ICU's C API with a deadline checked from the match callback (Linux).
    case icu
    /// NSRegularExpression with `.reportProgress` (Apple platforms).
    case foundation

    static var allCases: [FormatEngine] {
        #if canImport(_FoundationICU)
        [.icu, .foundation]
        #else
        [.foundation]
        #endif
    }

    static var preferred: FormatEngine { allCases[0] }

    func compile(_ pattern: String) throws(FormatPatternError) -> any FormatMatcher {
        switch self {
        case .icu:
            #if canImport(_FoundationICU)
            return try ICUFormatMatcher(pattern)
            #else
            return try FoundationFormatMatcher(pattern)
            #endif
        case .foundation:
            return try FoundationFormatMatcher(pattern)
        }
    }
}

/// Monotonic nanoseconds, cheap enough to read from the regex engine's callback.
enum MonotonicClock {
    @inline(__always)
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
