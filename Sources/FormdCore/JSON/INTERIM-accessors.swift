// Interim: replaced by the JSON branch's accessors at merge.
extension JSONValue {
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
}
