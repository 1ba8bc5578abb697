/// A group (SEMANTICS §1): a titled list of sections. Groups are never hidden.
@_spi(Engine) public struct Group: Sendable, Hashable {
    public var id: String?
    public var title: String?
    public var sections: [Section]
    public var raw: JSONObject
    public var path: String

    public init(id: String?, title: String?, sections: [Section], raw: JSONObject, path: String) {
        self.id = id
        self.title = title
        self.sections = sections
        self.raw = raw
        self.path = path
    }
}
