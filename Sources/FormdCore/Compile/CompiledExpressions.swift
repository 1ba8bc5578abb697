/// A load-time problem inside an expression: `offset` is the 0-based scalar offset in its text.
struct ExpressionIssue: Error {
    let message: String
    let offset: Int
}

/// A formula bound to the form: numeric (on number/float/count fields) or a text template.
/// Its environment slot `i` reads `variables[i]`, resolved at load.
final class CompiledFormula: Sendable {
    enum Body: Sendable {
        case numeric(Formula)
        case text(BoundTextTemplate)
    }

    let body: Body
    let variables: [VariableRef]

    init(source: String, numeric: Bool, resolve: (String) -> VariableRef?) throws(ExpressionIssue) {
        if numeric {
            let parsed: Formula
            do { parsed = try Formula(parsing: source) } catch {
                throw ExpressionIssue(message: error.message, offset: error.column - 1)
            }
            let refs = try bindVariables(
                parsed.variables, parsed.aggregates, of: "formula", source: source, resolve: resolve)
            let nv = parsed.variables.count
            body = .numeric(parsed.bound(variableSlots: Array(0..<nv), aggregateSlots: Array(nv..<refs.count)))
            variables = refs
        } else {
            var refs: [VariableRef] = []
            var slots: [String: Int] = [:]
            let bound = TextTemplate(parsing: source).bound { name in
                if let s = slots[name] { return s }
                guard let r = resolve(name), case .scalar = r else { return nil }
                slots[name] = refs.count
                refs.append(r)
                return refs.count - 1
            }
            body = .text(bound)
            variables = refs
        }
    }

    /// The formula's value in its field's canonical kind (SEMANTICS §4), or nil for no value.
    /// `tooLong` becomes true when a text result would pass `maxTextBytes` (then: no value).
    func evaluate(in evaluation: UnsafePointer<Evaluation>, context: Int, kind: FieldKind, tooLong: inout Bool) -> JSONValue? {
        switch body {
        case .numeric(let formula):
            return variables.withUnsafeBufferPointer { refs in
                let env = EvaluationEnvironment(evaluation: evaluation, refs: refs, context: context, use: .formula)
                guard let d = formula.evaluate(in: env) else { return nil }
                return Self.canonical(d, kind: kind)
            }
        case .text(let template):
            let result = variables.withUnsafeBufferPointer { refs in
                let env = EvaluationEnvironment(evaluation: evaluation, refs: refs, context: context, use: .text)
                return template.evaluate(in: env, maxBytes: evaluation.pointee.options.maxTextBytes)
            }
            switch result {
            case .text(let s): return .string(s)
            case .none: return nil
            case .tooLong:
                tooLong = true
                return nil
            }
        }
    }

    static func canonical(_ d: FormNumber, kind: FieldKind) -> JSONValue? {
        switch kind {
        case .float:
            // a formula can reach 1e127: written with an exponent past 64 characters, so that the
            // response still parses with formd's own strict parser
            return .number(JSONNumber(literal: DecimalText.numberText(canonical: d.canonicalText)))
        case .count:
            guard let r = DecimalMath.round(d, scale: 0, .toNearestOrAwayFromZero) else { return nil }
            guard let p = DecimalText.parse(r.canonicalText), let i = DecimalText.int64(p) else { return nil }
            return .number(JSONNumber(literal: String(i)))
        case .number:
            guard d >= 0, let p = DecimalText.parse(d.canonicalText), let digits = DecimalText.integerDigits(p),
                p.exponent >= 0 || p.digits.isEmpty
            else { return nil }
            return .string(digits)
        default:
            return .string(d.canonicalText)
        }
    }
}

/// A target condition bound to the form.
final class CompiledCondition: Sendable {
    let condition: Condition
    let variables: [VariableRef]

    init(source: String, resolve: (String) -> VariableRef?) throws(ExpressionIssue) {
        let parsed: Condition
        do { parsed = try Condition(parsing: source) } catch {
            throw ExpressionIssue(message: error.message, offset: error.column - 1)
        }
        let refs = try bindVariables(
            parsed.variables, parsed.aggregates, of: "condition", source: source, resolve: resolve)
        let nv = parsed.variables.count
        condition = parsed.bound(variableSlots: Array(0..<nv), aggregateSlots: Array(nv..<refs.count))
        variables = refs
    }
}

/// Resolves an expression's variables, then its aggregates, to references (slot `i` reads
/// `refs[i]`); a name that is no field, or an aggregate over no template field, is a load error.
private func bindVariables(
    _ names: [String], _ aggregates: [AggregateReference], of what: String, source: String,
    resolve: (String) -> VariableRef?
) throws(ExpressionIssue) -> [VariableRef] {
    var refs: [VariableRef] = []
    for name in names {
        guard let r = resolve(name) else {
            throw ExpressionIssue(message: "\(what) names an unknown field \"\(name)\"", offset: offset(of: name, in: source))
        }
        refs.append(r)
    }
    for a in aggregates {
        guard let r = resolve(a.description), case .aggregate = r else {
            throw ExpressionIssue(
                message: "\(what) aggregates an unknown template field \"\(a.description)\"",
                offset: offset(of: a.template, in: source))
        }
        refs.append(r)
    }
    return refs
}

/// Where a name first occurs in an expression (0-based scalar offset), for diagnostics.
private func offset(of name: String, in source: String) -> Int {
    guard let r = source.firstRange(ofText: name) else { return 0 }
    return source.unicodeScalars.distance(from: source.unicodeScalars.startIndex, to: r.lowerBound)
}

/// Reads operands for an expression from an evaluation, seen from `context` (a field slot, or
/// -1 outside fields): hidden and invalid fields are missing (SEMANTICS §4, §5.1).
///
/// It points at the evaluation instead of holding a copy: a copy of `Evaluation` retains and
/// releases each of its two dozen arrays, and formulas and conditions are evaluated tens of
/// thousands of times per request on large forms. The pointer lives only for one evaluate call
/// (see `Evaluation.withEnvironment`).
struct EvaluationEnvironment: ExpressionEnvironment {
    enum Use { case formula, text, condition }

    let evaluation: UnsafePointer<Evaluation>
    /// Slot `i` reads `refs[base + i]` (`base` > 0 when `refs` holds a whole form's variables).
    /// A buffer, not an array: holding an array retained memory every worker thread shares.
    let refs: UnsafeBufferPointer<VariableRef>
    let base: Int
    /// The context's template and ordinal (-1, -1 outside templates), for `:index` references.
    let contextTemplate: Int
    let contextOrdinal: Int
    let use: Use

    init(evaluation: UnsafePointer<Evaluation>, refs: UnsafeBufferPointer<VariableRef>, base: Int = 0, context: Int, use: Use) {
        self.evaluation = evaluation
        self.refs = refs
        self.base = base
        self.use = use
        if context >= 0 {
            let slot = evaluation.pointee.slotMap.fields[context]
            contextTemplate = Int(slot.spec.template)
            contextOrdinal = slot.ordinal
        } else {
            contextTemplate = -1
            contextOrdinal = -1
        }
    }

    func operand(_ slot: Int) -> Operand {
        guard case .scalar(let ref) = refs[base + slot] else { return .missing }
        guard let s = evaluation.pointee.slotMap.slot(of: ref, contextTemplate: contextTemplate, contextOrdinal: contextOrdinal)
        else { return .missing }
        return Evaluation.operand(evaluation, s, use: use)
    }

    func forEachAggregateValue(_ slot: Int, _ body: (Operand) -> Void) {
        guard case .aggregate(let t, let a) = refs[base + slot] else { return }
        let e = evaluation
        for base in e.pointee.slotMap.instanceBase[t] { body(Evaluation.operand(e, base + a, use: use)) }
    }

    func choices(_ slot: Int) -> [JSONValue]? {
        guard case .scalar(let ref) = refs[base + slot] else { return nil }
        let e = evaluation
        guard let s = e.pointee.slotMap.slot(of: ref, contextTemplate: contextTemplate, contextOrdinal: contextOrdinal),
            e.pointee.slotMap.fields[s].flags.contains(.hasOptions),
            e.pointee.plan.spec(e.pointee.slotMap.fields[s].spec).kind == .multiSelect
        else { return nil }
        guard !e.pointee.hidden[s], !(e.pointee.sectionsMayHide && e.pointee.sectionHidden[e.pointee.slotMap.fields[s].sectionSlot]),
            case .array(let chosen)? = e.pointee.cells[s].origin == .sent
                ? e.pointee.submission.value(Int(e.pointee.cells[s].member)) : e.pointee.cells[s].stored
        else { return [] }
        return chosen
    }

    func cachedAggregate(_ fn: AggregateFunction, _ slot: Int) -> (value: FormNumber?, inexact: Bool)? {
        guard case .aggregate(let t, let a) = refs[base + slot] else { return nil }
        return evaluation.pointee.aggregates?.lookup(.init(template: Int32(t), attr: Int32(a), function: fn, use: use))
    }

    func storeAggregate(_ fn: AggregateFunction, _ slot: Int, _ value: FormNumber?, inexact: Bool) {
        guard case .aggregate(let t, let a) = refs[base + slot] else { return }
        evaluation.pointee.aggregates?.store(.init(template: Int32(t), attr: Int32(a), function: fn, use: use), value, inexact: inexact)
    }
}

extension Evaluation {
    /// The operand slot `s` gives an expression. Static and on a pointer: called as a method on
    /// `pointer.pointee`, the whole `Evaluation` was copied (two dozen retains) per operand.
    static func operand(_ e: UnsafePointer<Evaluation>, _ s: Int, use: EvaluationEnvironment.Use) -> Operand {
        let flags = e.pointee.slotMap.fields[s].flags
        guard !e.pointee.hidden[s], !(e.pointee.sectionsMayHide && e.pointee.sectionHidden[e.pointee.slotMap.fields[s].sectionSlot])
        else { return .missing }
        // A number kept as sent, read in the body: its value is not made.
        if use != .text, !flags.contains(.hasOptions), let sent = sentNumber(e, s) {
            return FormNumber.parse(utf8: sent).map { .number($0) } ?? .missing
        }
        // A select's option the coercion found: its number without the value.
        if use == .formula && flags.contains(.hasOptions) && e.pointee.cells[s].option >= 0 {
            let ref = e.pointee.slotMap.fields[s].spec
            let option = Int(e.pointee.cells[s].option)
            return Unmanaged.passUnretained(e.pointee.plan)._withUnsafeGuaranteedRef({ $0.optionNumber(at: option, ref) }).map { .number($0) } ?? .missing
        }
        guard // `value(s)`, spelled out: a method called on `pointee` copies the whole evaluation.
            let v = e.pointee.cells[s].origin == .sent
                ? e.pointee.submission.value(Int(e.pointee.cells[s].member)) : e.pointee.cells[s].stored
        else { return .missing }
        if flags.contains(.hasOptions), case .array(let chosen) = v {
            return multipleChoiceOperand(e, chosen, e.pointee.slotMap.fields[s].spec, use: use)
        }
        if use == .formula && flags.contains(.hasOptions) {
            // The plan, held by the evaluation, borrowed without a retain (an `unowned(unsafe)`
            // local was still retained around the call).
            let ref = e.pointee.slotMap.fields[s].spec
            guard let n = Unmanaged.passUnretained(e.pointee.plan)._withUnsafeGuaranteedRef({ $0.optionNumber(for: v, ref) })
            else { return .missing }
            return .number(n)
        }
        switch v {
        case .bool(let b):
            return use == .text ? .string(b ? "true" : "false") : .number(b ? 1 : 0)
        case .number(let n):
            if use == .text { return .string(n.text) }
            return FormNumber.parse(n.text).map { .number($0) } ?? .missing
        case .string(let str):
            return .string(str)
        default:
            return .missing
        }
    }

    /// Slot `s`'s number kept as sent or stored canonical, as written in the body
    /// (`sentReadingBytes`, spelled out on the pointer for the reason `operand` gives).
    @inline(__always) private static func sentNumber(_ e: UnsafePointer<Evaluation>, _ s: Int) -> UnsafeBufferPointer<UInt8>? {
        guard e.pointee.cells[s].origin == .sent || e.pointee.cells[s].sentNumber, let json = e.pointee.sentJSON, let base = json.baseAddress else { return nil }
        let m = Int(e.pointee.cells[s].member)
        let start = Int(e.pointee.submission.textStart(m))
        let count = Int(e.pointee.submission.textCount(m))
        guard start >= 0, count > 0, start &+ count <= json.count else { return nil }
        let first = base[start]
        guard first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 else { return nil }
        return UnsafeBufferPointer(start: base + start, count: count)
    }

    /// A multiple choice as an operand (SEMANTICS §4, §5.1): in formulas the sum of its chosen
    /// options' `value`s (no value when none has one), in text templates its ids joined by ", ",
    /// in conditions its number of chosen options.
    private static func multipleChoiceOperand(
        _ e: UnsafePointer<Evaluation>, _ chosen: [JSONValue], _ ref: SlotMap.SpecRef, use: EvaluationEnvironment.Use
    ) -> Operand {
        switch use {
        case .formula:
            var total: FormNumber?
            var inexact = false
            for id in chosen {
                guard let n = e.pointee.plan.optionNumber(for: id, ref) else { continue }
                guard let sum = total.map({ DecimalMath.add($0, n, &inexact) }) ?? n else { return .missing }
                total = sum
            }
            return total.map { .number($0) } ?? .missing
        case .text:
            return .string(chosen.map({ $0.choiceText }).joined(separator: ", "))
        case .condition:
            return chosen.isEmpty ? .missing : .number(FormNumber(chosen.count))
        }
    }

    /// `conditionHolds` for a condition recognised as `SimpleComparison` reading `variable`.
    mutating func simpleHolds(_ comparison: SimpleComparison, _ variable: FieldRef, context: Int) -> Bool {
        let slot = slotMap.fields[context]
        guard let s = slotMap.slot(of: variable, contextTemplate: Int(slot.spec.template), contextOrdinal: slot.ordinal)
        else { return comparison.holds(.missing) }
        return withUnsafePointer(to: &self) { comparison.holds(Evaluation.operand($0, s, use: .condition)) }
    }

    /// `mutating` only to take `self`'s address without a copy (`withUnsafePointer(to: &self)`);
    /// nothing is changed.
    mutating func conditionHolds(_ c: CompiledCondition, context: Int) -> Bool {
        withUnsafePointer(to: &self) { e in
            c.variables.withUnsafeBufferPointer { refs in
                c.condition.evaluate(in: EvaluationEnvironment(evaluation: e, refs: refs, context: context, use: .condition))
            }
        }
    }
}
