/// Why and where JSON input was rejected.
///
/// `line` and `column` are 1-based; `column` counts Unicode scalars on that line (so an
/// editor showing "é" as one character agrees), `offset` is the 0-based byte offset into
/// the parsed bytes. Inside invalid UTF-8 the column counts every non-continuation byte.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public let line: Int
    public let column: Int
    public let offset: Int

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column: message`, e.g. `3:7: duplicate key "id"`.
    public var description: String { "\(line):\(column): \(message)" }
}
