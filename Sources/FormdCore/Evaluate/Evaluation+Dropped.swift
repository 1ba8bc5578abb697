/// What an evaluation drops and labels, as the answer reports them (SEMANTICS §8).
extension Evaluation {
    /// The titles of the options a visible multiple choice in slot `s` has chosen; nil for any
    /// other field, and for one without a value or with a value it cannot hold.
    func choiceLabels(_ s: Int) -> [String]? {
        guard slotMap.fields[s].flags.contains(.hasOptions), isVisible(s), cells[s].origin == .stored,
            case .array(let chosen)? = cells[s].stored
        else { return nil }
        let spec = plan.spec(slotMap.fields[s].spec)
        guard spec.kind == .multiSelect else { return nil }
        return chosen.compactMap { spec.option(for: $0)?.label(for: options.locale) }
    }

    /// Every submitted key that carried a value and is not in `values` as sent, with the first
    /// reason that applies (SEMANTICS §8).
    package var dropped: [(field: String, reason: DropReason)] {
        // Labelled as returned: converting an array of unlabelled tuples is a dynamic cast, which
        // Embedded Swift (WebAssembly) does not have.
        var out: [(field: String, reason: DropReason)] = []
        forEachDroppedKey { out.append(($0, $1)) }
        return out
    }

    /// `dropped`, one key at a time, in submission order: the answer writes them without
    /// building the list when nothing is dropped.
    func forEachDroppedKey(_ body: (String, DropReason) -> Void) {
        if dropsNothing { return }
        let count = submission.count
        var out: [(member: Int32, reason: DropReason)] = []
        func add(_ m: Int32, _ reason: DropReason) {
            if out.isEmpty { out.reserveCapacity(4) }  // one allocation for a few
            out.append((m, reason))
        }
        // The placed members, from their slots (flags, not each field's spec: visiting every
        // spec cost a memory access per submitted key on large submissions).
        for s in cells.indices {
            let m = Int(cells[s].member)
            guard m >= 0 else { continue }
            let flags = slotMap.fields[s].flags
            let reason: DropReason
            if !flags.contains(.holdsValue) {
                reason = .notInput
            } else if !isVisible(s) {
                reason = flags.contains(.clearWhenHidden) ? .cleared : .hidden
            } else if flags.contains(.hasFormula) {
                let spec = plan.spec(slotMap.fields[s].spec)
                guard !Self.sameValue(sent: submission.value(m), computed: cells[s].stored, spec: spec) else { continue }
                reason = .computed
            } else if !cleared.isEmpty && cleared[s] && !hasValue(s) {
                reason = .cleared
            } else {
                continue
            }
            if submission.value(m).isPresentForDropping { add(Int32(m), reason) }
        }
        // The others: keys naming no field, second spellings of a slot, instances past the cap.
        if placedMembers < count {
            // Which members are placed: bits of a word for up to 64 members, else an array.
            var word: UInt64 = 0
            var placed: [Bool] = count > 64 ? [Bool](filledWith: false, count: count) : []
            func mark(_ m: Int) { if placed.isEmpty { word |= 1 &<< UInt64(m) } else { placed[m] = true } }
            for s in cells.indices where cells[s].member >= 0 { mark(Int(cells[s].member)) }
            for m in overLimitMembers {
                mark(Int(m))
                if submission.value(Int(m)).isPresentForDropping { add(m, .overLimit) }
            }
            for m in 0..<count where !(placed.isEmpty ? word & (1 &<< UInt64(m)) != 0 : placed[m]) {
                if submission.value(m).isPresentForDropping { add(Int32(m), .unknown) }
            }
        }
        // Into submission order: a short list by insertion (the library's sort cost hundreds of
        // instructions for two entries), a long one by the library's sort (no quadratic case).
        if out.count > 16 {
            out.sort { $0.member < $1.member }
        } else {
            for k in out.indices.dropFirst() {
                var j = k
                while j > 0 && out[j - 1].member > out[j].member {
                    out.swapAt(j - 1, j)
                    j -= 1
                }
            }
        }
        for d in out { body(submission.key(Int(d.member)), d.reason) }
    }

    /// Whether no submitted key can be dropped, told without visiting every slot (most requests:
    /// the full pass cost some 30 instructions a slot): every key has a static slot, no field or
    /// section is hidden, nothing was cleared, and no key names a field without input or a formula
    /// field (`FormPlan.valuelessStaticSlots`). False only means the full pass decides.
    var dropsNothing: Bool {
        guard placedMembers == submission.count, cleared.isEmpty, slotMap.fields.instances.isEmpty,
            !anyHidden
        else { return false }
        let valueless = plan.valuelessStaticSlots
        for k in valueless.indices where cells[Int(valueless[k])].member >= 0 { return false }
        return true
    }

    /// Fields with `clear_when_hidden` that are hidden and were sent a value: evaluate lists a
    /// `clear` action for each, after the other actions (SEMANTICS §5.4).
    var hiddenClears: [String] {
        guard mode == .evaluate, plan.hasClearWhenHidden else { return [] }
        var out: [String] = []
        for s in slotMap.outputOrder where slotMap.fields[s].flags.contains(.clearWhenHidden) && !isVisible(s) {
            if let v = sent(s), v.isPresentForDropping { out.append(slotMap.ids[s]) }
        }
        return out
    }

    /// Whether a formula field's submitted value is the computed one, compared by value: the
    /// submission is coerced to the field's kind first, so `300.0` and `"300"` match `300`.
    static func sameValue(sent: JSONValue, computed: JSONValue?, spec: FieldSpec) -> Bool {
        guard let computed else { return false }
        guard let c = spec.coercer.coerce(sent).canonical(of: sent) else { return false }
        if c == computed { return true }
        if case .number(let a) = c, case .number(let b) = computed { return sameNumber(a.text, b.text) }
        return false
    }

    /// Whether two JSON number literals have the same value. Plain ones of at most 30
    /// characters (no exponent, so at most 30 digits) are compared as `FormNumber`s, which hold
    /// them exactly; the rest as digit strings (`OptionMatch.numericEqual`: two allocations,
    /// about 1,200 instructions for `1` against `0`).
    static func sameNumber(_ a: String, _ b: String) -> Bool {
        func plain(_ s: String) -> Bool {
            s.utf8.count <= 30 && !s.containsByte(UInt8(ascii: "e")) && !s.containsByte(UInt8(ascii: "E"))
        }
        if plain(a), plain(b), let x = FormNumber.parse(a), let y = FormNumber.parse(b) { return x == y }
        return OptionMatch.numericEqual(a, b)
    }
}

extension JSONValue {
    /// A submitted value `dropped` can report: not `null`, not a blank string (SEMANTICS §8).
    @inline(__always) var isPresentForDropping: Bool {
        switch self {
        case .null: false
        case .string(let s): !s.isBlank
        default: true
        }
    }
}
