/// A formula (SEMANTICS §4) or a condition (§5.1), parsed once at load: one type for both, told
/// apart by its dialect (`Formula` and `Condition` below), so parsing, `:index` substitution and
/// slot binding exist once. See `ExpressionParser` for the grammar, `FormulaEvaluator` and
/// `ConditionEvaluator` for the value rules.
///
/// Usage by the engine: `init(parsing:)` at load (errors carry a 1-based column); for template
/// fields `substitutingIndex(n)` per instance; resolve `variables` and `aggregates` to slots
/// once and call `bound(variableSlots:aggregateSlots:)`; then `evaluate(in:)` per request.
/// Until bound, slot `i` is simply index `i` of `variables` / `aggregates`.
package struct ParsedExpression<Dialect: ExpressionDialect>: Sendable {
    package let source: String
    /// Distinct field ids the expression reads, in order of first use, `$` stripped.
    package private(set) var variables: [String]
    /// Distinct `T[*].attr` references of its aggregates, in order of first use.
    package private(set) var aggregates: [AggregateReference]
    let root: ExpressionNode
    private(set) var variableSlots: [Int]
    private(set) var aggregateSlots: [Int]

    package init(parsing source: String) throws(ExpressionError) {
        var parser = try ExpressionParser(source, dialect: Dialect.dialect)
        root = try parser.parse()
        self.source = source
        variables = parser.variables
        aggregates = parser.aggregates
        variableSlots = Array(variables.indices)
        aggregateSlots = Array(aggregates.indices)
    }

    /// A copy with `:index` replaced by `index` in every variable and aggregate name
    /// (`$tickets[:index].quantity` reads `tickets[3].quantity`). The tree is shared.
    package func substitutingIndex(_ index: Int) -> Self {
        var copy = self
        copy.variables = variables.map { IndexPlaceholder.substitute($0, index) }
        copy.aggregates = aggregates.map {
            AggregateReference(template: IndexPlaceholder.substitute($0.template, index),
                               attribute: IndexPlaceholder.substitute($0.attribute, index))
        }
        return copy
    }

    /// A copy whose `variables[i]` is read from environment slot `variableSlots[i]` and whose
    /// `aggregates[j]` from aggregate slot `aggregateSlots[j]`.
    package func bound(variableSlots: [Int], aggregateSlots: [Int] = []) -> Self {
        precondition(variableSlots.count == variables.count && aggregateSlots.count == aggregates.count,
                     "one slot per variable and per aggregate")
        var copy = self
        copy.variableSlots = variableSlots
        copy.aggregateSlots = aggregateSlots
        return copy
    }
}

/// Which grammar an expression is parsed with.
package protocol ExpressionDialect: Sendable {
    static var dialect: ExpressionParser.Dialect { get }
}

package enum FormulaDialect: ExpressionDialect {
    package static var dialect: ExpressionParser.Dialect { .formula }
}

package enum ConditionDialect: ExpressionDialect {
    package static var dialect: ExpressionParser.Dialect { .condition }
}

/// A numeric formula (SEMANTICS §4).
package typealias Formula = ParsedExpression<FormulaDialect>
/// A target condition (SEMANTICS §5.1).
package typealias Condition = ParsedExpression<ConditionDialect>

extension ParsedExpression where Dialect == FormulaDialect {
    /// The value, or nil for no value (division by zero, out of range, an empty avg/min/max).
    /// Inexact results are rounded to 15 significant digits.
    package func evaluate<E: ExpressionEnvironment>(in environment: E) -> FormNumber? {
        var evaluator = FormulaEvaluator(environment: environment, variableSlots: variableSlots,
                                         aggregateSlots: aggregateSlots)
        do {
            let value = try evaluator.evaluate(root)
            return evaluator.inexact ? DecimalMath.roundedToSignificantDigits(value) : value
        } catch {
            return nil
        }
    }
}

extension ParsedExpression where Dialect == ConditionDialect {
    /// True or false; any run-time failure makes the whole condition false.
    package func evaluate<E: ExpressionEnvironment>(in environment: E) -> Bool {
        var evaluator = ConditionEvaluator(environment: environment, variableSlots: variableSlots,
                                           aggregateSlots: aggregateSlots)
        do {
            return try evaluator.truth(root)
        } catch {
            return false
        }
    }
}

enum IndexPlaceholder {
    static let token = ":index"
    private static let tokenBytes = Array(token.utf8)

    /// `name` with every `:index` replaced by `index`, left to right. A scan of the bytes: it runs
    /// per instance and per request (action ids, labels), where Foundation's
    /// `replacingOccurrences` cost several allocations each time.
    static func substitute(_ name: String, _ index: Int) -> String {
        let u = name.utf8
        var out: String?
        var i = u.startIndex
        var run = i
        while i != u.endIndex {
            if u[i] == UInt8(ascii: ":"), u[i...].starts(with: tokenBytes) {
                if out == nil { out = "" }
                out! += name[run..<i]
                out! += String(index)
                i = u.index(i, offsetBy: tokenBytes.count)
                run = i
            } else {
                i = u.index(after: i)
            }
        }
        guard var result = out else { return name }
        result += name[run...]
        return result
    }
}
