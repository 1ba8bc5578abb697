/// One token of a formula or condition. `column` is 1-based, in characters.
struct ExpressionToken: Sendable {
    enum Kind: Sendable, Equatable {
        case number(FormNumber)
        case string(String)
        /// A field id or function name. `dollar` when written with a leading `$` (stripped).
        case name(String, dollar: Bool)
        case op(String)        // + - * / % == != < > <= >= && || !
        case leftParen, rightParen, comma
        case end
    }

    let kind: Kind
    let column: Int
}

/// Lexing rules shared by formulas, conditions and text templates.
///
/// * Field-id characters: Unicode letters and digits (ÅÄÆÖØåäæöø included), `_`, `[`, `]`,
///   `.`; plus the placeholders `[*]` (aggregates) and `:index` (templates), which are taken
///   whole so that their `*` / `:` are not operators.
/// * A run of id characters that reads as a decimal number (`12`, `1.5`, `.5`, `1e-3`) is a
///   number; any other run is a name (`2nd_field` and `1.2.3` are names).
/// * `$` immediately before a run marks a variable; the `$` is not part of the name.
/// * Strings (conditions only): `"..."` or `'...'`, backslash escapes `\" \' \\ \n \t`, any
///   other escaped character stands for itself.
/// * `=` alone is read as `==` (the original accepts it; the language has no assignment, so
///   this is unambiguous), `=<` and `=>` as `<=` and `>=`; `===` and single `&`/`|` are errors.
/// * The original's other spellings: `**` (power), `×` `÷`, `≤` `≥` `≠`, `∧` `∨` `¬`; hexadecimal
///   integers `0x1F`.
enum ExpressionLexer {
    static func isIdCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "[" || c == "]" || c == "."
    }

    /// Length of the maximal id run starting at `start` (0 when none).
    static func idRunLength(_ chars: [Character], from start: Int) -> Int {
        var i = start
        while i < chars.count {
            let c = chars[i]
            if c == "[", i + 2 < chars.count, chars[i + 1] == "*", chars[i + 2] == "]" {
                i += 3
            } else if c == ":", matches(chars, at: i, ":index") {
                i += 6
            } else if isIdCharacter(c) {
                i += 1
            } else {
                break
            }
        }
        return i - start
    }

    static func matches(_ chars: [Character], at i: Int, _ word: String) -> Bool {
        var k = i
        for w in word {
            guard k < chars.count, chars[k] == w else { return false }
            k += 1
        }
        return true
    }

    static func tokenize(_ source: String, allowStrings: Bool) throws(ExpressionError) -> [ExpressionToken] {
        let chars = Array(source)
        var tokens: [ExpressionToken] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            if c.isWhitespace { i += 1; continue }
            switch c {
            case "(": tokens.append(.init(kind: .leftParen, column: column)); i += 1
            case ")": tokens.append(.init(kind: .rightParen, column: column)); i += 1
            case ",": tokens.append(.init(kind: .comma, column: column)); i += 1
            case "*" where i + 1 < chars.count && chars[i + 1] == "*":
                tokens.append(.init(kind: .op("**"), column: column)); i += 2
            case "+", "-", "*", "/", "%":
                tokens.append(.init(kind: .op(String(c)), column: column)); i += 1
            case "×", "÷", "≤", "≥", "≠", "∧", "∨", "¬":
                let spelled: [Character: String] = [
                    "×": "*", "÷": "/", "≤": "<=", "≥": ">=", "≠": "!=", "∧": "&&", "∨": "||", "¬": "!",
                ]
                tokens.append(.init(kind: .op(spelled[c]!), column: column)); i += 1
            case "=" where i + 1 < chars.count && (chars[i + 1] == "<" || chars[i + 1] == ">"):
                tokens.append(.init(kind: .op(chars[i + 1] == "<" ? "<=" : ">="), column: column)); i += 2
            case "=", "!", "<", ">":
                let two = i + 1 < chars.count && chars[i + 1] == "="
                switch (c, two) {
                case ("=", _): tokens.append(.init(kind: .op("=="), column: column))
                case (_, true): tokens.append(.init(kind: .op("\(c)="), column: column))
                default: tokens.append(.init(kind: .op(String(c)), column: column))
                }
                i += two ? 2 : 1
            case "&", "|":
                guard i + 1 < chars.count, chars[i + 1] == c else {
                    throw ExpressionError("unexpected '\(c)' (use '\(c)\(c)')", column: column)
                }
                tokens.append(.init(kind: .op("\(c)\(c)"), column: column)); i += 2
            case "\"", "'":
                guard allowStrings else {
                    throw ExpressionError("strings are not allowed in a numeric formula", column: column)
                }
                var text = ""
                var k = i + 1
                var closed = false
                while k < chars.count {
                    let s = chars[k]
                    if s == c { closed = true; k += 1; break }
                    if s == "\\", k + 1 < chars.count {
                        let e = chars[k + 1]
                        text.append(e == "n" ? "\n" : e == "t" ? "\t" : e)
                        k += 2
                    } else {
                        text.append(s); k += 1
                    }
                }
                guard closed else { throw ExpressionError("unterminated string", column: column) }
                tokens.append(.init(kind: .string(text), column: column)); i = k
            case "$":
                let n = idRunLength(chars, from: i + 1)
                guard n > 0 else { throw ExpressionError("expected a field id after '$'", column: column) }
                let name = String(chars[(i + 1)..<(i + 1 + n)])
                tokens.append(.init(kind: .name(name, dollar: true), column: column)); i += 1 + n
            default:
                let n = idRunLength(chars, from: i)
                guard n > 0 else { throw ExpressionError("unexpected character '\(c)'", column: column) }
                let end = i + n
                let run = String(chars[i..<end])
                // `1e+5`: the run stops at the exponent sign; take the sign and its digits.
                if isMantissaWithExponentMark(run), end + 1 < chars.count,
                   chars[end] == "+" || chars[end] == "-", chars[end + 1].isASCII, chars[end + 1].isNumber {
                    let more = idRunLength(chars, from: end + 1)
                    let candidate = run + String(chars[end..<(end + 1 + more)])
                    if let value = numberValue(candidate) {
                        tokens.append(.init(kind: .number(value), column: column))
                        i = end + 1 + more
                        continue
                    }
                }
                if let value = numberValue(run) {
                    tokens.append(.init(kind: .number(value), column: column))
                } else {
                    tokens.append(.init(kind: .name(run, dollar: false), column: column))
                }
                i = end
            }
        }
        tokens.append(.init(kind: .end, column: chars.count + 1))
        return tokens
    }

    /// `digits[.digits]` / `.digits` / `digits.`, optionally with `e[+-]digits`, or `0x` and
    /// hexadecimal digits (at most 15: exact); ASCII only.
    static func numberValue(_ run: String) -> FormNumber? {
        if run.hasPrefix("0x") || run.hasPrefix("0X") {
            let hex = run.dropFirst(2)
            guard !hex.isEmpty, hex.count <= 15, let v = Int(hex, radix: 16) else { return nil }
            return FormNumber(v)
        }
        guard let first = run.utf8.first,
              first == UInt8(ascii: ".") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
              run.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return FormNumber.parse(run)
    }

    /// `12e`, `1.5E`: a mantissa followed by an exponent mark and nothing else.
    private static func isMantissaWithExponentMark(_ run: String) -> Bool {
        guard let last = run.last, last == "e" || last == "E" else { return false }
        return numberValue(String(run.dropLast())) != nil
    }
}
