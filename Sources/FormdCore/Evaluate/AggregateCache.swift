/// Aggregates (`sum(items[*].amount)`, ...) computed once per request while their values stay
/// the same. A template formula such as `$rows[:index].amount / sum(rows[*].amount)` asks for the
/// same sum from every instance: computing it each time made a request quadratic in its
/// instances (SEMANTICS §11).
///
/// A result is keyed by the aggregated template attribute, the function and the operand use, and
/// stamped with that attribute's generation; any change of a value of that attribute in any
/// instance, or of any visibility, moves the generation on. A class, so that evaluation can fill
/// it through the read-only pointer expressions get; one evaluation uses it on one thread.
final class AggregateCache: @unchecked Sendable {
    struct Key: Hashable {
        let template: Int32
        let attr: Int32
        let function: AggregateFunction
        let use: EvaluationEnvironment.Use
    }

    private var entries: [Key: (generation: UInt32, value: FormNumber?, inexact: Bool)] = [:]
    /// Per template, per attribute.
    private var generations: [[UInt32]]
    private var everything: UInt32 = 0

    init(attributes: [Int]) {
        generations = attributes.map { Array(repeating: 0, count: $0) }
    }

    private func generation(_ t: Int32, _ a: Int32) -> UInt32 { generations[Int(t)][Int(a)] &+ everything }

    func lookup(_ key: Key) -> (value: FormNumber?, inexact: Bool)? {
        guard let e = entries[key], e.generation == generation(key.template, key.attr) else { return nil }
        return (e.value, e.inexact)
    }

    func store(_ key: Key, _ value: FormNumber?, inexact: Bool) {
        entries[key] = (generation(key.template, key.attr), value, inexact)
    }

    /// A value of `attr` in some instance of `template` changed.
    func changed(template: Int32, attr: Int32) {
        guard !entries.isEmpty else { return }
        generations[Int(template)][Int(attr)] &+= 1
    }

    /// Visibility changed: every aggregate may read other operands now.
    func invalidateAll() {
        guard !entries.isEmpty else { return }
        everything &+= 1
        entries.removeAll(keepingCapacity: true)
    }
}
