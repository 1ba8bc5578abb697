/// A whole form definition as read from its file (both shapes of SEMANTICS §1).
@_spi(Engine) public struct FormDefinition: Sendable, Hashable {
    public var title: String?
    public var groups: [Group]
    public var templates: [SectionTemplate]
    /// `templates.fields`: accepted and kept, never used (SEMANTICS §1).
    public var fieldTemplates: JSONValue?
    /// formd's form-level message overrides: `{"en": {"required": "..."}, "nb": {...}}`.
    public var messages: JSONObject?
    /// True when the document was the object shape.
    public var isObjectShape: Bool

    public init(
        title: String?, groups: [Group], templates: [SectionTemplate], fieldTemplates: JSONValue?,
        messages: JSONObject?, isObjectShape: Bool
    ) {
        self.title = title
        self.groups = groups
        self.templates = templates
        self.fieldTemplates = fieldTemplates
        self.messages = messages
        self.isObjectShape = isObjectShape
    }

    /// `title`, else the first group's title (API.md `GET /forms`).
    public var displayTitle: String? { title ?? groups.first?.title }

    public func template(id: String) -> SectionTemplate? { templates.first { $0.id == id } }
}
