import Foundation

/// NSRegularExpression with a deadline: `.reportProgress` makes the engine call
/// the block periodically during long matches (Apple documents it; measured to
/// work on Linux too), and the block stops the search at the deadline.
/// Only the clock is enforced: progress calls come more often than engine steps
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

    func evaluate(_ text: String, budget: MatchBudget) -> FormatPattern.Outcome {
        var outcome = FormatPattern.Outcome.noMatch
        let range = NSRange(location: 0, length: text.utf16.count)
        regex.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, flags, stop in
            if result != nil {
                outcome = .match
                stop.pointee = true
            } else if flags.contains(.internalError) || MonotonicClock.now() >= budget.deadline {
                outcome = .timedOut
                stop.pointee = true
            }
        }
        return outcome
    }
}
