/// "No value" while evaluating a numeric formula (division by zero, out of range, an empty
/// avg/min/max): the whole formula has no value.
struct NoValue: Error {}

/// Numeric formula semantics (SEMANTICS §4): a missing operand, and a string that does not read
/// as a number, contribute 0. Aggregates skip instances without a numeric value.
struct FormulaEvaluator<Environment: ExpressionEnvironment> {
    let environment: Environment
    let variableSlots: [Int]
    let aggregateSlots: [Int]
    /// Set when some operation had to round; the result is then rounded to 15 digits.
    var inexact = false

    static func numeric(_ operand: Operand) -> FormNumber? {
        switch operand {
        case .missing: return nil
        case .number(let d): return d
        case .string(let s): return FormNumber.parse(s)
        }
    }

    mutating func evaluate(_ node: ExpressionNode) throws(NoValue) -> FormNumber {
        switch node {
        case .number(let d):
            return d
        case .variable(let i):
            return Self.numeric(environment.operand(variableSlots[i])) ?? 0
        case .negate(let operand):
            return DecimalMath.negate(try evaluate(operand))
        case .arithmetic(let first, let links):
            var value = try evaluate(first)
            for link in links {
                let rhs = try evaluate(link.operand)
                guard let r = Arithmetic.apply(link.op, value, rhs, &inexact) else { throw NoValue() }
                value = r
            }
            return value
        case .function(let fn, let args):
            var a = try evaluate(args[0])
            if fn == .min || fn == .max {
                for k in 1..<args.count {
                    let v = try evaluate(args[k])
                    if fn == .min ? v < a : v > a { a = v }
                }
                return a
            }
            let b: FormNumber? = args.count > 1 ? try evaluate(args[1]) : nil
            guard let r = Arithmetic.call(fn, a, b, &inexact) else { throw NoValue() }
            return r
        case .aggregate(let fn, let i):
            guard let r = Arithmetic.aggregate(fn, environment, aggregateSlots[i], &inexact) else {
                throw NoValue()
            }
            return r
        case .choiceCount(let i, let fallback):
            guard let chosen = environment.choices(variableSlots[i]) else { return try evaluate(fallback) }
            return FormNumber(chosen.count)
        case .string, .compare, .all, .any, .not, .equals, .present, .missing, .contains:
            throw NoValue()   // not produced by the formula parser
        }
    }
}

/// Operations shared by formulas and conditions.
enum Arithmetic {
    static func apply(_ op: ArithmeticOperator, _ a: FormNumber, _ b: FormNumber,
                      _ inexact: inout Bool) -> FormNumber? {
        switch op {
        case .add: return DecimalMath.add(a, b, &inexact)
        case .subtract: return DecimalMath.subtract(a, b, &inexact)
        case .multiply: return DecimalMath.multiply(a, b, &inexact)
        case .divide: return DecimalMath.divide(a, b, &inexact)
        case .modulo: return DecimalMath.modulo(a, b, &inexact)
        }
    }

    /// Functions other than min/max (which the evaluators fold themselves); `b` is the second
    /// argument of `round` and `pow`.
    static func call(_ fn: NumericFunction, _ a: FormNumber, _ b: FormNumber?, _ inexact: inout Bool) -> FormNumber? {
        switch fn {
        case .min, .max: return a
        case .abs: return DecimalMath.abs(a)
        case .round:
            if let b { return DecimalMath.round(a, digits: b) }
            return DecimalMath.round(a, scale: 0, .toNearestOrAwayFromZero)
        case .floor: return DecimalMath.floor(a)
        case .ceil: return DecimalMath.ceil(a)
        case .sqrt: return DecimalMath.sqrt(a, &inexact)
        case .pow: return b.flatMap { DecimalMath.pow(a, $0, &inexact) }
        case .log: return DecimalMath.real(a, &inexact) { $0 > 0 ? LibM.log10($0) : .nan }
        case .ln: return DecimalMath.real(a, &inexact) { $0 > 0 ? LibM.log($0) : .nan }
        case .log2: return DecimalMath.real(a, &inexact) { $0 > 0 ? LibM.log2($0) : .nan }
        case .exp: return DecimalMath.real(a, &inexact) { LibM.exp($0) }
        case .sin: return DecimalMath.real(a, &inexact) { LibM.sin($0) }
        case .cos: return DecimalMath.real(a, &inexact) { LibM.cos($0) }
        case .tan: return DecimalMath.real(a, &inexact) { LibM.tan($0) }
        case .asin: return DecimalMath.real(a, &inexact) { LibM.asin($0) }
        case .acos: return DecimalMath.real(a, &inexact) { LibM.acos($0) }
        case .atan: return DecimalMath.real(a, &inexact) { LibM.atan($0) }
        case .dtor: return DecimalMath.real(a, &inexact) { $0 * Double.pi / 180 }
        case .rtod: return DecimalMath.real(a, &inexact) { $0 * 180 / Double.pi }
        case .nthroot:
            // The n-th root of x; an odd root of a negative number is negative, an even one none.
            guard let b, let n = b.intValue, n != 0 else { return nil }
            let odd = n % 2 != 0
            return DecimalMath.real(a, &inexact) { x in
                x < 0 ? (odd ? -LibM.pow(-x, 1 / Double(n)) : .nan) : LibM.pow(x, 1 / Double(n))
            }
        }
    }

    /// sum/count over nothing are 0; avg/min/max over nothing are nil. Instances whose value is
    /// missing or not numeric are skipped (and not counted).
    static func aggregate<E: ExpressionEnvironment>(_ fn: AggregateFunction, _ environment: E,
                                                    _ slot: Int, _ inexact: inout Bool) -> FormNumber? {
        if let hit = environment.cachedAggregate(fn, slot) {
            if hit.inexact { inexact = true }
            return hit.value
        }
        var rounded = false
        let value = computeAggregate(fn, environment, slot, &rounded)
        environment.storeAggregate(fn, slot, value, inexact: rounded)
        if rounded { inexact = true }
        return value
    }

    private static func computeAggregate<E: ExpressionEnvironment>(_ fn: AggregateFunction, _ environment: E,
                                                                   _ slot: Int, _ inexact: inout Bool) -> FormNumber? {
        var count = 0
        var total = FormNumber.zero
        var best: FormNumber?
        var overflow = false
        var rounded = false
        environment.forEachAggregateValue(slot) { operand in
            guard let v = FormulaEvaluator<E>.numeric(operand) else { return }
            count += 1
            switch fn {
            case .count: break
            case .sum, .avg:
                if let t = DecimalMath.add(total, v, &rounded) { total = t } else { overflow = true }
            case .min: if best == nil || v < best! { best = v }
            case .max: if best == nil || v > best! { best = v }
            }
        }
        if rounded { inexact = true }
        if overflow { return nil }
        switch fn {
        case .count: return FormNumber(count)
        case .sum: return total
        case .avg: return count == 0 ? nil : DecimalMath.divide(total, FormNumber(count), &inexact)
        case .min, .max: return best
        }
    }
}
