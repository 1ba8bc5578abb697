import FormdCore

/// Verdicts by question, each for `ttlMs`, at most `capacity` of them: when full, the oldest
/// entry goes (insertion order; a hit does not refresh it, so an answer is never older than the
/// TTL). Not thread-safe: its `RemoteValidator` holds it under its lock.
struct RemoteCache {
    let ttlMs: Int64
    let capacity: Int
    private var entries: [String: (verdict: RemoteVerdictRecord, expires: Int64)] = [:]
    private var order: [String] = []
    private var head = 0

    init(ttlSeconds: Int, capacity: Int) {
        ttlMs = Int64(ttlSeconds) * 1000
        self.capacity = capacity
    }

    var isEnabled: Bool { ttlMs > 0 }
    var count: Int { entries.count }

    mutating func get(_ key: String, now: Int64) -> RemoteVerdictRecord? {
        guard let e = entries[key] else { return nil }
        if e.expires <= now {
            entries[key] = nil
            return nil
        }
        return e.verdict
    }

    mutating func put(_ key: String, _ verdict: RemoteVerdictRecord, now: Int64) {
        guard isEnabled else { return }
        if entries[key] == nil {
            while entries.count >= capacity, head < order.count {
                entries[order[head]] = nil
                head += 1
            }
            order.append(key)
            if head > 1024 && head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
        entries[key] = (verdict, now + ttlMs)
    }
}

/// A verdict as cached (the engine's `RemoteVerdict` without `unchecked`, which is never cached).
enum RemoteVerdictRecord: Sendable, Equatable {
    case valid
    case invalid(code: String?, message: String?, params: String?)

    var verdict: RemoteVerdict {
        switch self {
        case .valid: .valid
        case .invalid(let c, let m, let p): .invalid(RemoteRejection(code: c, message: m, params: p))
        }
    }
}
