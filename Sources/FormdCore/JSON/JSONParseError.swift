/// Why and where JSON input was rejected.
///
/// `line` and `column` are 1-based; `column` counts Unicode scalars on that line (so an
/// editor showing "é" as one character agrees), `offset` is the 0-based byte offset into
/// the parsed bytes. Inside invalid UTF-8 the column counts every non-continuation byte.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// Where, 1-based.
    public let line: Int
    /// Where in the line, 1-based (in characters).
    public let column: Int
    /// Where, as a byte offset.
    public let offset: Int

    /// An error at a position.
    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column: message`, e.g. `3:7: duplicate key "id"`.
    public var description: String { "\(line):\(column): \(message)" }
}
