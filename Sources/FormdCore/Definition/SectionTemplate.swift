/// A `templates.sections[]` entry: the fields a dynamic section with the same id repeats.
/// Field ids, formulas, conditions, target ids and `compare_to` use `:index` for the instance number.
package struct SectionTemplate: Sendable, Hashable {
    package var id: String
    package var fields: [Field]
    package var raw: JSONObject
    package var path: String

    package init(id: String, fields: [Field], raw: JSONObject, path: String) {
        self.id = id
        self.fields = fields
        self.raw = raw
        self.path = path
    }
}
