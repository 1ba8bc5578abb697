/// The per-request state of one form: a pure function of (plan, values, changed) (SEMANTICS §5.3).
///
/// Arrays are indexed by field slot (`SlotMap.fields`) or section slot (`SlotMap.sections`); the
/// settle loop swaps whole flag arrays, so a round costs O(fields + targets).
package struct Evaluation: ~Copyable, Sendable {
    package enum Mode: Sendable { case validate, evaluate }

    package enum DropReason: String, Sendable {
        case unknown, notInput = "not_input", hidden, computed, cleared
        /// A key of a template instance past `max_instances` (or the engine's cap): not evaluated.
        case overLimit = "over_limit"
    }

    struct Action: Sendable, Hashable {
        let id: String
        let type: String
        let action: Target.Action
        let value: JSONValue?
    }

    let plan: FormPlan
    let mode: Mode
    let options: EvaluationOptions
    let slotMap: SlotMap

    /// Where a slot's value is.
    enum ValueOrigin: UInt8 {
        /// In `stored` (nil: no value).
        case stored
        /// The submitted one, canonical as sent (`Coerced.asSent`), read in place from the
        /// submission: copying it retained (and at the end released) every submitted string,
        /// two atomic operations per string on memory that large submissions had evicted.
        case sent
        /// None: the submitted value cannot be held by the field's kind (a `type` error).
        case invalid
    }

    // Per field slot.
    /// Each slot's value and where it is: one array of records, not three arrays, so that a
    /// request allocates, fills and frees one block for them. Read a value through `value(_:)`.
    /// In memory the evaluation owns (`CellMemory`).
    var cells: UnsafeMutableBufferPointer<Cell> { cellMemory.cells }
    var cellMemory: CellMemory

    struct Cell {
        /// The slot's value when `origin` is `.stored`.
        var stored: JSONValue? = nil
        /// Index in `submission.members` of the value sent for the slot, or -1. Indices, not
        /// copies: copying the submitted values retained and released every string of a large
        /// submission several times over.
        var member: Int32 = -1
        /// For a select or segment whose option the coercion found by the sent bytes
        /// (`FormPlan.coerceSent`): that option's index among the field's options, so that
        /// targets and formulas need not look for it again by value. -1 otherwise (then they
        /// find it from the value).
        var option: Int32 = -1
        var origin: ValueOrigin = .stored
        /// `stored` is the canonical text of the plain number sent (`25000.50` stored as
        /// `25000.5`, `CoercionRule.coerceSentScalar`): the same number, which numeric checks
        /// and formulas read from the body (`sentReadingBytes`), not from the stored text.
        var sentNumber = false
    }
    /// Slots a `clear` target emptied: empty until a value target clears one (evaluate only).
    var cleared: [Bool] = []
    /// Start as the slot map's base flags (`baseHidden`, `baseDisabled`), in `flagMemory`;
    /// `next*` are where settle writes a round's flags before it swaps them in.
    var hidden: SlotFlags
    var disabled: SlotFlags
    // Per section slot.
    var sectionHidden: SlotFlags
    var nextHidden: SlotFlags
    var nextDisabled: SlotFlags
    var nextSectionHidden: SlotFlags
    /// The memory of the six above.
    let flagMemory: SlotFlagMemory
    /// Whether any entry of `sectionHidden` can become true (`FormPlan.targetsSections`): for
    /// other forms a field's visibility is its own flag, without reading its slot for its section.
    let sectionsMayHide: Bool

    /// The submission (flat: sections sent as rows are flattened, `NestedRows`), decoded or
    /// read in place; its members are read through `SubmittedValues`' accessors.
    let submission: SubmittedValues
    /// The sections the client sent as rows, answered as rows; nil for a flat submission. Set by
    /// `Evaluation.of` after the evaluation (it changes only how `values` is written).
    var nestedRows: NestedRows? = nil
    /// The bytes `submission` was decoded from (`FormSubmission`), valid as long as the
    /// evaluation: values the answer sends back as they were sent are copied from there
    /// (`JSONObject.Member.textStart`). Nil for values from anywhere else.
    nonisolated(unsafe) let sentJSON: UnsafeBufferPointer<UInt8>?
    /// How many members of `submission` fill a slot (`Cell.member`); the others are dropped.
    /// A count, not a slot per member: most requests place every member, and `dropped` then
    /// needs no list of them (an allocation fewer).
    var placedMembers = 0
    /// Members whose instance is past the cap: dropped as `over_limit`.
    var overLimitMembers: [Int32] = []
    var actions: [Action] = []
    /// The members of `actions` once it is long, so that recording stays O(1) per target (`record`).
    var actionSet: Set<Action> = []
    /// The structural targets in force (evaluate only: validate answers list no actions).
    var structuralActions: [Action] = []
    var unstableFields: [String]?
    /// Aggregate results while their inputs stay the same (forms with templates only: no
    /// allocation for the others).
    let aggregates: AggregateCache?
    /// Per template: instances the submission named, before the cap.
    var requestedInstances: [Int] = []
    /// Formula slots whose text would pass `options.maxTextBytes` (SEMANTICS §11).
    var textTooLong: Set<Int> = []
    /// What is left of `options.formatAllowance`.
    var formatAllowanceLeft = FormatAllowance.none
    /// `format` checks that ran out of time (counted in metrics by the service).
    package internal(set) var formatTimeouts = 0
    /// Fields whose `format` this build could not check (`FormatPattern.Outcome.deferred`: only
    /// WebAssembly builds, for patterns `SimplePattern` cannot decide), once each, in check order.
    package internal(set) var deferredFormats: [String] = []
    /// Remote rules whose verdict `options.remoteVerdicts` does not hold (SEMANTICS §6.2): the
    /// caller asks them and evaluates again with the verdicts; without, they stay undecided.
    package internal(set) var remoteQuestions: [RemoteQuestion] = []
    /// Ids named in `changed`: evaluate reports `required` only for them.
    var changedIDs: Set<String> = []
    package internal(set) var errors: [FormError] = []
    /// What only fields with a conditional `required` or a `warnings` block produce: nil for
    /// every other form, which so carries one nil reference more than before, not three
    /// collections (each retained and released with the evaluation).
    var ruleOutcomes: RuleOutcomes?
    /// Failures of `warnings` blocks (SEMANTICS §6.1): reported, never making the answer invalid.
    package var warnings: [FormError] { ruleOutcomes?.warnings ?? [] }

    /// `ruleOutcomes`, made when first needed.
    mutating func outcomes() -> RuleOutcomes {
        if let o = ruleOutcomes { return o }
        let o = RuleOutcomes()
        ruleOutcomes = o
        return o
    }

    // MARK: - Entry

    /// Evaluates `values` (a decoded submission) against `plan`. `changed` names fields or dynamic
    /// sections whose value targets run (evaluate only); it must have been checked with
    /// `FormPlan.unknownChangedID`.
    @inline(__always) package init(
        plan: FormPlan, values: JSONObject, sentJSON: UnsafeBufferPointer<UInt8>? = nil, changed: [String] = [], mode: Mode,
        options: EvaluationOptions
    ) {
        self.init(plan: plan, submitted: SubmittedValues(values), sentJSON: sentJSON, changed: changed, mode: mode, options: options)
    }

    /// `submitted` read in place (`SubmittedValues.isSent`) must have been read with `plan`'s key
    /// hints, from `sentJSON`.
    @inline(__always) init(
        plan: FormPlan, submitted: consuming SubmittedValues, sentJSON: UnsafeBufferPointer<UInt8>?, changed: [String] = [], mode: Mode,
        options: EvaluationOptions
    ) {
        self.plan = plan
        self.sentJSON = sentJSON
        self.mode = mode
        self.options = options
        sectionsMayHide = plan.targetsSections
        aggregates = plan.templates.isEmpty ? nil : AggregateCache(attributes: plan.templates.map({ $0.fields.count }))

        // 1. Which instances exist (SEMANTICS §7), and where each key goes. Static slots do
        // not depend on the instances, so keys naming static fields are placed right away; keys
        // of instances wait until the instances are known.
        // `consume` here and at the callers: without it the submission was copied (its three
        // arrays retained) and both copies destroyed, some 260 instructions a request.
        submission = consume submitted
        let staticCount = plan.staticSlotMap.fields.count
        var instanceSets: [Set<Int>] = plan.templates.isEmpty ? [] : Array(repeating: [], count: plan.templates.count)
        var pending: [(member: Int, template: Int, index: Int, attr: Int)] = []
        cellMemory = CellMemory(count: staticCount)
        placedMembers = Self.place(submission, plan: plan, cells: cellMemory.cells, instanceSets: &instanceSets, pending: &pending)
        // Instances past the section's `max_instances`, or past the engine's cap when it has none,
        // are refused before anything is evaluated (SEMANTICS §7, §11): the first ones by index
        // are kept, the count sent is remembered for the `max_instances` error, and the keys of
        // the others are dropped as `over_limit`. Without this the work grew with what was sent
        // (and aggregates over instances made it quadratic), whatever the limit said.
        // (Skipped for forms without templates: `map` and `contains` over the empty list still
        // cost some 250 instructions through the library's generic paths.)
        if !instanceSets.isEmpty {
            requestedInstances = instanceSets.map({ $0.count })
            for t in instanceSets.indices {
                let cap = plan.templates[t].section.flatMap { plan.sections[$0].section.maxInstances } ?? options.maxInstances
                if instanceSets[t].count > cap { instanceSets[t] = Set(instanceSets[t].sorted().prefix(cap)) }
            }
        }
        if !instanceSets.isEmpty && instanceSets.contains(where: { !$0.isEmpty }) {
            slotMap = SlotMap(
                base: plan.staticSlotMap, sections: plan.sections, templates: plan.templates, flags: plan.flags,
                instances: instanceSets.map { $0.sorted() })
        } else {
            slotMap = plan.staticSlotMap
        }
        let n = slotMap.fields.count
        cellMemory.grow(to: n)
        for p in pending {
            guard let o = slotMap.ordinal(template: p.template, instance: p.index) else {
                overLimitMembers.append(Int32(p.member))
                continue
            }
            let slot = slotMap.instanceBase[p.template][o] + p.attr
            // A key may name the same slot twice only through different spellings of n
            // (`items[1]`, `items[01]`): the first wins, the other is dropped as unknown.
            if cellMemory.cells[slot].member < 0 {
                cellMemory.cells[slot].member = Int32(p.member)
                placedMembers += 1
            }
        }
        let flags = SlotFlagMemory(slotMap)
        hidden = flags.hidden
        disabled = flags.disabled
        sectionHidden = flags.sectionHidden
        nextHidden = flags.nextHidden
        nextDisabled = flags.nextDisabled
        nextSectionHidden = flags.nextSectionHidden
        flagMemory = flags

        // 2. Coerce, defaults.
        Self.coerce(submission, plan: plan, slotMap: slotMap, sentJSON: sentJSON, cells: cellMemory.cells)

        // 3. Value targets of `changed` (SEMANTICS §5.2), before formulas.
        if mode == .evaluate {
            changedIDs = Set(changed)
            runValueTargets(changed)
        }

        // 4. Settle.
        settle()

        // 5. Validate.
        formatAllowanceLeft = options.formatAllowance
        validate()
    }

    /// Places each member in its slot (static fields) or in `pending` (instances, placed once
    /// the instances are known); returns how many were placed. A static function: written in the
    /// initializer, the two loops were miscompiled (a release of memory never written, in release
    /// builds).
    private static func place(
        _ submitted: SubmittedValues, plan: FormPlan, cells: UnsafeMutableBufferPointer<Cell>, instanceSets: inout [Set<Int>],
        pending: inout [(member: Int, template: Int, index: Int, attr: Int)]
    ) -> Int {
        var placed = 0
        var next = 0  // the static field the next key most likely names
        let staticCount = cells.count
        if submitted.isSent {
            // Read in place with this plan's hints: a key with a hint names that id's slot.
            for m in submitted.sent.indices {
                let h = Int(submitted.sent[m].id)
                guard h >= 0 && h < staticCount else {
                    if route(m, key: submitted.key(m), plan: plan, next: &next, cells: cells, instanceSets: &instanceSets, pending: &pending) {
                        placed += 1
                    }
                    continue
                }
                if cells[h].member < 0 {
                    cells[h].member = Int32(m)
                    placed += 1
                }
            }
            return placed
        }
        // By index, reading only the key: `for member in values.members` copied each member,
        // retaining (and so fetching from memory) every submitted string value.
        let members = submitted.object.members
        let staticIDs = plan.staticSlotMap.submissionKeys.view
        for m in members.indices {
            // A key the parser matched with a static id names that id's slot; the check makes a
            // hint from another form's parse harmless (identical strings compare in one step).
            let h = Int(members[m].hint)
            if h >= 0 && h < staticCount && staticIDs.id(h) == members[m].key {
                if cells[h].member < 0 {
                    cells[h].member = Int32(m)
                    placed += 1
                }
                continue
            }
            if route(m, key: members[m].key, plan: plan, next: &next, cells: cells, instanceSets: &instanceSets, pending: &pending) {
                placed += 1
            }
        }
        return placed
    }

    /// Coerces each placed member to its field's kind, and gives fields without one their
    /// default (SEMANTICS §2).
    private static func coerce(
        _ submission: SubmittedValues, plan: FormPlan, slotMap: SlotMap, sentJSON: UnsafeBufferPointer<UInt8>?,
        cells: UnsafeMutableBufferPointer<Cell>
    ) {
        for s in cells.indices {
            let flags = slotMap.fields[s].flags
            guard flags.contains(.holdsValue), !flags.contains(.hasFormula) else { continue }
            let m = Int(cells[s].member)
            guard m >= 0 else {
                if flags.contains(.hasDefault) { cells[s].stored = plan.spec(slotMap.fields[s].spec).defaultValue }
                continue
            }
            let ref = slotMap.fields[s].spec
            switch coerced(m, ref, submission, plan: plan, sentJSON: sentJSON, cell: cells.baseAddress.unsafelyUnwrapped + s) {
            case .asSent: cells[s].origin = .sent
            case .value(let c): cells[s].stored = c
            case .invalid: cells[s].origin = .invalid
            case .none: if flags.contains(.hasDefault) { cells[s].stored = plan.spec(ref).defaultValue }
            }
        }
    }

    /// Member `m` coerced for spec `ref`. A string sent without escapes, a number and a boolean
    /// are first coerced from their bytes in the body: most are kept as sent, without a copy of
    /// the value (a retain and a release each), and a select's option is found by its bytes (its
    /// index into the cell's `option`).
    @inline(__always)
    private static func coerced(
        _ m: Int, _ ref: SlotMap.SpecRef, _ submission: SubmittedValues, plan: FormPlan, sentJSON: UnsafeBufferPointer<UInt8>?,
        cell: UnsafeMutablePointer<Cell>
    ) -> Coerced {
        if let json = sentJSON, let base = json.baseAddress, submission.textStart(m) >= 0 {
            let start = Int(submission.textStart(m)), count = Int(submission.textCount(m))
            if count >= 2, start &+ count <= json.count, base[start] == UInt8(ascii: "\"") {
                let utf8 = UnsafeBufferPointer(start: base + start + 1, count: count - 2)
                if let c = plan.coerceSent(utf8: utf8, ref, option: &cell.pointee.option) { return c }
            } else if count >= 1, start &+ count <= json.count, base[start] != UInt8(ascii: "\"") {
                // A number, `true`, `false` or `null` (the text of no other value is recorded).
                if let c = plan.coerceSentScalar(utf8: UnsafeBufferPointer(start: base + start, count: count), ref) {
                    if case .value = c { cell.pointee.sentNumber = true }
                    return c
                }
            }
        }
        return plan.coerce(submission.value(m), ref)
    }

    /// Places member `m` by its key (`FormPlan.route`): in its static field's slot, or in
    /// `pending` for an instance. Returns whether it took a slot.
    @inline(__always)
    private static func route(
        _ m: Int, key: String, plan: FormPlan, next: inout Int, cells: UnsafeMutableBufferPointer<Cell>,
        instanceSets: inout [Set<Int>], pending: inout [(member: Int, template: Int, index: Int, attr: Int)]
    ) -> Bool {
        switch plan.route(key, expected: &next) {
        case .field(let i):
            let slot = plan.staticSlotMap.staticSlot[i]
            guard cells[slot].member < 0 else { return false }
            cells[slot].member = Int32(m)
            return true
        case .instance(let t, let n, let a):
            instanceSets[t].insert(n)
            pending.append((m, t, n, a))
            return false
        case .unknown:
            return false
        }
    }

    enum Route {
        case field(Int)
        case instance(template: Int, index: Int, attr: Int)
        case unknown
    }

    /// The value submitted for slot `s`, as sent.
    @inline(__always) func sent(_ s: Int) -> JSONValue? {
        let m = cells[s].member
        return m >= 0 ? submission.value(Int(m)) : nil
    }

    // MARK: - Visibility

    @inline(__always) func isVisible(_ s: Int) -> Bool {
        !hidden[s] && !(sectionsMayHide && sectionHidden[slotMap.fields[s].sectionSlot])
    }

    /// Whether some field or section is hidden, told a word of flags at a time.
    var anyHidden: Bool { hidden.anySet() || (sectionsMayHide && sectionHidden.anySet()) }

    /// `fields.<id>.required` (API.md §5): visible, and `required` is true or its condition holds.
    @inline(__always) func isRequired(_ s: Int) -> Bool {
        guard isVisible(s) else { return false }
        if plan.checks[slotMap.fields[s].spec].flags.contains(.required) { return true }
        guard let o = ruleOutcomes else { return false }
        return o.conditionallyRequired.contains(s)
    }

    /// The value as the rest of the form sees it: none when hidden or invalid (SEMANTICS §2, §5.3).
    @inline(__always) func effectiveValue(_ s: Int) -> JSONValue? { isVisible(s) ? value(s) : nil }

    /// The slot's canonical value (SEMANTICS §2), whatever its visibility.
    @inline(__always) func value(_ s: Int) -> JSONValue? {
        cells[s].origin == .sent ? submission.value(Int(cells[s].member)) : cells[s].stored
    }

    /// Whether the slot has a value.
    @inline(__always) func hasValue(_ s: Int) -> Bool { cells[s].origin == .sent || cells[s].stored != nil }

    /// Sets the slot's value (no longer the submitted one, nor invalid).
    @inline(__always) mutating func setValue(_ s: Int, _ v: JSONValue?) {
        cells[s].stored = v
        cells[s].origin = .stored
        cells[s].option = -1
        cells[s].sentNumber = false
        let spec = slotMap.fields[s].spec
        if spec.template >= 0 { aggregates?.changed(template: spec.template, attr: spec.index) }
    }
}

/// Per evaluation: warnings, and the slots whose conditional `required` holds (`validations`; in
/// `warnRequired`, of `warnings` blocks). Only one evaluation ever holds it.
final class RuleOutcomes: @unchecked Sendable {
    var warnings: [FormError] = []
    var conditionallyRequired: Set<Int> = []
    var warnRequired: Set<Int> = []
}

/// Engine settings that come from the service's configuration.
public struct EvaluationOptions: Sendable {
    /// The language of messages when a request names none formd has.
    public var locale: SupportedLocale
    /// Valid Norwegian postal codes for the `postal_code` check (`validators.postal_codes`).
    public var postalCodes: PostalCodeTable? {
        get { tables?.postalCodes }
        set {
            guard newValue != nil || tables?.postalCodes != nil else { return }
            tables = Tables.make(postalCodes: newValue, remoteVerdicts: remoteVerdicts)
        }
    }
    /// What all `format` checks of one evaluation may use together: engine steps (three
    /// checks' worth) and CPU time. Each check is also bounded on its own (docs/REGEX.md); past
    /// this total the remaining checks fail `format`, so a submission crafted against slow
    /// patterns costs a bounded time per request. Neither counts time the thread is
    /// descheduled, so the answer does not depend on host load.
    public var formatAllowance = FormatAllowance(steps: 36, cpu: .milliseconds(5))
    /// The longest text a text formula may produce, in UTF-8 bytes (SEMANTICS §11): past it the
    /// field has no value and the error `text_too_long`. Templates that repeat other templates
    /// double at every step, so without a bound 34 of them ask for 16 GiB.
    public var maxTextBytes = EvaluationOptions.defaultMaxTextBytes
    /// `limits.max_text_bytes`'s default.
    public static let defaultMaxTextBytes = 65_536
    /// Instances evaluated per dynamic section without `max_instances` (a section's own
    /// `max_instances` applies when it has one; SEMANTICS §11).
    public var maxInstances = EvaluationOptions.defaultMaxInstances
    /// `limits.max_instances`'s default.
    public static let defaultMaxInstances = 1_000
    /// The verdicts of remote rules for this request (`Form.validateAnswer(_:locale:remote:)`).
    var remoteVerdicts: RemoteVerdicts? {
        get { tables?.remoteVerdicts }
        set {
            // Set to nil for every request without remote rules: no new box for that.
            guard newValue != nil || tables?.remoteVerdicts != nil else { return }
            tables = Tables.make(postalCodes: postalCodes, remoteVerdicts: newValue)
        }
    }

    /// The two tables, in one immutable box, nil when both are: the options are copied into every
    /// evaluation, and two optional dictionaries made each copy two retains and two releases
    /// even when empty (about 300 instructions a validate).
    private var tables: Tables?

    private final class Tables: Sendable {
        let postalCodes: PostalCodeTable?
        let remoteVerdicts: RemoteVerdicts?

        private init(postalCodes: PostalCodeTable?, remoteVerdicts: RemoteVerdicts?) {
            self.postalCodes = postalCodes
            self.remoteVerdicts = remoteVerdicts
        }

        static func make(postalCodes: PostalCodeTable?, remoteVerdicts: RemoteVerdicts?) -> Tables? {
            postalCodes == nil && remoteVerdicts == nil ? nil : Tables(postalCodes: postalCodes, remoteVerdicts: remoteVerdicts)
        }
    }

    /// The server's defaults: English, no postal-code table, the default limits.
    public init(locale: SupportedLocale = .en, postalCodes: PostalCodeTable? = nil) {
        self.locale = locale
        tables = Tables.make(postalCodes: postalCodes, remoteVerdicts: nil)
    }
}

extension FormPlan {
    /// `route(key)`, trying first the static fields at `expected` and just after it (fields
    /// without input, such as formulas, are skipped by clients); `expected` moves past the
    /// field found. A submission in form order then reads the ids sequentially instead of
    /// probing a hash table at random, which is what large forms pay for most.
    func route(_ key: String, expected: inout Int) -> Evaluation.Route {
        var i = expected
        let end = min(expected + 3, fieldIDs.count)
        while i < end {
            if fieldIDs[i] == key {
                expected = i + 1
                return .field(i)
            }
            i += 1
        }
        let route = route(key)
        if case .field(let f) = route { expected = f + 1 }
        return route
    }

    func route(_ key: String) -> Evaluation.Route {
        // An instance-shaped key names no static field unless some static id has that shape:
        // then the (large, randomly probed) id table is skipped.
        if !templates.isEmpty && !staticIDsLookLikeInstances {
            guard let k = InstanceKey(key) else { return fieldIndex[key].map { .field($0) } ?? .unknown }
            for (t, tpl) in templates.enumerated() where tpl.section != nil {
                if let a = tpl.attrIndex[k.pattern] { return .instance(template: t, index: k.index, attr: a) }
            }
            return .unknown
        }
        if let i = fieldIndex[key] { return .field(i) }
        guard !templates.isEmpty, let k = InstanceKey(key) else { return .unknown }
        for (t, tpl) in templates.enumerated() where tpl.section != nil {
            if let a = tpl.attrIndex[k.pattern] { return .instance(template: t, index: k.index, attr: a) }
        }
        return .unknown
    }

    /// The first id of `changed` that names neither a field nor a dynamic section, if any.
    package func unknownChangedID(_ changed: [String]) -> String? {
        for id in changed {
            if case .unknown = route(id) {
                if let s = sectionIndex[id], sections[s].template != nil { continue }
                return id
            }
        }
        return nil
    }
}

extension Array {
    /// `Array(repeating:count:)`, allocated through a path the compiler specializes: that
    /// initializer allocates through an unspecialized generic function of the standard library,
    /// which looks the storage type's metadata up at run time (some 400 instructions per array,
    /// as much as the allocation itself; an evaluation makes about ten such arrays).
    @inline(__always) init(filledWith value: Element, count: Int) {
        self.init(repeatElement(value, count: count))
    }
}
