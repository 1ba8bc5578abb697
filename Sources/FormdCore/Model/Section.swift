/// A section (SEMANTICS §1). A dynamic section repeats its template's fields per instance (SEMANTICS §7).
@_spi(Engine) public struct Section: Sendable, Hashable {
    public var id: String?
    public var fields: [Field]
    public var isDynamic: Bool
    public var actionTitle: String?
    /// Read only for dynamic sections: they run as value targets when the section is `changed`.
    public var targets: [Target]
    public var minInstances: Int?
    public var maxInstances: Int?
    public var raw: JSONObject
    public var path: String

    public init(
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
