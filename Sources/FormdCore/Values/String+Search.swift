/// Substring search without Foundation or `_StringProcessing` (neither exists in Embedded Swift):
/// the portable forms of `range(of:)`, `contains(_:)`, `components(separatedBy:)` and
/// `replacingOccurrences(of:with:)` for the engine's short, mostly ASCII, needles. Matching is
/// Character by Character, as `String.==` (canonical equivalence).
extension StringProtocol {
    /// The first occurrence of `needle` (nil for an empty needle).
    func firstRange(ofText needle: some StringProtocol) -> Range<Index>? {
        guard let first = needle.first else { return nil }
        var i = startIndex
        while let start = self[i...].firstIndex(of: first) {
            var a = start, b = needle.startIndex
            while a != endIndex, b != needle.endIndex, self[a] == needle[b] {
                formIndex(after: &a)
                needle.formIndex(after: &b)
            }
            if b == needle.endIndex { return start..<a }
            if a == endIndex { return nil }
            i = index(after: start)
        }
        return nil
    }

    /// Whether `needle` occurs in the text (false for an empty needle).
    func containsText(_ needle: some StringProtocol) -> Bool { firstRange(ofText: needle) != nil }

    /// The pieces between the occurrences of `separator`, empty ones kept (`components(separatedBy:)`).
    func components(separatedByText separator: some StringProtocol) -> [String] {
        var parts: [String] = []
        var rest = self[...]
        while let r = rest.firstRange(ofText: separator) {
            parts.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }

    /// Every occurrence of `target` replaced by `replacement`.
    func replacingText(_ target: some StringProtocol, with replacement: some StringProtocol) -> String {
        components(separatedByText: target).joined(separator: String(replacement))
    }
}
