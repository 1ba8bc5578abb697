/// A formula, condition or template that does not parse (a load-time error).
///
/// `column` is 1-based and counts characters (grapheme clusters) inside the expression text;
/// the definition loader adds the file position of the JSON string.
@_spi(Engine) public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public let column: Int

    public init(_ message: String, column: Int) {
        self.message = message
        self.column = column
    }

    public var description: String { "column \(column): \(message)" }
}
