/// A position in JSON source text.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line; lines end at `\n` (a `\r` before it is an ordinary column).
    package let line: Int
    /// 1-based column, counted in Unicode scalars from the start of the line.
    package let column: Int
    /// 0-based byte offset into the parsed bytes.
    package let offset: Int

    package init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    package var description: String { "\(line):\(column)" }
}

/// The result of `JSONParser.parse`: the value plus what the loader needs to serve and
/// report on the source (removed trailing commas, source locations).
///
/// Paths: the root is `""`, an object member is `parent.key` (just `key` at the root), an
/// array element is `parent[3]` (`[3]` at the root), e.g. `groups[1].fields[3].formula`.
/// Keys are used verbatim, so keys containing `.`, `[` or `]` can make two paths equal; the
/// later value's location then wins. Build paths with `memberPath`/`elementPath`.
package struct JSONDocument: Sendable {
    package var root: JSONValue

    /// Byte offsets (ascending) of the trailing commas accepted under
    /// `JSONParser.Options.allowTrailingCommas`; empty otherwise.
    package let trailingCommaOffsets: [Int]

    /// Filled only when parsed with `recordLocations`.
    let entries: [String: Entry]

    struct Entry: Sendable {
        var value: SourceLocation?
        var key: SourceLocation?
        var string: StringSource?
    }

    /// Enough about a string value's source to map a position in its decoded text back to
    /// the file: the decoded text and every escape sequence (which is wider in the source).
    struct StringSource: Sendable {
        var text: String
        var escapes: [EscapeShift]
    }

    struct EscapeShift: Sendable, Hashable {
        /// Index (in Unicode scalars of the decoded text) of the scalar the escape produced.
        var scalarIndex: Int
        /// Source length of the escape: 2 (`\n`), 6 (`\u00e9`) or 12 (surrogate pair).
        var sourceLength: Int
    }

    init(root: JSONValue, trailingCommaOffsets: [Int], entries: [String: Entry]) {
        self.root = root
        self.trailingCommaOffsets = trailingCommaOffsets
        self.entries = entries
    }

    /// Whether locations were recorded (`recordLocations`) — all lookups return nil if not.
    package var hasLocations: Bool { !entries.isEmpty }

    /// Where the value at `path` starts (its first character: `{`, `[`, `"`, digit, ...).
    package func location(of path: String) -> SourceLocation? { entries[path]?.value }

    /// Where the key of the object member at `path` starts (its opening quote). Nil for the
    /// root and array elements.
    package func keyLocation(of path: String) -> SourceLocation? { entries[path]?.key }

    /// Where the string value at `path` has its content start (just after the opening quote).
    package func stringContentLocation(of path: String) -> SourceLocation? {
        stringContentLocation(of: path, scalarOffset: 0)
    }

    /// Maps a position inside the *decoded* string value at `path` (counted in Unicode
    /// scalars, e.g. the column a formula lexer reports, 0-based) to the file. Exact even
    /// with escapes: a position on an escaped scalar maps to the escape's backslash.
    /// `scalarOffset == count` maps to the closing quote; beyond that, or for non-strings,
    /// nil. (Strings cannot contain raw newlines, so the line is the value's line.)
    package func stringContentLocation(of path: String, scalarOffset: Int) -> SourceLocation? {
        guard let entry = entries[path], let start = entry.value, let source = entry.string,
            scalarOffset >= 0
        else { return nil }
        var column = start.column + 1
        var offset = start.offset + 1
        var escapeIndex = 0
        var index = 0
        for scalar in source.text.unicodeScalars {
            if index == scalarOffset { break }
            if escapeIndex < source.escapes.count, source.escapes[escapeIndex].scalarIndex == index {
                // Escapes are ASCII, so their source bytes and scalars are the same count.
                column += source.escapes[escapeIndex].sourceLength
                offset += source.escapes[escapeIndex].sourceLength
                escapeIndex += 1
            } else {
                column += 1
                offset += UTF8.width(scalar)
            }
            index += 1
        }
        guard index == scalarOffset else { return nil }
        return SourceLocation(line: start.line, column: column, offset: offset)
    }

    /// The path of member `key` of the object at `parent`.
    package static func memberPath(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : parent + "." + key
    }

    /// The path of element `index` of the array at `parent`.
    package static func elementPath(_ parent: String, _ index: Int) -> String {
        parent + "[" + String(index) + "]"
    }

    /// `original` (the bytes this document was parsed from) with exactly the bytes at
    /// `trailingCommaOffsets` removed: strict JSON, otherwise byte-identical to the file
    /// (whitespace and slotMap preserved). Returns `original` unchanged when
    /// there were none; offsets outside `original` are ignored.
    package func strictBytes(from original: [UInt8]) -> [UInt8] {
        if trailingCommaOffsets.isEmpty { return original }
        var out: [UInt8] = []
        out.reserveCapacity(original.count)
        var from = 0
        for comma in trailingCommaOffsets where comma >= from && comma < original.count {
            out.append(contentsOf: original[from..<comma])
            from = comma + 1
        }
        out.append(contentsOf: original[from...])
        return out
    }
}
