/// One flag per slot (a field's `hidden` or `disabled`, a section's `hidden`), in memory an
/// evaluation owns (`SlotFlagMemory`): read and written like an array, copied as a pointer.
///
/// The evaluation's flags were arrays that started as the slot map's base arrays, shared until
/// settling changed them. Each copy of them (a settle round starts from the base, compares and
/// keeps the new flags) retained and released an array every worker thread shares: some 30
/// atomic writes to the same memory per request. Now settling writes a round's flags into the
/// next round's part of the block and swaps the views.
struct SlotFlags: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Bool>
    let count: Int

    init(_ base: UnsafeMutablePointer<Bool>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Bounds-checked like an array's subscript.
    @inline(__always) subscript(i: Int) -> Bool {
        get {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "slot out of range")
            return base[i]
        }
        nonmutating set {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "slot out of range")
            base[i] = newValue
        }
    }

    /// Takes the flags of `flags` (as many as this holds).
    func load(_ flags: UnsafeBufferPointer<Bool>) {
        precondition(flags.count == count)
        if let p = flags.baseAddress { base.update(from: p, count: count) }
    }

    /// Takes the flags of `other` (of the same count).
    func load(_ other: SlotFlags) {
        precondition(other.count == count)
        base.update(from: other.base, count: count)
    }

    /// Every flag false.
    func clear() { base.update(repeating: false, count: count) }

    /// Whether some flag is true, read eight at a time.
    func anySet() -> Bool {
        let a = UnsafeRawPointer(base)
        var k = 0
        while k &+ 8 <= count {
            if a.loadUnaligned(fromByteOffset: k, as: UInt64.self) != 0 { return true }
            k &+= 8
        }
        while k < count {
            if base[k] { return true }
            k &+= 1
        }
        return false
    }

    /// The index of the first flag at or after `from` that differs from `other`'s, or `count`:
    /// eight compared at a time, so a pass over the changed flags skips unchanged ones by words.
    func firstDifference(from start: Int, _ other: SlotFlags) -> Int {
        precondition(other.count == count)
        let a = UnsafeRawPointer(base), b = UnsafeRawPointer(other.base)
        var k = start
        while k < count && k & 7 != 0 {
            if base[k] != other.base[k] { return k }
            k &+= 1
        }
        while k &+ 8 <= count {
            let x = a.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            if x != 0 { return k &+ x.littleEndian.trailingZeroBitCount >> 3 }
            k &+= 8
        }
        while k < count {
            if base[k] != other.base[k] { return k }
            k &+= 1
        }
        return count
    }

    /// Whether both hold the same flags, compared eight at a time.
    func same(as other: SlotFlags) -> Bool {
        precondition(other.count == count)
        let a = UnsafeRawPointer(base), b = UnsafeRawPointer(other.base)
        var k = 0
        while k &+ 8 <= count {
            if a.loadUnaligned(fromByteOffset: k, as: UInt64.self) != b.loadUnaligned(fromByteOffset: k, as: UInt64.self) {
                return false
            }
            k &+= 8
        }
        while k < count {
            if base[k] != other.base[k] { return false }
            k &+= 1
        }
        return true
    }
}

/// The block behind an evaluation's `SlotFlags`: field flags (hidden, disabled) and section
/// flags (hidden) twice over, the current ones and settle's next round, and the field flags
/// the definition gives (a settle round starts from those: read from the slot map's arrays, they
/// were retained and released each time). One allocation per request, freed with the evaluation.
struct SlotFlagMemory: ~Copyable, @unchecked Sendable {
    private let block: UnsafeMutablePointer<Bool>
    let hidden: SlotFlags
    let disabled: SlotFlags
    let sectionHidden: SlotFlags
    let nextHidden: SlotFlags
    let nextDisabled: SlotFlags
    let nextSectionHidden: SlotFlags
    /// `slotMap.baseHidden`, `slotMap.baseDisabled`.
    let baseHidden: SlotFlags
    let baseDisabled: SlotFlags

    /// The current flags start as `slotMap`'s base flags, no section hidden.
    init(_ slotMap: SlotMap) {
        let n = slotMap.baseHidden.count
        let m = slotMap.noSectionHidden.count
        let half = 2 * n + m
        let size = max(1, 2 * half + 2 * n)
        block = .allocate(capacity: size)
        block.initialize(repeating: false, count: size)
        hidden = SlotFlags(block, count: n)
        disabled = SlotFlags(block + n, count: n)
        sectionHidden = SlotFlags(block + 2 * n, count: m)
        nextHidden = SlotFlags(block + half, count: n)
        nextDisabled = SlotFlags(block + half + n, count: n)
        nextSectionHidden = SlotFlags(block + half + 2 * n, count: m)
        baseHidden = SlotFlags(block + 2 * half, count: n)
        baseDisabled = SlotFlags(block + 2 * half + n, count: n)
        baseHidden.load(slotMap.baseHidden)
        baseDisabled.load(slotMap.baseDisabled)
        hidden.load(baseHidden)
        disabled.load(baseDisabled)
    }

    deinit { block.deallocate() }
}
