// The regex engines, clocks and budgets of native builds (Linux, Apple platforms).
// WebAssembly (Embedded Swift) has its own: FormatMatcher+Embedded.swift.
#if !hasFeature(Embedded)
import Foundation

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

/// Monotonic nanoseconds (wall clock).
enum MonotonicClock {
    @inline(__always)
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// CPU time of the calling thread, in nanoseconds: a system call (no vDSO), so it is read at the
/// start and end of an engine check and at its progress reports, never on the engine-free path.
enum ThreadCPUClock {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
#endif
