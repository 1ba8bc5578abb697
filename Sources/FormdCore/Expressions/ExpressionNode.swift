/// The parsed form of formulas and conditions. Variables and aggregates are indices into the
/// owning expression's `variables` / `aggregates` lists, so renaming (`:index`) and binding to
/// engine slots never rewrite the tree.
///
/// Chains of same-precedence operators (`a + b - c`, `x && y && z`) are flat lists, so a long
/// sum does not make a deep tree: tree depth only grows with parentheses, unary operators and
/// function calls, which the parser caps (`ExpressionParser.maxNesting`).
indirect enum ExpressionNode: Sendable {
    case number(FormNumber)
    /// A string literal that does not read as a number (numeric literals become `.number`).
    case string(String)
    case variable(Int)
    case aggregate(AggregateFunction, Int)
    case negate(ExpressionNode)
    case arithmetic(ExpressionNode, [ArithmeticLink])
    case compare(ComparisonOperator, ExpressionNode, ExpressionNode)
    case all([ExpressionNode])      // a && b && ...
    case any([ExpressionNode])      // a || b || ...
    case not(ExpressionNode)
    case function(NumericFunction, [ExpressionNode])
    case equals([ExpressionNode])
    case present(Int)
    case missing(Int)
    /// `count($x)`: the number of options a multiple choice has chosen; for any other field the
    /// list form's meaning (`fallback`, one argument that must have a value).
    case choiceCount(Int, fallback: ExpressionNode)
    /// `contains($x, value)` (conditions): a multiple choice has chosen `value`; any other field
    /// holds it.
    case contains(Int, ExpressionNode)
}

struct ArithmeticLink: Sendable {
    let op: ArithmeticOperator
    let operand: ExpressionNode
}

enum ArithmeticOperator: Sendable {
    case add, subtract, multiply, divide, modulo
}

enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", greater = ">"
    case lessOrEqual = "<=", greaterOrEqual = ">="
}

/// Scalar functions of formulas and conditions. `log` is base 10; `ln`, `log2`, `exp`, the
/// trigonometric ones (radians), `dtor`/`rtod` and `nthroot` go through Double and are inexact
/// (rounded to 15 significant digits like every inexact result).
enum NumericFunction: String, Sendable {
    case min, max, abs, round, floor, ceil, sqrt, pow
    case log, ln, log2, exp, sin, cos, tan, asin, acos, atan, dtor, rtod, nthroot
}
