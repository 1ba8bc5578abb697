/// A section (SEMANTICS §1). A dynamic section repeats its template's fields per instance (SEMANTICS §7).
package struct Section: Sendable, Hashable {
    package var id: String?
    package var fields: [Field]
    package var isDynamic: Bool
    package var actionTitle: String?
    /// Read only for dynamic sections: they run as value targets when the section is `changed`.
    package var targets: [Target]
    package var minInstances: Int?
    package var maxInstances: Int?
    package var raw: JSONObject
    package var path: String

    package init(
        id: String?, fields: [Field], isDynamic: Bool, actionTitle: String?, targets: [Target],
        minInstances: Int?, maxInstances: Int?, raw: JSONObject, path: String
    ) {
        self.id = id
        self.fields = fields
        self.isDynamic = isDynamic
        self.actionTitle = actionTitle
        self.targets = targets
        self.minInstances = minInstances
        self.maxInstances = maxInstances
        self.raw = raw
        self.path = path
    }
}
