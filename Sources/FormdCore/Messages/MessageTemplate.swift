/// A message text compiled once, at load, into literal and placeholder segments, so that
/// rendering per request is only appends.
///
/// Placeholders are `{name}` with `name` an ASCII identifier (`[A-Za-z_][A-Za-z0-9_]*`):
/// `{label}` is the field's title (else its id), any other name is looked up in the params.
/// `{relation}`, when the caller gives no such param, is the `rule` param in words, in the
/// locale being rendered (`>` → "greater than", "større enn", "mayor que"), so that `compare`
/// messages read naturally. A placeholder with no value, and any brace that is not part of a
/// placeholder, are kept literally (a typo in an override stays visible instead of vanishing).
///
/// A class: an error holds its template, and a struct of five fields was retained field by
/// field at every copy of the error.
package final class MessageTemplate: Sendable, Hashable {
    package enum Segment: Sendable, Hashable {
        case literal(String)
        case label
        case param(String)
    }

    package let text: String
    package let segments: [Segment]
    /// UTF-8 length of the literal parts: the starting capacity when rendering.
    let literalUTF8Count: Int
    /// The literal segments escaped for a JSON string, one after another; segment k's piece
    /// ends at `pieces[k].end` (placeholders take no bytes). An answer copies them as they are:
    /// escaping each piece per error cost about 240 instructions.
    let escapedLiterals: [UInt8]
    /// The segments as plain records, in order, for `write`: reading `segments` copied each
    /// segment with its string (a retain and a release), about 60 instructions a segment.
    let pieces: [Piece]
    /// The names of the `.param` segments, in order (`Piece.param` indexes them).
    let paramNames: [String]

    struct Piece {
        enum Kind: UInt8 { case literal, label, param }
        let kind: Kind
        /// Where the piece's bytes end in `escapedLiterals` (placeholders take none).
        let end: Int32
        /// For `.param`: the index of its name in `paramNames`.
        let param: Int32
    }

    package init(_ text: String) {
        self.text = text
        var segments: [Segment] = []
        var literalCount = 0
        let bytes = Array(text.utf8)
        var literalStart = 0
        var i = 0
        func flushLiteral(upTo end: Int) {
            if end > literalStart {
                segments.append(.literal(String(decoding: bytes[literalStart..<end], as: UTF8.self)))
                literalCount += end - literalStart
            }
        }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "{"), let close = MessageTemplate.placeholderEnd(bytes, from: i) else {
                i += 1
                continue
            }
            flushLiteral(upTo: i)
            let name = String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
            segments.append(name == "label" ? .label : .param(name))
            i = close + 1
            literalStart = i
        }
        flushLiteral(upTo: bytes.count)
        self.segments = segments
        self.literalUTF8Count = literalCount
        var escaped = JSONWriter(reservingCapacity: literalCount + 16)
        var pieces: [Piece] = []
        var names: [String] = []
        pieces.reserveCapacity(segments.count)
        for segment in segments {
            switch segment {
            case .literal(let s):
                escaped.appendEscaped(s)
                pieces.append(Piece(kind: .literal, end: Int32(escaped.byteCount), param: -1))
            case .label:
                pieces.append(Piece(kind: .label, end: Int32(escaped.byteCount), param: -1))
            case .param(let name):
                pieces.append(Piece(kind: .param, end: Int32(escaped.byteCount), param: Int32(names.count)))
                names.append(name)
            }
        }
        escapedLiterals = escaped.bytes
        self.pieces = pieces
        paramNames = names
    }

    /// The message written into `w` as the content of a JSON string (no quotes): the pieces of
    /// `forEachPiece`, the literal ones copied already escaped.
    @inline(__always)
    func write(label: String, params: [(key: String, value: JSONValue)], locale: SupportedLocale, into w: inout JSONWriter) {
        escapedLiterals.withUnsafeBufferPointer { literals in
            pieces.withUnsafeBufferPointer { pieces in
                var start = 0
                for piece in pieces {
                    let end = Int(piece.end)
                    switch piece.kind {
                    case .literal:
                        if let p = literals.baseAddress { w.appendRaw(p + start, end - start) }
                    case .label:
                        w.appendEscaped(label)
                    case .param:
                        MessageTemplate.pieces(ofParam: paramNames[Int(piece.param)], params, locale) { w.appendEscaped($0) }
                    }
                    start = end
                }
            }
        }
    }

    /// The index of the `}` closing an identifier placeholder opened at `open`, if any.
    private static func placeholderEnd(_ b: [UInt8], from open: Int) -> Int? {
        var j = open + 1
        while j < b.count {
            let c = b[j]
            if c == UInt8(ascii: "}") { return j > open + 1 ? j : nil }
            let lower = c | 0x20
            let isLetter = lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
            let isDigit = c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
            if !(isLetter || c == UInt8(ascii: "_") || (isDigit && j > open + 1)) { return nil }
            j += 1
        }
        return nil
    }

    /// The same text (everything else is made from it).
    package static func == (a: MessageTemplate, b: MessageTemplate) -> Bool { a === b || a.text == b.text }

    package func hash(into h: inout Hasher) { h.combine(text) }

    /// Whether the template uses `{name}` (`label` included).
    package func uses(_ name: String) -> Bool {
        segments.contains { segment in
            switch segment {
            case .label: name == "label"
            case .param(let p): p == name
            case .literal: false
            }
        }
    }

    /// Renders the message. `params` are the rule's params as text, in any order (few: linear
    /// lookup is fastest). `locale` only matters for the derived `{relation}`.
    package func render(
        label: String,
        params: [(name: String, text: String)] = [],
        locale: SupportedLocale = .en
    ) -> String {
        if segments.count == 1, case .literal(let s) = segments[0] { return s }
        var out = ""
        out.reserveCapacity(literalUTF8Count + label.utf8.count + 16)
        for segment in segments {
            switch segment {
            case .literal(let s):
                out += s
            case .label:
                out += label
            case .param(let name):
                if let value = MessageTemplate.lookup(name, in: params) {
                    out += value
                } else if name == "relation", let rule = MessageTemplate.lookup("rule", in: params),
                          let words = CompareRelation.words(rule: rule, locale: locale) {
                    out += words
                } else {
                    out += "{"
                    out += name
                    out += "}"
                }
            }
        }
        return out
    }

    /// The message's text in pieces, in order, for a caller that writes them somewhere (an
    /// answer's buffer) rather than joining them. `params` are the error's params as JSON: a
    /// string is its text, a number its literal, a list its strings joined by ", ", anything
    /// else empty. Gives the same text as `render(label:params:locale:)` with those texts.
    @inline(__always)
    package func forEachPiece(
        label: String, params: [(key: String, value: JSONValue)], locale: SupportedLocale, _ body: (String) -> Void
    ) {
        for segment in segments {
            switch segment {
            case .literal(let s):
                body(s)
            case .label:
                body(label)
            case .param(let name):
                MessageTemplate.pieces(ofParam: name, params, locale, body)
            }
        }
    }

    /// The text of placeholder `{name}`: the param's value, else `{relation}` in words, else the
    /// placeholder as written.
    @inline(__always)
    private static func pieces(
        ofParam name: String, _ params: [(key: String, value: JSONValue)], _ locale: SupportedLocale, _ body: (String) -> Void
    ) {
        if let value = lookup(name, in: params) {
            pieces(of: value, body)
        } else if name == "relation", case .string(let rule)? = lookup("rule", in: params),
                  let words = CompareRelation.words(rule: rule, locale: locale) {
            body(words)
        } else {
            body("{")
            body(name)
            body("}")
        }
    }

    /// The text of a param's value, as `forEachPiece` gives it.
    @inline(__always)
    private static func pieces(of value: JSONValue, _ body: (String) -> Void) {
        switch value {
        case .string(let s): body(s)
        case .number(let n): body(n.text)
        case .array(let items):
            var first = true
            for item in items {
                guard case .string(let s) = item else { continue }
                if !first { body(", ") }
                body(s)
                first = false
            }
        default: break
        }
    }

    private static func lookup(_ name: String, in params: [(key: String, value: JSONValue)]) -> JSONValue? {
        for p in params where p.key == name { return p.value }
        return nil
    }

    private static func lookup(_ name: String, in params: [(name: String, text: String)]) -> String? {
        for p in params where p.name == name { return p.text }
        return nil
    }
}

/// An error's message: a text, or a template with what it is rendered from (the error's params
/// are the rest), so that an answer can write it without building a `String` first.
package enum MessageText: Sendable {
    case plain(String)
    case template(MessageTemplate, label: String, locale: SupportedLocale)

    /// The message as text.
    package func rendered(params: [(key: String, value: JSONValue)]) -> String {
        switch self {
        case .plain(let s):
            return s
        case .template(let t, let label, let locale):
            if t.segments.count == 1, case .literal(let s) = t.segments[0] { return s }
            var out = ""
            t.forEachPiece(label: label, params: params, locale: locale) { out += $0 }
            return out
        }
    }
}

/// The `compare_rule` operators in words, per locale, for `{relation}`.
enum CompareRelation {
    /// Rows by `SupportedLocale.index`; columns `==`, `>`, `>=`, `<`, `<=`.
    private static let table: [[String]] = [
        ["equal to", "greater than", "greater than or equal to", "less than", "less than or equal to"],
        ["lik", "større enn", "større enn eller lik", "mindre enn", "mindre enn eller lik"],
        ["igual a", "mayor que", "mayor o igual que", "menor que", "menor o igual que"],
    ]

    static func words(rule: String, locale: SupportedLocale) -> String? {
        let column: Int
        switch rule {
        case "==": column = 0
        case ">": column = 1
        case ">=": column = 2
        case "<": column = 3
        case "<=": column = 4
        default: return nil
        }
        return table[locale.index][column]
    }
}
