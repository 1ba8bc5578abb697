/// A run-time failure in a condition: the whole condition is false.
struct ConditionFailure: Error {}

/// Condition semantics (SEMANTICS §5.1). Values are `Operand`s; comparisons and logical
/// operators give the numbers 1 / 0. Decisions:
///
/// * A string that reads as a number (`FormNumber.parse`) is that number, wherever it comes
///   from (field value or literal): `$t == 12` and `equals($t, "12")` hold when t is "12".
/// * `==` / `!=` / `equals`: numbers compare numerically, two other strings by exact text;
///   a number and a non-numeric string are different. With a missing operand `==` and `!=`
///   are both false, and `equals` is false.
/// * `< > <= >=`: false with a missing operand; with a non-numeric string it is a failure
///   (strings have no order here; the original fails too).
/// * Arithmetic and functions on a missing or non-numeric operand, division by zero and
///   out-of-range results are failures; `avg`/`min`/`max` over no values are missing.
/// * `&&`, `||`, `!` and the result take the truth of a value: a number is true when not 0,
///   missing is false, a non-numeric string is a failure. Both sides of `&&`/`||` are always
///   evaluated, so a failure anywhere makes the condition false regardless of order.
/// * After an inexact operation (`1/3`, `sqrt(2)`), both sides of that comparison are compared
///   at 15 significant digits, as formula results are rounded (`1/3*3 == 1` holds).
struct ConditionEvaluator<Environment: ExpressionEnvironment> {
    let environment: Environment
    let variableSlots: [Int]
    let aggregateSlots: [Int]
    var inexact = false

    private static var one: Operand { .number(1) }
    private static var zero: Operand { .number(0) }

    /// Numeric strings become numbers.
    static func normalized(_ operand: Operand) -> Operand {
        if case .string(let s) = operand, let d = FormNumber.parse(s) { return .number(d) }
        return operand
    }

    mutating func truth(_ node: ExpressionNode) throws(ConditionFailure) -> Bool {
        switch try evaluate(node) {
        case .missing: return false
        case .number(let d): return !d.isZero
        case .string: throw ConditionFailure()
        }
    }

    private mutating func number(_ node: ExpressionNode) throws(ConditionFailure) -> FormNumber {
        guard case .number(let d) = try evaluate(node) else { throw ConditionFailure() }
        return d
    }

    mutating func evaluate(_ node: ExpressionNode) throws(ConditionFailure) -> Operand {
        switch node {
        case .number(let d):
            return .number(d)
        case .string(let s):
            return .string(s)
        case .variable(let i):
            return Self.normalized(environment.operand(variableSlots[i]))
        case .aggregate(let fn, let i):
            // sum/count give nil only on overflow; avg/min/max give nil when empty.
            guard let r = Arithmetic.aggregate(fn, environment, aggregateSlots[i], &inexact) else {
                if fn == .sum || fn == .count { throw ConditionFailure() }
                return .missing
            }
            return .number(r)
        case .negate(let operand):
            return .number(DecimalMath.negate(try number(operand)))
        case .arithmetic(let first, let links):
            var value = try number(first)
            for link in links {
                let rhs = try number(link.operand)
                guard let r = Arithmetic.apply(link.op, value, rhs, &inexact) else { throw ConditionFailure() }
                value = r
            }
            return .number(value)
        case .function(let fn, let args):
            var a = try number(args[0])
            if fn == .min || fn == .max {
                for k in 1..<args.count {
                    let v = try number(args[k])
                    if fn == .min ? v < a : v > a { a = v }
                }
                return .number(a)
            }
            let b: FormNumber? = args.count > 1 ? try number(args[1]) : nil
            guard let r = Arithmetic.call(fn, a, b, &inexact) else { throw ConditionFailure() }
            return .number(r)
        case .compare(let op, let lhs, let rhs):
            return try compare(op, lhs, rhs) ? Self.one : Self.zero
        case .all(let items):
            var result = true
            for item in items where !(try truth(item)) { result = false }
            return result ? Self.one : Self.zero
        case .any(let items):
            var result = false
            for item in items where try truth(item) { result = true }
            return result ? Self.one : Self.zero
        case .not(let operand):
            return try truth(operand) ? Self.zero : Self.one
        case .equals(let args):
            // Every argument is evaluated (a failure anywhere wins), without an array.
            let outer = inexact
            inexact = false
            let first = try evaluate(args[0])
            let firstRounded = inexact
            var missing = false
            var same = true
            if case .missing = first { missing = true }
            for k in 1..<args.count {
                inexact = false
                let v = try evaluate(args[k])
                if case .missing = v { missing = true }
                else if !Self.equal(first, v, firstRounded || inexact) { same = false }
            }
            inexact = outer
            return !missing && same ? Self.one : Self.zero
        case .present(let i):
            if case .missing = Self.normalized(environment.operand(variableSlots[i])) { return Self.zero }
            return Self.one
        case .missing(let i):
            if case .missing = Self.normalized(environment.operand(variableSlots[i])) { return Self.one }
            return Self.zero
        case .choiceCount(let i, let fallback):
            guard let chosen = environment.choices(variableSlots[i]) else { return try evaluate(fallback) }
            return .number(FormNumber(chosen.count))
        case .contains(let i, let valueNode):
            let value = try evaluate(valueNode)
            if case .missing = value { return Self.zero }
            if let chosen = environment.choices(variableSlots[i]) {
                for id in chosen where Self.equal(Self.normalized(Self.operand(of: id)), value, false) { return Self.one }
                return Self.zero
            }
            let own = Self.normalized(environment.operand(variableSlots[i]))
            if case .missing = own { return Self.zero }
            return Self.equal(own, value, false) ? Self.one : Self.zero
        }
    }

    /// An option id as a condition reads it (booleans as 1/0).
    static func operand(of id: JSONValue) -> Operand {
        switch id {
        case .string(let s): .string(s)
        case .number(let n): FormNumber.parse(n.text).map { .number($0) } ?? .string(n.text)
        case .bool(let b): .number(b ? 1 : 0)
        default: .missing
        }
    }

    private mutating func compare(_ op: ComparisonOperator, _ lhs: ExpressionNode,
                                  _ rhs: ExpressionNode) throws(ConditionFailure) -> Bool {
        let outer = inexact
        inexact = false
        let l = try evaluate(lhs)
        let r = try evaluate(rhs)
        let rounded = inexact
        inexact = outer
        return try Self.compare(op, l, r, rounded: rounded)
    }

    /// `l op r` on evaluated (normalized) operands; `rounded` after an inexact operation.
    static func compare(_ op: ComparisonOperator, _ l: Operand, _ r: Operand, rounded: Bool) throws(ConditionFailure)
        -> Bool
    {
        if case .missing = l { return false }
        if case .missing = r { return false }
        switch op {
        case .equal: return Self.equal(l, r, rounded)
        case .notEqual: return !Self.equal(l, r, rounded)
        default:
            guard case .number(var a) = l, case .number(var b) = r else { throw ConditionFailure() }
            if rounded {
                a = DecimalMath.roundedToSignificantDigits(a) ?? a
                b = DecimalMath.roundedToSignificantDigits(b) ?? b
            }
            switch op {
            case .less: return a < b
            case .greater: return a > b
            case .lessOrEqual: return a <= b
            default: return a >= b
            }
        }
    }

    /// Equality of two present, normalized values.
    private static func equal(_ l: Operand, _ r: Operand, _ rounded: Bool) -> Bool {
        switch (l, r) {
        case (.number(let a), .number(let b)):
            if rounded {
                return DecimalMath.roundedToSignificantDigits(a) == DecimalMath.roundedToSignificantDigits(b)
            }
            return a == b
        case (.string(let a), .string(let b)):
            return a == b
        default:
            return false
        }
    }
}
