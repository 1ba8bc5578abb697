import Foundation
import Prometheus

/// formd's Prometheus metrics: requests by route template and status, a latency histogram per
/// route, open connections, forms loaded, reload failures. Metric objects are created once per
/// (route, status) and cached, so recording costs a lock and two atomic adds.
package final class ServiceMetrics: @unchecked Sendable {
    package let registry: PrometheusCollectorRegistry
    private let lock = NSLock()
    /// Per (route, status): its counter and its route's histogram, found with one lookup.
    private var metrics: [Key: (requests: Counter, latency: DurationHistogram)] = [:]
    private let forms: Gauge
    private let reloadFailures: Counter
    private let connections: Gauge
    private let formatTimeouts: Counter
    /// Read when metrics are rendered.
    package var openConnections: @Sendable () -> Int = { 0 }
    /// Read when metrics are rendered: the form-set digest (`formd_forms_digest_info`).
    package var formsDigest: @Sendable () -> FormsDigest? = { nil }

    struct Key: Hashable {
        let route: String
        let status: Int
    }

    static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1),
    ]

    static func name(_ metric: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: metric, unitName: "", helpText: help)  // empty unit: no suffix
    }

    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        forms = registry.makeGauge(
            descriptor: Self.name("formd_forms_loaded", "Forms currently served"))
        reloadFailures = registry.makeCounter(
            descriptor: Self.name("formd_reload_failures_total", "Definition reloads rejected by the checks"))
        formatTimeouts = registry.makeCounter(
            descriptor: Self.name("formd_format_timeouts_total", "format checks that ran out of time and failed"))
        connections = registry.makeGauge(
            descriptor: Self.name("formd_open_connections", "Open client connections"))
    }

    package func record(route: String, status: Int, duration: Duration) {
        let key = Key(route: route, status: status)
        lock.lock()
        var entry = metrics[key]
        lock.unlock()
        if entry == nil {
            // The registry returns the same metric for the same name and labels.
            let counter = registry.makeCounter(
                descriptor: Self.name("formd_http_requests_total", "HTTP requests"),
                labels: [("route", route), ("status", String(status))])
            let histogram = registry.makeDurationHistogram(
                descriptor: Self.name("formd_http_request_duration_seconds", "Time to answer a request"),
                labels: [("route", route)], buckets: Self.buckets)
            entry = (counter, histogram)
            lock.lock()
            metrics[key] = entry
            lock.unlock()
        }
        entry!.requests.increment()
        entry!.latency.record(duration)
    }

    package func formsLoaded(_ count: Int) { forms.set(Double(count)) }
    package func formatTimedOut(_ count: Int) { if count > 0 { formatTimeouts.increment(by: Int64(count)) } }
    package func reloadFailed() { reloadFailures.increment() }
    package var reloadFailureCount: Int {
        // Parsed back from the exposition so tests need no private access.
        let text = registry.emitToString()
        for line in text.split(separator: "\n") where line.hasPrefix("formd_reload_failures_total ") {
            return Int(Double(line.split(separator: " ").last ?? "0") ?? 0)
        }
        return 0
    }

    /// The Prometheus text exposition.
    package func render() -> [UInt8] {
        connections.set(Double(openConnections()))
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        if let d = formsDigest() {
            // An info metric: the digest as a label, so replicas serving different form sets show
            // as different series during a rollout (count by digest).
            var text = "# HELP formd_forms_digest_info The digest of the form set served (current and kept versions)\n"
            text += "# TYPE formd_forms_digest_info gauge\n"
            text += "formd_forms_digest_info{digest=\"\(d.value)\"} 1\n"
            text += "# HELP formd_form_versions_held Form versions held: current plus kept\n"
            text += "# TYPE formd_form_versions_held gauge\n"
            text += "formd_form_versions_held \(d.versions)\n"
            buffer.append(contentsOf: text.utf8)
        }
        return buffer
    }
}
