#if !hasFeature(Embedded)
import Foundation

/// NSRegularExpression with a CPU-time bound: `.reportProgress` makes the engine call
/// the block periodically during long matches (Apple documents it; measured to
/// work on Linux too), and the block stops the search when the budget is spent.
/// Only CPU time is enforced: progress calls come more often than engine steps
/// (measured on Linux: also per advance of the search start), so they cannot
/// implement the deterministic step budget.
/// Used on platforms without `_FoundationICU` (iOS/macOS).
final class FoundationFormatMatcher: FormatMatcher, @unchecked Sendable {
    // NSRegularExpression is immutable and documented thread-safe.
    private let regex: NSRegularExpression

    init(_ pattern: String) throws(FormatPatternError) {
        do {
            regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        } catch {
            // Foundation reports no position, only that the pattern is invalid.
            throw FormatPatternError(message: "invalid regular expression", offset: nil)
        }
    }

    func evaluate(_ text: String, budget: inout MatchBudget) -> FormatPattern.Outcome {
        var limits = budget
        defer { budget = limits }
        var outcome = FormatPattern.Outcome.noMatch
        let range = NSRange(location: 0, length: text.utf16.count)
        regex.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, flags, stop in
            if result != nil {
                outcome = .match
                stop.pointee = true
            } else if flags.contains(.internalError) || limits.isSpent(afterSteps: nil) {
                outcome = .timedOut
                stop.pointee = true
            }
        }
        return outcome
    }
}
#endif
