/// A variable's value as the engine hands it to the evaluator.
///
/// The engine passes `.missing` for fields that are absent, hidden or invalid, numbers for
/// numeric kinds (switches as 1/0, selects in formulas as their option `value`), and strings
/// for text. Strings that read as numbers (`FormNumber.parse`) count as numbers.
package enum Operand: Sendable, Hashable {
    case missing
    case number(FormNumber)
    case string(String)
}

/// Where evaluation reads its variables. The engine resolves each name of
/// `Formula.variables` / `Condition.variables` (and each `aggregates` entry) to an integer slot
/// once at load (`bound(variableSlots:aggregateSlots:)`); evaluation then only asks for slots.
///
/// Evaluation is generic over the environment so that it specializes; make conformers structs.
package protocol ExpressionEnvironment {
    /// The value of the scalar variable bound to `slot`.
    func operand(_ slot: Int) -> Operand
    /// Calls `body` with the value of the aggregated field in every existing instance,
    /// in instance order (`.missing` for instances without a value is fine: they are skipped).
    func forEachAggregateValue(_ slot: Int, _ body: (Operand) -> Void)
    /// A result computed before for the aggregate `fn` of `slot`, if the aggregated values have
    /// not changed since (nil: compute it). `inexact` is whether computing it rounded.
    func cachedAggregate(_ fn: AggregateFunction, _ slot: Int) -> (value: FormNumber?, inexact: Bool)?
    func storeAggregate(_ fn: AggregateFunction, _ slot: Int, _ value: FormNumber?, inexact: Bool)
    /// The option ids a multiple-choice variable has chosen (`[]` when none, or when it is hidden
    /// or invalid); nil when the variable is not a multiple choice.
    func choices(_ slot: Int) -> [JSONValue]?
}

extension ExpressionEnvironment {
    package func choices(_ slot: Int) -> [JSONValue]? { nil }
    package func cachedAggregate(_ fn: AggregateFunction, _ slot: Int) -> (value: FormNumber?, inexact: Bool)? { nil }
    package func storeAggregate(_ fn: AggregateFunction, _ slot: Int, _ value: FormNumber?, inexact: Bool) {}
}

/// `T[*].attr` in an aggregate: the dynamic section (template) id and the attribute, e.g.
/// `tickets[*].total` is template `tickets`, attribute `total`; instance fields are
/// `tickets[n].total`, the template field is `tickets[:index].total`.
package struct AggregateReference: Sendable, Hashable, CustomStringConvertible {
    package let template: String
    package let attribute: String

    package init(template: String, attribute: String) {
        self.template = template
        self.attribute = attribute
    }

    /// The template field id this aggregates: `tickets[:index].total`.
    package var templateFieldId: String { "\(template)[:index].\(attribute)" }
    /// The id of instance `index`: `tickets[3].total`.
    package func instanceFieldId(_ index: Int) -> String { "\(template)[\(index)].\(attribute)" }
    package var description: String { "\(template)[*].\(attribute)" }
}

/// The aggregate functions over `T[*].attr`.
package enum AggregateFunction: String, Sendable, Hashable {
    case sum, count, avg, min, max
}
