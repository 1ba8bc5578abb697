import FormdCore
import FormdHTTP
import Foundation
import Prometheus

/// The declared remote validators (`validators.remote`) and the one HTTP client they share.
/// `ask` puts a submission's questions to them concurrently and reports once all are answered.
package final class RemoteValidators: @unchecked Sendable {
    let validators: [String: RemoteValidator]
    let client: HTTPClient?

    /// What the route does with a submission's questions.
    package enum Result: Sendable {
        /// Every question has a verdict (`unchecked` ones by `fail_open`).
        case verdicts(RemoteVerdicts)
        /// A `fail_closed` validator gave no verdict: 503 `remote-unavailable`.
        case unavailable(validator: String, field: String, kind: String, retryAfterSeconds: Int)
    }

    package var names: Set<String> { Set(validators.keys) }

    package init(_ settings: [RemoteValidatorSettings], eventQueue: EventQueueKind, registry: PrometheusCollectorRegistry) throws {
        guard !settings.isEmpty else {
            validators = [:]
            client = nil
            return
        }
        let client = try HTTPClient(eventQueue: eventQueue)
        for s in settings where s.url.isTLS {
            do { try client.prepareTLS(caFile: s.caFile) } catch {
                client.shutdown()
                throw ConfigurationError("validators.remote.\(s.name).ca_file: \(error)")
            }
        }
        self.client = client
        var v: [String: RemoteValidator] = [:]
        for s in settings {
            v[s.name] = RemoteValidator(settings: s, client: client, metrics: RemoteMetrics(registry: registry, validator: s.name))
        }
        validators = v
    }

    package func shutdown() { client?.shutdown() }

    /// Asks every question at once; `completion` runs once, on some thread, when all have an
    /// outcome (at the latest after the longest timeout among them).
    package func ask(
        _ questions: [RemoteQuestion], form: String, version: String, values: FormValues,
        completion: @escaping @Sendable (Result) -> Void
    ) {
        let gather = Gather(count: questions.count, completion: completion)
        for (i, q) in questions.enumerated() {
            guard let v = validators[q.validator] else {
                gather.set(i, q, .failed(kind: "undeclared"), policy: .failClosed, retryAfter: 1)
                continue
            }
            let fields = v.settings.sendFields.compactMap { name in values[name].map { (name, $0) } }
            v.ask(q, form: form, version: version, fields: fields) { outcome in
                gather.set(i, q, outcome, policy: v.settings.onError, retryAfter: v.settings.retryAfterSeconds)
            }
        }
    }

    /// The outcomes of one submission's questions, as they come in (any thread).
    private final class Gather: @unchecked Sendable {
        let lock = NSLock()
        var left: Int
        var verdicts = RemoteVerdicts()
        var unavailable: Result?
        let completion: @Sendable (Result) -> Void

        init(count: Int, completion: @escaping @Sendable (Result) -> Void) {
            left = count
            self.completion = completion
        }

        func set(_ i: Int, _ q: RemoteQuestion, _ outcome: RemoteValidator.Outcome, policy: RemoteValidatorSettings.FailurePolicy, retryAfter: Int) {
            let finished: Result? = lock.withLock {
                switch outcome {
                case .verdict(let v): verdicts[q.field] = v
                case .failed(let kind):
                    if policy == .failOpen {
                        verdicts[q.field] = .unchecked
                    } else if unavailable == nil {
                        unavailable = .unavailable(validator: q.validator, field: q.field, kind: kind, retryAfterSeconds: retryAfter)
                    }
                }
                left -= 1
                guard left == 0 else { return nil }
                return unavailable ?? .verdicts(verdicts)
            }
            if let finished { completion(finished) }
        }
    }
}
