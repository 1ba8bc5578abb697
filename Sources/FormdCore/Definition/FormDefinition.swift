/// A whole form definition as read from its file (both shapes of SEMANTICS §1).
package struct FormDefinition: Sendable, Hashable {
    package var title: String?
    package var groups: [Group]
    package var templates: [SectionTemplate]
    /// `templates.fields`: accepted and kept, never used (SEMANTICS §1).
    package var fieldTemplates: JSONValue?
    /// formd's form-level message overrides: `{"en": {"required": "..."}, "nb": {...}}`.
    package var messages: JSONObject?
    /// True when the document was the object shape.
    package var isObjectShape: Bool
    /// `keep_versions`: how many earlier versions `formd publish` keeps of this form (nil: the
    /// command's `--keep`, else its default).
    package var keepVersions: Int?

    package init(
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
    package var displayTitle: String? { title ?? groups.first?.title }

    package func template(id: String) -> SectionTemplate? { templates.first { $0.id == id } }
}
