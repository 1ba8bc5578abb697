/// A problem found while loading a definition: an error rejects the file, a warning does not.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// An error rejects the definition; a warning does not.
    public enum Severity: String, Sendable, Hashable { case error, warning }

    /// Error or warning.
    public var severity: Severity
    /// JSON path of the offending element (`groups[1].sections[0].fields[3].formula`); empty for the file.
    public var path: String
    /// What is wrong, and often how to fix it.
    public var message: String
    /// Where in the file, 1-based.
    public var line: Int
    /// Where in the line, 1-based.
    public var column: Int

    /// A diagnostic at a place.
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

    /// `FILE:LINE:COL: severity: PATH: MESSAGE`, as `formd check` prints it.
    public func formatted(file: String) -> String { "\(file):\(description)" }
}
