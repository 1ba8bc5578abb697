/// A validator's circuit breaker (API.md §11.3). Closed: calls go out; `failures` consecutive
/// failures open it. Open: no call goes out for `openMs`, each question is answered by the
/// policy at once. Then half-open: one trial call; its success closes the breaker, its failure
/// opens it again. Not thread-safe: its `RemoteValidator` holds it under its lock.
struct CircuitBreaker {
    enum State: Int { case closed = 0, halfOpen = 1, open = 2 }

    let failures: Int
    let openMs: Int64
    private(set) var state = State.closed
    private var consecutive = 0
    private var openedAt: Int64 = 0
    private var trialInFlight = false

    init(failures: Int, openMs: Int) {
        self.failures = failures
        self.openMs = Int64(openMs)
    }

    /// Whether a call may go out now; a half-open breaker lets one through.
    mutating func allow(now: Int64) -> Bool {
        switch state {
        case .closed: return true
        case .open:
            guard now - openedAt >= openMs else { return false }
            state = .halfOpen
            trialInFlight = true
            return true
        case .halfOpen:
            if trialInFlight { return false }
            trialInFlight = true
            return true
        }
    }

    mutating func succeeded() {
        consecutive = 0
        trialInFlight = false
        state = .closed
    }

    mutating func failed(now: Int64) {
        trialInFlight = false
        consecutive += 1
        if state == .halfOpen || consecutive >= failures {
            state = .open
            openedAt = now
        }
    }
}
