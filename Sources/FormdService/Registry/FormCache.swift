import FormdCore

/// Compiled forms kept for reuse, least recently used dropped first once their estimated memory
/// passes `budget`. Not thread-safe: `FormRegistry` holds its lock around every call.
struct FormCache {
    /// What a compiled form costs in memory per byte of its definition: 7.1 measured with
    /// `scripts/scale-bench` on copies of the bundled forms (docs/BENCHMARKS.md, "Hosting many
    /// forms"), rounded up. The estimate behind `forms.max_compiled_bytes`.
    static let bytesPerDefinitionByte = 8

    /// A class, so that a hit updates its recency in place: one hash lookup per request.
    private final class Slot {
        let form: Form
        /// Which registry version of the form this is; a newer one replaces it.
        let generation: Int
        let cost: Int
        var lastUse: UInt64

        init(form: Form, generation: Int, cost: Int, lastUse: UInt64) {
            self.form = form
            self.generation = generation
            self.cost = cost
            self.lastUse = lastUse
        }
    }

    let budget: Int
    private var slots: [String: Slot] = [:]
    private var clock: UInt64 = 0
    private(set) var totalCost = 0

    init(budget: Int) { self.budget = budget }

    var count: Int { slots.count }

    static func cost(of form: Form) -> Int { max(1, form.definitionJSON.count) * bytesPerDefinitionByte }

    func contains(_ id: String) -> Bool { slots[id] != nil }

    mutating func get(_ id: String, generation: Int) -> Form? {
        guard let slot = slots[id], slot.generation == generation else { return nil }
        clock &+= 1
        slot.lastUse = clock
        return slot.form
    }

    /// The cached form of `id`, whatever its generation: the registry replaces or removes a slot
    /// whenever the version that serves changes, so a slot present is current.
    mutating func current(_ id: String) -> Form? {
        guard let slot = slots[id] else { return nil }
        clock &+= 1
        slot.lastUse = clock
        return slot.form
    }

    /// Keeps `form`; then drops the least recently used others until the total is within budget
    /// (the form just inserted always stays, however large). Returns whether any was dropped.
    @discardableResult
    mutating func insert(_ id: String, generation: Int, _ form: Form) -> Bool {
        clock &+= 1
        remove(id)
        let slot = Slot(form: form, generation: generation, cost: Self.cost(of: form), lastUse: clock)
        slots[id] = slot
        totalCost += slot.cost
        guard totalCost > budget else { return false }
        // Evict in batches (an eighth of the slots, oldest first) so that a full cache does not
        // sort on every insert.
        let victims = slots.filter { $0.key != id }.sorted { $0.value.lastUse < $1.value.lastUse }
        let batch = max(1, slots.count / 8)
        var evicted = 0
        for victim in victims {
            if totalCost <= budget && evicted >= batch { break }
            remove(victim.key)
            evicted += 1
        }
        return evicted > 0
    }

    mutating func remove(_ id: String) {
        if let old = slots.removeValue(forKey: id) { totalCost -= old.cost }
    }

    mutating func removeAll() {
        slots.removeAll()
        totalCost = 0
    }
}
