/// One entry of a select/segment field's `values` (SEMANTICS §2).
package struct FieldOption: Sendable, Hashable {
    /// A JSON scalar (string, number or boolean); `nil` when absent: such an option never matches.
    package var id: JSONValue?
    package var title: String?
    /// `title` as written, when it is given per language.
    package var localizedTitle: LocalizedText?
    /// The numeric payload formulas use (SEMANTICS §4), as written.
    package var value: JSONNumber?
    package var isDefault: Bool
    package var targets: [Target]
    package var path: String

    package init(id: JSONValue?, title: String?, value: JSONNumber?, isDefault: Bool, targets: [Target], path: String) {
        self.id = id
        self.title = title
        self.value = value
        self.isDefault = isDefault
        self.targets = targets
        self.path = path
    }
}
