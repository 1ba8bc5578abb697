/// A show/hide/enable/disable target of a field or of one of its options, flattened into one
/// contiguous array per plan (`FormPlan.edges`) with what the settle loop reads each round, so
/// that evaluating the structural targets of a large form streams memory instead of visiting
/// field, option and target objects.
struct StructuralEdge: Sendable {
    /// The option whose targets these are (its index), or -1 for the field's own targets.
    let option: Int32
    let action: Target.Action
    let destination: TargetSpec.Destination
    let condition: CompiledCondition?
    /// The condition when it is `$field op literal`: evaluated without visiting `condition`.
    let simple: (comparison: SimpleComparison, variable: FieldRef)?
    /// The target's `idText` and `typeText`, for the `actions` output.
    let idText: String
    let typeText: String
    /// Whether `idText` has `:index` to substitute.
    let idHasIndex: Bool

    /// The field's structural targets in the order they apply: those of its options when it
    /// has options (only option targets apply then), else its own; destinations naming nothing
    /// are left out (they do nothing).
    static func edges(of spec: FieldSpec) -> [StructuralEdge] {
        var out: [StructuralEdge] = []
        func add(_ targets: [TargetSpec], option: Int) {
            for t in targets where t.isStructural {
                if case .nothing = t.destination { continue }
                var simple: (SimpleComparison, FieldRef)?
                if let c = t.condition, let comparison = SimpleComparison(c.condition),
                    case .scalar(let ref) = c.variables[comparison.slot]
                {
                    simple = (comparison, ref)
                }
                out.append(
                    StructuralEdge(
                        option: Int32(option), action: t.action, destination: t.destination, condition: t.condition,
                        simple: simple, idText: t.idText, typeText: t.typeText,
                        idHasIndex: t.idText.utf8.contains(UInt8(ascii: ":"))))
            }
        }
        if spec.hasOptions {
            for (i, o) in spec.options.enumerated() { add(o.targets, option: i) }
        } else {
            add(spec.targets, option: -1)
        }
        return out
    }
}
