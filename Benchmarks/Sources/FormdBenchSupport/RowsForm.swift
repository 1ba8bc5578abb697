/// A form with one repeating section (`lines`, up to 1,000 instances of four fields and a formula
/// each, a sum over them) and a submission of 500 instances, sent as flat keys
/// (`lines[3].qty`) or as rows (`"lines": [{"qty": 3, ...}]`, API.md §4.3): what reading rows
/// costs beside the flat keys they stand for.
public enum RowsForm {
    static let definition = #"""
    {"title": "Rows", "groups": [{"sections": [
      {"id": "head", "fields": [{"id": "name", "type": "text", "validations": {"required": true}}]},
      {"id": "lines", "type": "dynamic", "action_title": "Add", "max_instances": 1000, "fields": null},
      {"id": "sum", "fields": [{"id": "total", "type": "float", "disabled": true, "formula": "sum(lines[*].amount)"}]}]}],
     "templates": {"sections": [{"id": "lines", "fields": [
       {"id": "lines[:index].item", "type": "text", "validations": {"required": true}},
       {"id": "lines[:index].qty", "type": "count", "validations": {"min_value": 0}},
       {"id": "lines[:index].price", "type": "float"},
       {"id": "lines[:index].day", "type": "date"},
       {"id": "lines[:index].amount", "type": "float", "disabled": true, "formula": "lines[:index].qty * lines[:index].price"}]}]}}
    """#

    public static func workload(rows: Bool, instances: Int = 500) -> Workload {
        var parts: [String] = [#""name": "Ola""#]
        var list: [String] = []
        for i in 0..<instances {
            let fields = [("item", "\"Item \(i)\""), ("qty", "\(i % 7)"), ("price", "\(i).5"), ("day", "\"2026-11-\(10 + i % 18)\"")]
            if rows {
                list.append("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
            } else {
                parts += fields.map { "\"lines[\(i)].\($0.0)\": \($0.1)" }
            }
        }
        if rows { parts.append("\"lines\": [" + list.joined(separator: ", ") + "]") }
        return Workload(id: "rows", definition: Array(definition.utf8), submission: Array(("{" + parts.joined(separator: ", ") + "}").utf8))
    }
}
