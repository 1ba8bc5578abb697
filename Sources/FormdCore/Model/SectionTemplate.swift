/// A `templates.sections[]` entry: the fields a dynamic section with the same id repeats.
/// Field ids, formulas, conditions, target ids and `compare_to` use `:index` for the instance number.
@_spi(Engine) public struct SectionTemplate: Sendable, Hashable {
    public var id: String
    public var fields: [Field]
    public var raw: JSONObject
    public var path: String

    public init(id: String, fields: [Field], raw: JSONObject, path: String) {
        self.id = id
        self.fields = fields
        self.raw = raw
        self.path = path
    }
}
