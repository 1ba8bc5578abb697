import Foundation

/// formd's number type: exact decimal arithmetic (SEMANTICS §4).
typealias FormNumber = Decimal

extension Decimal {
    /// A JSON number literal or a decimal string, exactly; nil otherwise.
    init?(literal: String) {
        guard let d = Decimal.parseNumber(literal) else { return nil }
        self = d
    }
}

/// A load-time problem inside an expression: `offset` is the 0-based scalar offset in its text.
struct ExpressionIssue: Error {
    let message: String
    let offset: Int
}

/// A formula bound to the form: numeric (on number/float/count fields) or a text template.
/// Its environment slot `i` reads `variables[i]`, resolved at load.
struct CompiledFormula: Sendable {
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
    func evaluate(in evaluation: Evaluation, context: Int, kind: FieldKind) -> JSONValue? {
        switch body {
        case .numeric(let formula):
            let env = EvaluationEnvironment(evaluation: evaluation, refs: variables, context: context, use: .formula)
            guard let d = formula.evaluate(in: env) else { return nil }
            return Self.canonical(d, kind: kind)
        case .text(let template):
            let env = EvaluationEnvironment(evaluation: evaluation, refs: variables, context: context, use: .text)
            return template.evaluate(in: env).map { .string($0) }
        }
    }

    static func canonical(_ d: Decimal, kind: FieldKind) -> JSONValue? {
        switch kind {
        case .float:
            // a formula can reach 1e127: written with an exponent past 64 characters, so that the
            // response still parses with formd's own strict parser
            return .number(JSONNumber(literal: DecimalText.numberText(canonical: d.canonicalText)))
        case .count:
            guard let r = DecimalMath.round(d, scale: 0, .plain) else { return nil }
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
struct CompiledCondition: Sendable {
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
    guard let r = source.range(of: name) else { return 0 }
    return source.unicodeScalars.distance(from: source.unicodeScalars.startIndex, to: r.lowerBound)
}

/// Reads operands for an expression from an evaluation, seen from `context` (a field slot, or
/// -1 outside fields): hidden and invalid fields are missing (SEMANTICS §4, §5.1).
struct EvaluationEnvironment: ExpressionEnvironment {
    enum Use { case formula, text, condition }

    let evaluation: Evaluation
    let refs: [VariableRef]
    let context: Int
    let use: Use

    func operand(_ slot: Int) -> Operand {
        guard case .scalar(let ref) = refs[slot] else { return .missing }
        let layout = evaluation.layout
        let (t, o) = context >= 0 ? (Int(layout.fields[context].spec.template), layout.fields[context].ordinal) : (-1, -1)
        guard let s = layout.slot(of: ref, contextTemplate: t, contextOrdinal: o) else { return .missing }
        return evaluation.operand(s, use: use)
    }

    func forEachAggregateValue(_ slot: Int, _ body: (Operand) -> Void) {
        guard case .aggregate(let t, let a) = refs[slot] else { return }
        for base in evaluation.layout.instanceBase[t] { body(evaluation.operand(base + a, use: use)) }
    }
}

extension Evaluation {
    func operand(_ s: Int, use: EvaluationEnvironment.Use) -> Operand {
        guard let v = effectiveValue(s) else { return .missing }
        let spec = plan.spec(layout.fields[s].spec)
        if use == .formula && spec.hasOptions {
            guard let option = spec.option(for: v),
                let n = option.number
            else { return .missing }
            return .number(n)
        }
        switch v {
        case .bool(let b):
            return use == .text ? .string(b ? "true" : "false") : .number(b ? 1 : 0)
        case .number(let n):
            if use == .text { return .string(n.text) }
            return Decimal.parseNumber(n.text).map { .number($0) } ?? .missing
        case .string(let str):
            return .string(str)
        default:
            return .missing
        }
    }

    func conditionHolds(_ c: CompiledCondition, context: Int) -> Bool {
        c.condition.evaluate(in: EvaluationEnvironment(evaluation: self, refs: c.variables, context: context, use: .condition))
    }
}
