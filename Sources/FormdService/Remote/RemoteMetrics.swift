import Foundation
import Prometheus

/// `/metrics` for one remote validator (API.md §11.4): calls made, failures by kind, call
/// latency, cache hits, and the breaker's state (0 closed, 1 half-open, 2 open).
final class RemoteMetrics: @unchecked Sendable {
    private let registry: PrometheusCollectorRegistry
    private let validator: String
    private let calls: Counter
    private let cacheHits: Counter
    private let latency: DurationHistogram
    private let breaker: Gauge
    private let lock = NSLock()
    private var failures: [String: Counter] = [:]

    static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
    ]

    init(registry: PrometheusCollectorRegistry, validator: String) {
        self.registry = registry
        self.validator = validator
        let labels = [("validator", validator)]
        calls = registry.makeCounter(
            descriptor: ServiceMetrics.name("formd_remote_calls_total", "Calls made to a remote validator"), labels: labels)
        cacheHits = registry.makeCounter(
            descriptor: ServiceMetrics.name("formd_remote_cache_hits_total", "Remote questions answered from the cache"), labels: labels)
        latency = registry.makeDurationHistogram(
            descriptor: ServiceMetrics.name("formd_remote_call_duration_seconds", "Time a remote validator took to answer (or fail)"),
            labels: labels, buckets: Self.buckets)
        breaker = registry.makeGauge(
            descriptor: ServiceMetrics.name("formd_remote_breaker_state", "Circuit breaker per remote validator: 0 closed, 1 half-open, 2 open"),
            labels: labels)
    }

    func called(_ duration: Duration) {
        calls.increment()
        latency.record(duration)
    }

    func cacheHit() { cacheHits.increment() }

    func failed(_ kind: String) {
        let counter = lock.withLock { () -> Counter in
            if let c = failures[kind] { return c }
            let c = registry.makeCounter(
                descriptor: ServiceMetrics.name("formd_remote_failures_total", "Remote questions without a verdict, by kind"),
                labels: [("validator", validator), ("kind", kind)])
            failures[kind] = c
            return c
        }
        counter.increment()
    }

    func breakerState(_ state: CircuitBreaker.State) { breaker.set(Double(state.rawValue)) }
}
