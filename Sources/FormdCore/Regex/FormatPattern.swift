/// A compiled `validations.format` pattern: an ICU regular expression matched
/// case-insensitively and unanchored (the value is valid when the pattern
/// matches anywhere in it), with a bounded cost per check (docs/REGEX.md).
///
/// Compile once at load time; `evaluate` / `matches` are safe to call
/// concurrently from any number of threads.
package final class FormatPattern: Sendable {
    /// Result of one check.
    package enum Outcome: Sendable, Hashable {
        case match
        case noMatch
        /// The engine gave up (step or CPU budget exhausted, backtracking stack or
        /// memory limit hit). For validation this counts as *not matching*:
        /// the value fails `format`. Reported separately so callers can count it.
        case timedOut
        /// This build has no engine for the pattern (WebAssembly, when `SimplePattern` cannot
        /// decide): neither a match nor a failure. Validation reports no error for it and lists
        /// the field in `FormAnswer.deferredFormats`; the server's answer decides. Never native.
        case deferred
    }

    /// CPU budget for one check. Deliberately below the 5 ms the spec allows: it is counted
    /// from the engine's first progress report (one step, 0.15–0.35 ms, later), and text
    /// conversion/pool checkout happen outside it.
    package static let defaultTimeBudget: Duration = .microseconds(3500)

    /// Engine steps (10,000 backtracking state saves each) allowed per check;
    /// 12 steps took 1.6–4.1 ms in the ReDoS table on the reference host, so the step limit
    /// normally ends a runaway search before the clock does, deterministically.
    static let defaultStepBudget: Int32 = 12

    /// The pattern exactly as written in the form definition.
    package let source: String
    /// CPU-time budget of one check (time the thread is descheduled does not count).
    package let timeBudget: Duration

    /// The linear matcher (`RegexProgram`): every pattern of the shared dialect, on any text.
    private let linear: RegexProgram?
    /// ICU (NSRegularExpression on Apple platforms), for server-only patterns; nil otherwise.
    private let matcher: (any FormatMatcher)?
    /// The engine-free bit-mask path for simple patterns on short ASCII text (`SimplePattern`).
    private let simple: SimplePattern?
    private let budgetNanoseconds: UInt64
    private let stepBudget: Int32
    /// Why the pattern is matched by ICU and not by the linear matcher (a back-reference,
    /// look-around, ...): such a pattern is **server-only**, the WebAssembly engine defers its
    /// `format` to the server. nil for patterns of the shared, linear dialect.
    package let serverOnlyReason: String?

    /// Compiles `pattern` with the platform's preferred engine. An empty
    /// pattern is an error, as it is for NSRegularExpression on iOS.
    package convenience init(
        _ pattern: String,
        timeBudget: Duration = FormatPattern.defaultTimeBudget
    ) throws(FormatPatternError) {
        try self.init(pattern, timeBudget: timeBudget, stepBudget: Self.defaultStepBudget, engine: .preferred)
    }

    /// Engine choice is internal so tests can exercise the fallback on Linux; `fastPath: false`
    /// matches with the engine only (no linear matcher, no bit masks), for the tests that compare.
    init(
        _ pattern: String,
        timeBudget: Duration = FormatPattern.defaultTimeBudget,
        stepBudget: Int32 = FormatPattern.defaultStepBudget,
        engine: FormatEngine,
        fastPath: Bool = true
    ) throws(FormatPatternError) {
        // ICU and NSRegularExpression both reject "", but with an unhelpful reason.
        guard !pattern.isEmpty else { throw FormatPatternError(message: "empty pattern", offset: 0) }
        self.source = pattern
        self.timeBudget = timeBudget
        self.budgetNanoseconds = timeBudget.clampedNanoseconds
        self.stepBudget = stepBudget
        // The engine compiles every pattern first: its errors (and offsets) are the ones reported.
        let engineMatcher = try engine.compile(pattern)
        guard fastPath else {
            self.linear = nil
            self.matcher = engineMatcher
            self.simple = nil
            self.serverOnlyReason = "engine only"
            return
        }
        var program: RegexProgram?
        var reason: String?
        do throws(RegexProgramError) {
            program = try RegexProgram(pattern)
        } catch {
            switch error {
            case .tooLarge(let message, let offset):
                throw FormatPatternError(message: message, offset: offset)
            case .unsupported(let message, _):
                reason = message
            case .invalid(let message, _):
                // The engine accepts what the linear parser refuses: left to the engine (the
                // differential test keeps this from happening on the shared dialect).
                reason = "not read by the linear matcher: " + message
            }
        }
        self.linear = program
        self.matcher = program == nil ? engineMatcher : nil
        self.serverOnlyReason = reason
        self.simple = program == nil ? nil : SimplePattern(pattern)
    }

    /// True when the linear matcher decides this pattern (no budget, no time-out, same answer in
    /// every runtime).
    package var isLinear: Bool { linear != nil }

    /// Checks `text`. Linear patterns always answer; server-only ones give up (`.timedOut`)
    /// after a fixed amount of backtracking work or `timeBudget` of CPU, whichever comes first.
    package func evaluate(_ text: String) -> Outcome {
        if let simple, let found = simple.matches(text) { return found ? .match : .noMatch }
        if let linear { return linear.matches(text) ? .match : .noMatch }
        guard let matcher else { return .timedOut }
        var budget = MatchBudget(steps: stepBudget, cpuNanoseconds: budgetNanoseconds)
        return matcher.evaluate(text, budget: &budget)
    }

    /// The same within what is left of `allowance` (a request's budget shared by all its
    /// checks, so one submission cannot buy more than a bounded total), and draws on it.
    ///
    /// Only server-only (ICU) checks draw on it: the linear matcher's cost is bounded by the
    /// text's length times the program's size. Every engine check is charged its measured CPU
    /// time, from its start: the engine reports progress only every 10,000 backtracking saves, so
    /// charging what the reports saw let thousands of checks just under that run free (4,000 of
    /// 120 characters cost 840 ms of CPU in one request). Once the allowance is spent, the
    /// remaining engine checks fail at once.
    package func evaluate(_ text: String, drawingFrom allowance: inout FormatAllowance) -> Outcome {
        // Engine-free and linear by construction: draws nothing.
        if let simple, let found = simple.matches(text) { return found ? .match : .noMatch }
        if let linear { return linear.matches(text) ? .match : .noMatch }
        guard let matcher else { return .timedOut }
        let steps = Swift.min(stepBudget, allowance.steps)
        let cpu = Swift.min(budgetNanoseconds, allowance.cpuNanoseconds)
        guard steps > 0, cpu > 0 else { return .timedOut }
        let start = ThreadCPUClock.now()
        var budget = MatchBudget(steps: steps, cpuNanoseconds: cpu, startedAt: start)
        let outcome = matcher.evaluate(text, budget: &budget)
        let spent = Swift.max(ThreadCPUClock.now() &- start, budget.cpuUsed)
        allowance.steps -= Swift.min(budget.stepsUsed, allowance.steps)
        allowance.cpuNanoseconds -= Swift.min(spent, allowance.cpuNanoseconds)
        return outcome
    }

    /// The outcome for the text these bytes are, when the engine-free matcher decides it (short
    /// ASCII text, `SimplePattern`); nil otherwise (`evaluate` on the text then decides).
    package func evaluate(utf8: UnsafeBufferPointer<UInt8>) -> Outcome? {
        guard let simple, let found = simple.matches(utf8: utf8) else { return nil }
        return found ? .match : .noMatch
    }

    /// `true` only for `.match`; a timed-out check counts as not matching.
    package func matches(_ text: String) -> Bool {
        evaluate(text) == .match
    }
}

extension FormatPattern: CustomStringConvertible {
    package var description: String { "FormatPattern(\(source.debugDescription))" }
}

extension Duration {
    /// Non-negative nanoseconds, saturating instead of trapping on huge values.
    var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (sum, overflow2) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow2 ? .max : sum
    }
}
