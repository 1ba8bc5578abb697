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

    /// `dropped`, one key at a time: the answer writes them without building the list.
    func forEachDroppedKey(_ body: (String, DropReason) -> Void) {
        // By index, and from the slot flags: copying each member and visiting each field's spec
        // cost two memory accesses per submitted key on large submissions, for a list that is
        // usually short.
        let members = submission.members
        do {
            for m in members.indices {
                let slot = Int(memberSlot[m])
                guard slot >= 0 else {
                    if members[m].value.isPresentForDropping {
                        body(members[m].key, slot == Self.overLimitMember ? .overLimit : .unknown)
                    }
                    continue
                }
                let flags = slotMap.fields[slot].flags
                let reason: DropReason
                if !flags.contains(.holdsValue) {
                    reason = .notInput
                } else if !isVisible(slot) {
                    reason = flags.contains(.clearWhenHidden) ? .cleared : .hidden
                } else if flags.contains(.hasFormula) {
                    let spec = plan.spec(slotMap.fields[slot].spec)
                    guard !Self.sameValue(sent: members[m].value, computed: cells[slot].stored, spec: spec) else { continue }
                    reason = .computed
                } else if !cleared.isEmpty && cleared[slot] && !hasValue(slot) {
                    reason = .cleared
                } else {
                    continue
                }
                if members[m].value.isPresentForDropping { body(members[m].key, reason) }
            }
        }
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
        if case .number(let a) = c, case .number(let b) = computed { return OptionMatch.numericEqual(a.text, b.text) }
        return false
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
