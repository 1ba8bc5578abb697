/// A compiled pattern in one concrete engine. Implementations are thread-safe.
protocol FormatMatcher: AnyObject, Sendable {
    /// Unanchored, case-insensitive search; gives up when `budget` is spent, and leaves in it
    /// what the search used.
    func evaluate(_ text: String, budget: inout MatchBudget) -> FormatPattern.Outcome
}

/// Limits of one check. The engine looks at them at every progress report (ICU: every
/// "step" of 10,000 backtracking state saves, ~0.15–0.35 ms on the reference host); a search
/// that never reports is cheap by construction.
///
/// Both limits ignore time the thread spends descheduled: a wall-clock deadline let a busy
/// host turn a valid value into a `format` error (seen under the benchmark: 422s for a valid
/// submission), and a validation answer must not depend on load.
struct MatchBudget: Sendable {
    /// Steps after which the search is abandoned: deterministic. ICU engine only.
    var steps: Int32
    /// Thread CPU time after which the search is abandoned, counted from the first progress
    /// report (so a check may use one step more): the bound for patterns with costly steps.
    var cpuNanoseconds: UInt64
    /// Filled in by the engine: the steps done and the CPU time counted.
    private(set) var stepsUsed: Int32 = 0
    private(set) var cpuUsed: UInt64 = 0
    private var cpuStart: UInt64?

    init(steps: Int32, cpuNanoseconds: UInt64) {
        self.steps = steps
        self.cpuNanoseconds = cpuNanoseconds
    }

    /// A budget whose CPU time counts from `start` (`ThreadCPUClock.now()` when the check began)
    /// instead of from the first progress report.
    init(steps: Int32, cpuNanoseconds: UInt64, startedAt start: UInt64) {
        self.init(steps: steps, cpuNanoseconds: cpuNanoseconds)
        cpuStart = start
    }

    /// A progress report with the steps done so far (nil: the engine does not count steps);
    /// true when the search must stop.
    mutating func isSpent(afterSteps done: Int32?) -> Bool {
        let now = ThreadCPUClock.now()
        if let start = cpuStart { cpuUsed = now &- start } else { cpuStart = now }
        if let done { stepsUsed = Swift.max(stepsUsed, done) }
        return (done ?? 0) >= steps || cpuUsed >= cpuNanoseconds
    }
}

/// What all `format` checks of one evaluation may still use together.
public struct FormatAllowance: Sendable, Equatable {
    /// Regex engine steps (in the engine's own units, see docs/REGEX.md) the `format` checks of one evaluation may take together.
    public var steps: Int32
    /// CPU time they may take together.
    public var cpuNanoseconds: UInt64

    /// An allowance of `steps` engine steps and `cpu` time.
    public init(steps: Int32, cpu: Duration) {
        self.steps = steps
        self.cpuNanoseconds = cpu.clampedNanoseconds
    }

    /// Nothing left. (Not `init(steps: 0, cpu: .zero)`: converting a `Duration` costs some 200
    /// instructions, and every evaluation starts from this value.)
    static let none = FormatAllowance(steps: 0, cpuNanoseconds: 0)

    private init(steps: Int32, cpuNanoseconds: UInt64) {
        self.steps = steps
        self.cpuNanoseconds = cpuNanoseconds
    }
}
