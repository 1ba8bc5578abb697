/// A show/hide/enable/disable/update/clear instruction (SEMANTICS §5.2).
package struct Target: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case field, section
        /// Any other `type`: show/hide do nothing; the others treat it as a field target, as in the original library.
        case none
    }

    package enum Action: String, Sendable, Hashable {
        case show, hide, update, enable, disable, clear
    }

    package var id: String?
    package var kind: Kind
    /// The `type` string as written, for `actions` output.
    package var typeName: String?
    /// `nil` when the action is missing or unknown (the target is ignored).
    package var action: Action?
    package var targetValue: JSONValue?
    package var condition: String?
    /// JSON path of this target in the definition, for diagnostics.
    package var path: String

    package init(
        id: String?, kind: Kind, typeName: String?, action: Action?, targetValue: JSONValue?,
        condition: String?, path: String
    ) {
        self.id = id
        self.kind = kind
        self.typeName = typeName
        self.action = action
        self.targetValue = targetValue
        self.condition = condition
        self.path = path
    }

    /// Two targets are duplicates only when fully identical (SEMANTICS §5.2).
    /// What `isDuplicate(of:)` compares, hashable.
    struct DedupKey: Hashable {
        let id: String?
        let kind: Kind
        let typeName: String?
        let action: Action?
        let targetValue: JSONValue?
        let condition: String?
    }

    var dedupKey: DedupKey {
        DedupKey(id: id, kind: kind, typeName: typeName, action: action, targetValue: targetValue, condition: condition)
    }

    package func isDuplicate(of other: Target) -> Bool {
        id == other.id && kind == other.kind && typeName == other.typeName && action == other.action
            && targetValue == other.targetValue && condition == other.condition
    }
}
