import Foundation

/// A compiled pattern in one concrete engine. Implementations are thread-safe.
protocol FormatMatcher: Sendable {
    /// Unanchored, case-insensitive search; gives up at `deadline`
    /// (a `MonotonicClock.now()` value).
    func evaluate(_ text: String, deadline: UInt64) -> FormatPattern.Outcome
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
