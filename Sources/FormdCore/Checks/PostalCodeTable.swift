/// The postal code table of the `postal_code` check (SEMANTICS §6, API.md
/// `validators.postal_codes`): code → city. Codes match exactly, as sent (`0450`, not `450`).
public struct PostalCodeTable: Sendable, Hashable {
    private var cities: [String: String]

    /// A table of code → city.
    public init(_ cities: [String: String]) { self.cities = cities }

    /// Reads either shape: `{"0450": "Oslo", ...}` or the original's
    /// `[{"City": "Oslo", "Code": "0450"}, ...]`. Codes must be strings (a JSON number would
    /// have lost its leading zeros). The first entry of a repeated code wins.
    public init(json: JSONValue) throws(PostalCodeTableError) {
        var cities: [String: String] = [:]
        switch json {
        case .object(let object):
            cities.reserveCapacity(object.count)
            for member in object.members {
                guard case .string(let city) = member.value else {
                    throw PostalCodeTableError(path: member.key, message: "the city must be a string")
                }
                if cities[member.key] == nil { cities[member.key] = city }
            }
        case .array(let entries):
            cities.reserveCapacity(entries.count)
            for (i, entry) in entries.enumerated() {
                guard case .object(let object) = entry else {
                    throw PostalCodeTableError(path: "[\(i)]", message: #"each entry must be an object {"City": ..., "Code": ...}"#)
                }
                guard case .string(let code)? = object["Code"] else {
                    throw PostalCodeTableError(path: "[\(i)].Code", message: "missing, or not a string")
                }
                let city: String
                switch object["City"] {
                case .string(let c)?: city = c
                case nil, .null?: city = ""
                default: throw PostalCodeTableError(path: "[\(i)].City", message: "must be a string")
                }
                if cities[code] == nil { cities[code] = city }
            }
        default:
            throw PostalCodeTableError(
                path: "", message: #"a postal code table is an object {"0450": "Oslo", ...} or an array [{"City": "Oslo", "Code": "0450"}, ...]"#)
        }
        self.cities = cities
    }

    /// Whether `code` is a postal code.
    public func contains(_ code: String) -> Bool { cities[code] != nil }

    /// The city of `code`.
    public func city(for code: String) -> String? { cities[code] }

    /// The number of codes.
    public var count: Int { cities.count }
}

/// A postal-code table that cannot be read: where and why.
public struct PostalCodeTableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the document: `""` (the top), `"[3].Code"`, or an object key.
    public var path: String
    public var message: String

    public var description: String { path.isEmpty ? "postal code table: \(message)" : "postal code table: \(path): \(message)" }
}
