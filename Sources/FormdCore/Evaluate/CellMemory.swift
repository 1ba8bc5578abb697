/// The evaluation's cells (`Evaluation.Cell`, one per field slot) in a block the evaluation
/// owns, freed with it. As an array they cost a request the array's uniqueness check at every
/// write, a fill cell by cell through `append`, and at the end a destruction of every cell
/// through the runtime's generic `swift_arrayDestroy` (a call through the value witness per
/// cell); here a cell holding no value costs nothing to destroy.
struct CellMemory: ~Copyable, @unchecked Sendable {
    private(set) var cells: UnsafeMutableBufferPointer<Evaluation.Cell>

    /// `count` empty cells.
    init(count: Int) {
        let base = Self.allocate(count)
        for i in 0..<count { (base + i).initialize(to: Evaluation.Cell()) }
        cells = UnsafeMutableBufferPointer(start: base, count: count)
    }

    /// Room for `count` cells, at least one (so that the base is never null), uninitialized.
    private static func allocate(_ count: Int) -> UnsafeMutablePointer<Evaluation.Cell> {
        UnsafeMutableBufferPointer<Evaluation.Cell>.allocate(capacity: max(count, 1)).baseAddress.unsafelyUnwrapped
    }

    /// Grows to `count` cells, the new ones empty (a form's instance slots, known after the
    /// static ones were placed).
    mutating func grow(to count: Int) {
        let old = cells.count
        guard count > old else { return }
        let base = Self.allocate(count)
        base.moveInitialize(from: cells.baseAddress.unsafelyUnwrapped, count: old)
        for i in old..<count { (base + i).initialize(to: Evaluation.Cell()) }
        cells.deallocate()
        cells = UnsafeMutableBufferPointer(start: base, count: count)
    }

    deinit {
        let base = cells.baseAddress.unsafelyUnwrapped
        // Only a cell with a stored value holds a reference; the others are plain data.
        for i in 0..<cells.count where !base[i].stored.isNone { (base + i).deinitialize(count: 1) }
        cells.deallocate()
    }
}
