/// A problem found while loading a definition: an error rejects the file, a warning does not.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable { case error, warning }

    public var severity: Severity
    /// JSON path of the offending element (`groups[1].sections[0].fields[3].formula`); empty for the file.
    public var path: String
    public var message: String
    public var line: Int
    public var column: Int

    public init(_ severity: Severity, path: String, message: String, line: Int = 1, column: Int = 1) {
        self.severity = severity
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// `LINE:COL: error: PATH: MESSAGE`; `formd check` prefixes the file name.
    public var description: String {
        let where_ = path.isEmpty ? "" : "\(path): "
        return "\(line):\(column): \(severity.rawValue): \(where_)\(message)"
    }

    public func formatted(file: String) -> String { "\(file):\(description)" }
}
