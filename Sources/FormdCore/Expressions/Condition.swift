import Foundation

/// A target condition (SEMANTICS §5.1), parsed once at load; see `ConditionEvaluator` for the
/// value rules and `ExpressionParser` for the grammar and precedence.
///
/// Same life cycle as `Formula`: parse, `substitutingIndex`, `bound`, `evaluate(in:)`.
package struct Condition: Sendable {
    package let source: String
    /// Distinct field ids the condition reads (`$` stripped), in order of first use.
    package private(set) var variables: [String]
    /// Distinct `$T[*].attr` references of its aggregates.
    package private(set) var aggregates: [AggregateReference]
    let root: ExpressionNode
    private(set) var variableSlots: [Int]
    private(set) var aggregateSlots: [Int]

    package init(parsing source: String) throws(ExpressionError) {
        var parser = try ExpressionParser(source, dialect: .condition)
        root = try parser.parse()
        self.source = source
        variables = parser.variables
        aggregates = parser.aggregates
        variableSlots = Array(variables.indices)
        aggregateSlots = Array(aggregates.indices)
    }

    /// A copy with `:index` replaced by `index` in every variable and aggregate name.
    package func substitutingIndex(_ index: Int) -> Condition {
        var copy = self
        copy.variables = variables.map { IndexPlaceholder.substitute($0, index) }
        copy.aggregates = aggregates.map {
            AggregateReference(template: IndexPlaceholder.substitute($0.template, index),
                               attribute: IndexPlaceholder.substitute($0.attribute, index))
        }
        return copy
    }

    /// A copy reading `variables[i]` from slot `variableSlots[i]` and `aggregates[j]` from
    /// aggregate slot `aggregateSlots[j]`.
    package func bound(variableSlots: [Int], aggregateSlots: [Int] = []) -> Condition {
        precondition(variableSlots.count == variables.count && aggregateSlots.count == aggregates.count,
                     "one slot per variable and per aggregate")
        var copy = self
        copy.variableSlots = variableSlots
        copy.aggregateSlots = aggregateSlots
        return copy
    }

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
