/// Buffers a long-lived object (a plan, a slot map) owns and frees in its `deinit`, for what
/// every request reads: passing or holding an array retains it, and a retain is an atomic write
/// to memory that every worker thread evaluating the form shares. A buffer is read as plain data.
extension UnsafeBufferPointer {
    /// `elements` copied into a new block (room for at least one, so never a null base).
    static func ownedCopy(of elements: [Element]) -> Self {
        let block = UnsafeMutableBufferPointer<Element>.allocate(capacity: Swift.max(elements.count, 1))
        _ = block.initialize(from: elements)
        return Self(rebasing: block[0..<elements.count])
    }

    /// Destroys the elements and frees a block made by `ownedCopy(of:)`.
    func freeOwned() {
        let block = UnsafeMutableBufferPointer(mutating: self)
        block.deinitialize()
        block.deallocate()
    }
}
