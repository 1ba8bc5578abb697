extension Evaluation {
    /// The structural targets that fire in a round of `settle`, in source order. A request
    /// fires a few (a choice that shows two fields): the first eight are kept in the value
    /// itself, so that a round allocates nothing; an array cost an allocation and its growth,
    /// about 400 instructions a request under callgrind. Past eight, they go on in an array.
    struct FiredTargets {
        private typealias Eight = (Fired, Fired, Fired, Fired, Fired, Fired, Fired, Fired)
        private static let none = Fired(edge: -1, source: -1)
        private var first: Eight = (none, none, none, none, none, none, none, none)
        private var rest: [Fired] = []
        private(set) var count = 0

        mutating func append(_ f: Fired) {
            if count < 8 {
                withUnsafeMutableBytes(of: &first) { $0.storeBytes(of: f, toByteOffset: count &* MemoryLayout<Fired>.stride, as: Fired.self) }
            } else {
                rest.append(f)
            }
            count &+= 1
        }

        mutating func removeAll() {
            count = 0
            rest.removeAll(keepingCapacity: true)
        }

        /// Target i, in firing order.
        subscript(i: Int) -> Fired {
            if i < 8 { return withUnsafeBytes(of: first) { $0.load(fromByteOffset: i &* MemoryLayout<Fired>.stride, as: Fired.self) } }
            return rest[i &- 8]
        }
    }
}
