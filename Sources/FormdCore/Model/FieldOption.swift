/// One entry of a select/segment field's `values` (SEMANTICS §2).
@_spi(Engine) public struct FieldOption: Sendable, Hashable {
    /// A JSON scalar (string, number or boolean); `nil` when absent: such an option never matches.
    public var id: JSONValue?
    public var title: String?
    /// `title` as written, when it is given per language.
    public var localizedTitle: LocalizedText?
    /// The numeric payload formulas use (SEMANTICS §4), as written.
    public var value: JSONNumber?
    public var isDefault: Bool
    public var targets: [Target]
    public var path: String

    public init(id: JSONValue?, title: String?, value: JSONNumber?, isDefault: Bool, targets: [Target], path: String) {
        self.id = id
        self.title = title
        self.value = value
        self.isDefault = isDefault
        self.targets = targets
        self.path = path
    }
}
