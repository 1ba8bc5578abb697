/// A formula on a non-numeric field (SEMANTICS §4): literal text with candidate field ids.
///
/// Every maximal run of field-id characters (see `ExpressionLexer`; `$` stripped) is a
/// candidate word; the engine decides which words are fields when binding. Words that are not
/// fields stay literally (`"Mr first_name"` keeps `Mr `). A word that is not a field but is one
/// once its trailing dots are dropped (`"Hello first."`) uses the field and keeps the dots.
package struct TextTemplate: Sendable {
    package enum Segment: Sendable, Hashable {
        case literal(String)
        /// `name` is the candidate field id; `text` the word as written (with its `$`).
        case word(name: String, text: String)
    }

    package let source: String
    package private(set) var segments: [Segment]

    package init(parsing source: String) {
        self.source = source
        let chars = Array(source)
        var segments: [Segment] = []
        var literal = ""
        var i = 0
        while i < chars.count {
            let dollar = chars[i] == "$"
            let start = dollar ? i + 1 : i
            let n = ExpressionLexer.idRunLength(chars, from: start)
            if n > 0 {
                if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
                segments.append(.word(name: String(chars[start..<(start + n)]),
                                      text: String(chars[i..<(start + n)])))
                i = start + n
            } else {
                literal.append(chars[i])
                i += 1
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// Distinct candidate field ids, in order of first use.
    package var words: [String] {
        var seen = Set<String>()
        var result: [String] = []
        for case .word(let name, _) in segments where seen.insert(name).inserted { result.append(name) }
        return result
    }

    /// A copy with `:index` replaced by `index` in every word.
    package func substitutingIndex(_ index: Int) -> TextTemplate {
        var copy = self
        copy.segments = segments.map {
            guard case .word(let name, let text) = $0 else { return $0 }
            return .word(name: IndexPlaceholder.substitute(name, index),
                         text: IndexPlaceholder.substitute(text, index))
        }
        return copy
    }

    /// Resolves words to environment slots: `slot(name)` returns nil for words that are not
    /// fields, which then stay literal.
    package func bound(_ slot: (String) -> Int?) -> BoundTextTemplate {
        var parts: [BoundTextTemplate.Part] = []
        func appendLiteral(_ s: String) {
            if case .literal(let prev)? = parts.last { parts[parts.count - 1] = .literal(prev + s) }
            else { parts.append(.literal(s)) }
        }
        for segment in segments {
            switch segment {
            case .literal(let s):
                appendLiteral(s)
            case .word(let name, let text):
                if let s = slot(name) {
                    parts.append(.slot(s))
                } else if name.hasSuffix("."), case let trimmed = Self.dropTrailingDots(name),
                          !trimmed.isEmpty, let s = slot(trimmed) {
                    let dots = String(repeating: ".", count: name.count - trimmed.count)
                    parts.append(.slot(s))
                    appendLiteral(dots)
                } else {
                    appendLiteral(text)
                }
            }
        }
        return BoundTextTemplate(parts: parts)
    }

    private static func dropTrailingDots(_ s: String) -> String {
        var s = s
        while s.last == "." { s.removeLast() }
        return s
    }
}

/// A text template with its fields resolved to slots.
package struct BoundTextTemplate: Sendable {
    package enum Part: Sendable, Hashable {
        case literal(String)
        case slot(Int)
    }

    package let parts: [Part]

    package enum Result: Equatable {
        case text(String)
        /// Empty or only whitespace: no value.
        case none
        /// Longer than the bound, in UTF-8 bytes: not built.
        case tooLong
    }

    /// Literal text plus each field's text (numbers in canonical form, missing as `""`);
    /// nil when the result is empty or only whitespace.
    package func evaluate<E: ExpressionEnvironment>(in environment: E) -> String? {
        if case .text(let s) = evaluate(in: environment, maxBytes: .max) { return s }
        return nil
    }

    /// The same, stopping as soon as the text would pass `maxBytes` UTF-8 bytes: templates
    /// that repeat other templates grow exponentially (`t2 = "t1 t1"`, `t3 = "t2 t2"`, ...), so
    /// the bound is checked before each append, never after.
    package func evaluate<E: ExpressionEnvironment>(in environment: E, maxBytes: Int) -> Result {
        var result = ""
        func append(_ s: String) -> Bool {
            guard result.utf8.count + s.utf8.count <= maxBytes else { return false }
            result += s
            return true
        }
        for part in parts {
            switch part {
            case .literal(let s): guard append(s) else { return .tooLong }
            case .slot(let slot):
                switch environment.operand(slot) {
                case .missing: break
                case .number(let d): guard append(d.canonicalText) else { return .tooLong }
                case .string(let s): guard append(s) else { return .tooLong }
                }
            }
        }
        return result.allSatisfy({ $0.isWhitespace }) ? .none : .text(result)
    }
}
