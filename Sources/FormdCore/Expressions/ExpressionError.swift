/// A formula, condition or template that does not parse (a load-time error).
///
/// `column` is 1-based and counts characters (grapheme clusters) inside the expression text;
/// the definition loader adds the file position of the JSON string.
package struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    package let message: String
    package let column: Int

    package init(_ message: String, column: Int) {
        self.message = message
        self.column = column
    }

    package var description: String { "column \(column): \(message)" }
}
