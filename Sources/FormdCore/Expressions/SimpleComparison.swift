/// A condition of the most common shape, one variable compared with a literal (`$a > 50`,
/// `$kind == "b"`, `3 <= $n`), recognised at load so that evaluating it needs neither the tree
/// nor an evaluator: on large forms each tree walk cost cache misses per node.
///
/// `holds` is exactly `Condition.evaluate` for such a condition (it calls the same comparison,
/// and reading a variable or a literal is never inexact); tests compare both at random.
struct SimpleComparison: Sendable {
    let op: ComparisonOperator
    /// The environment slot the variable reads.
    let slot: Int
    /// The literal, as the tree evaluates it (numeric literals are numbers).
    let literal: Operand
    /// `literal op $x` rather than `$x op literal`.
    let literalFirst: Bool

    init?(_ condition: Condition) {
        guard case .compare(let op, let lhs, let rhs) = condition.root else { return nil }
        func literal(_ node: ExpressionNode) -> Operand? {
            switch node {
            case .number(let d): .number(d)
            case .string(let s): .string(s)
            default: nil
            }
        }
        if case .variable(let i) = lhs, let r = literal(rhs) {
            self.op = op
            slot = condition.variableSlots[i]
            self.literal = r
            literalFirst = false
        } else if case .variable(let i) = rhs, let l = literal(lhs) {
            self.op = op
            slot = condition.variableSlots[i]
            self.literal = l
            literalFirst = true
        } else {
            return nil
        }
    }

    /// Whether the condition holds when its variable reads `operand`.
    func holds(_ operand: Operand) -> Bool {
        let v = ConditionEvaluator<NoEnvironment>.normalized(operand)
        do {
            return literalFirst
                ? try ConditionEvaluator<NoEnvironment>.compare(op, literal, v, rounded: false)
                : try ConditionEvaluator<NoEnvironment>.compare(op, v, literal, rounded: false)
        } catch {
            return false
        }
    }

    /// Names the evaluator's static helpers, which do not use an environment.
    enum NoEnvironment: ExpressionEnvironment {
        func operand(_ slot: Int) -> Operand { .missing }
        func forEachAggregateValue(_ slot: Int, _ body: (Operand) -> Void) {}
    }
}
