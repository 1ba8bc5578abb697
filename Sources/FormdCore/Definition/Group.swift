/// A group (SEMANTICS §1): a titled list of sections. Groups are never hidden.
package struct Group: Sendable, Hashable {
    package var id: String?
    package var title: String?
    package var sections: [Section]
    package var raw: JSONObject
    package var path: String

    package init(id: String?, title: String?, sections: [Section], raw: JSONObject, path: String) {
        self.id = id
        self.title = title
        self.sections = sections
        self.raw = raw
        self.path = path
    }
}
