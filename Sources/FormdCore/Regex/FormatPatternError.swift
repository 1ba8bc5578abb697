/// A `format` pattern that does not compile: a load-time error of the form definition.
package struct FormatPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Human-readable reason, e.g. "unbalanced parenthesis".
    package let message: String
    /// 0-based position in the pattern, counted in Unicode scalars (characters
    /// as ICU counts them), where the compiler detected the problem. May equal
    /// the pattern's length ("unexpected end"). `nil` when the engine does not
    /// say (NSRegularExpression on Apple platforms).
    package let offset: Int?

    package init(message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    package var description: String {
        if let offset { return "invalid format pattern at offset \(offset): \(message)" }
        return "invalid format pattern: \(message)"
    }
}
