/// What a declarative client holds of one evaluate answer, reduced to what a diff needs
/// (API.md §5.1): the sections in output order, each with its fields, and per field and section
/// its flags and 64-bit hashes of its value and errors. It is what the `state` token carries, so
/// the next answer can say what changed without the server keeping anything.
package struct StateSnapshot: Sendable, Equatable {
    struct Flags: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        static let visible = Flags(rawValue: 1)
        static let enabled = Flags(rawValue: 2)
        static let required = Flags(rawValue: 4)
        static let hasValue = Flags(rawValue: 8)
        static let hasErrors = Flags(rawValue: 16)
        static let all: Flags = [.visible, .enabled, .required, .hasValue, .hasErrors]
    }

    struct Field: Sendable, Equatable {
        let spec: SlotMap.SpecRef
        let flags: Flags
        /// Hash of the value's JSON text (0 without a value).
        let value: UInt64
        /// Hash of the field's errors (0 without errors).
        let errors: UInt64
    }

    struct Section: Sendable, Equatable {
        /// Static section index.
        let section: Int
        /// The instance number, or -1 for a static (or dynamic, itself) section.
        let instance: Int
        /// `visible` and `hasErrors` only.
        let flags: Flags
        let errors: UInt64
        let fields: [Field]
    }

    var sections: [Section]
    /// Hash of the form-level errors (0 without).
    var formErrors: UInt64

    /// No state: what a client has before its first answer ("everything inserted").
    package static let empty = StateSnapshot(sections: [], formErrors: 0)

    /// The number of fields and sections, which bounds the token's size.
    var entryCount: Int { sections.count + sections.reduce(0) { $0 + $1.fields.count } }
}

extension StateSnapshot {
    /// 64-bit FNV-1a, the token's hash for values, errors and its own checksum.
    static func hash(_ bytes: some Sequence<UInt8>, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = seed
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// The hash of a list of errors, as they are written (0 for none).
    static func hash(errors: [FormError]) -> UInt64 {
        guard !errors.isEmpty else { return 0 }
        var w = JSONWriter()
        w.beginArray()
        for e in errors {
            // Without the subject: the hash is of what the entry says, wherever it is listed.
            w.errorEntry(e, withSubject: false)
        }
        w.endArray()
        return max(1, hash(w.bytes))
    }

    static func hash(value: JSONValue) -> UInt64 { max(1, hash(JSONWriter.encode(value))) }
}

extension Evaluation {
    /// This state as a snapshot, and the errors of each field and section (by id) for writing
    /// the changes.
    func snapshot() -> (StateSnapshot, errorsByID: [String: [FormError]], formErrors: [FormError]) {
        var byID: [String: [FormError]] = [:]
        var formErrors: [FormError] = []
        for e in errors {
            switch e.subject {
            case .field(let id), .section(let id): byID[id, default: []].append(e)
            case .form: formErrors.append(e)
            }
        }
        var sections: [StateSnapshot.Section] = []
        sections.reserveCapacity(slotMap.sectionOrder.count)
        for o in slotMap.sectionOrder {
            let ss = Int(o)
            let slot = slotMap.sections[ss]
            var fields: [StateSnapshot.Field] = []
            let range = slotMap.sectionFields[ss]
            fields.reserveCapacity(range.count)
            for s in Int(range.lowerBound)..<Int(range.upperBound) {
                let visible = isVisible(s)
                var flags: StateSnapshot.Flags = []
                if visible { flags.insert(.visible) }
                if !disabled[s] { flags.insert(.enabled) }
                if isRequired(s) { flags.insert(.required) }
                var valueHash: UInt64 = 0
                if let v = outputValue(s) {
                    flags.insert(.hasValue)
                    valueHash = StateSnapshot.hash(value: v)
                }
                var errorHash: UInt64 = 0
                if let list = byID[slotMap.ids[s]] {
                    flags.insert(.hasErrors)
                    errorHash = StateSnapshot.hash(errors: list)
                }
                fields.append(StateSnapshot.Field(spec: slotMap.fields[s].spec, flags: flags, value: valueHash, errors: errorHash))
            }
            var flags: StateSnapshot.Flags = sectionHidden[ss] ? [] : .visible
            var errorHash: UInt64 = 0
            if let id = slot.id, let list = byID[id] {
                flags.insert(.hasErrors)
                errorHash = StateSnapshot.hash(errors: list)
            }
            sections.append(
                StateSnapshot.Section(section: slot.section, instance: slot.instance, flags: flags, errors: errorHash, fields: fields))
        }
        return (StateSnapshot(sections: sections, formErrors: StateSnapshot.hash(errors: formErrors)), byID, formErrors)
    }

    /// The value `values` carries for slot `s` (as `writeValues` writes it), nil when absent.
    func outputValue(_ s: Int) -> JSONValue? {
        guard isVisible(s), !slotMap.fields[s].flags.contains(.secret) else { return nil }
        if cells[s].origin != .stored {
            let m = Int(cells[s].member)
            return m >= 0 ? submission.value(m) : nil
        }
        return cells[s].stored
    }
}
