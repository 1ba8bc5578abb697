/// Where a name in a formula, condition, target or `compare_to` points, resolved at load so that
/// evaluation never looks ids up by string (except concrete instance ids, which are rare).
enum FieldRef: Hashable, Sendable {
    /// A field outside templates, by its index in `FormPlan.fields`.
    case field(Int)
    /// A field of the same template instance as the expression (`x[:index].y` inside a template).
    case local(template: Int, attr: Int)
    /// A concrete instance field (`items[2].price`): exists only when instance 2 does.
    case instance(template: Int, index: Int, attr: Int)
}

enum SectionRef: Hashable, Sendable {
    case section(Int)
    /// `T[:index]` inside template T: the instance itself.
    case localInstance(template: Int)
    case instance(template: Int, index: Int)
}

/// A variable of an expression.
enum VariableRef: Hashable, Sendable {
    case scalar(FieldRef)
    /// `T[*].attr`: that field over all instances.
    case aggregate(template: Int, attr: Int)
}
