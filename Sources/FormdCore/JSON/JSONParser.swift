/// Strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Rejected beyond the grammar: invalid UTF-8 anywhere, lone surrogates in `\u` escapes,
/// duplicate object keys, nesting deeper than `maxDepth`, number literals longer than
/// `maxNumberLength`, and a leading byte order mark (RFC 8259 §8.1 lets parsers ignore
/// it; formd reports it instead, because a BOM'd file is usually an editor accident and
/// skipping it would shift every served byte offset).
///
/// Duplicate keys are compared with Swift `String` equality, i.e. canonically equivalent
/// keys ("é" precomposed vs. "e" + U+0301) count as duplicates: `JSONObject` lookup uses
/// the same equality, so such a pair would otherwise silently shadow one another.
package enum JSONParser {
    package struct Options: Sendable, Hashable {
        /// Accept one trailing comma before `]` or `}` (form definitions only); the
        /// removed commas' offsets are in `JSONDocument.trailingCommaOffsets`.
        package var allowTrailingCommas: Bool
        /// Deepest allowed container nesting (the root container is depth 1). Clamped to
        /// 1...512: the parser recurses once per level.
        package var maxDepth: Int
        /// Longest allowed number literal, in characters (sign and exponent included).
        package var maxNumberLength: Int
        /// Longest allowed string (values and keys), in source bytes between the quotes
        /// (escapes counted as written). Nil: unlimited.
        package var maxStringBytes: Int?
        /// Record a `SourceLocation` for every value and key (costs time and memory).
        package var recordLocations: Bool

        package init(
            allowTrailingCommas: Bool = false,
            maxDepth: Int = 64,
            maxNumberLength: Int = 64,
            maxStringBytes: Int? = nil,
            recordLocations: Bool = false
        ) {
            self.allowTrailingCommas = allowTrailingCommas
            self.maxDepth = maxDepth
            self.maxNumberLength = maxNumberLength
            self.maxStringBytes = maxStringBytes
            self.recordLocations = recordLocations
        }

        /// Request bodies: strict, no locations.
        package static let submission = Options()
        /// Form definition files: trailing commas allowed, locations recorded.
        package static let definition = Options(allowTrailingCommas: true, recordLocations: true)
    }

    package static func parse(
        _ bytes: [UInt8], options: Options = Options()
    ) throws(JSONParseError) -> JSONDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            try parse(buffer: buffer, options: options)
        }
    }

    /// Offsets in the result are relative to the slice's first element.
    package static func parse(
        _ bytes: ArraySlice<UInt8>, options: Options = Options()
    ) throws(JSONParseError) -> JSONDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            try parse(buffer: buffer, options: options)
        }
    }

    package static func parse(
        _ bytes: UnsafeRawBufferPointer, options: Options = Options()
    ) throws(JSONParseError) -> JSONDocument {
        try bytes.withMemoryRebound(to: UInt8.self) { (buffer) throws(JSONParseError) in
            try parse(buffer: buffer, options: options)
        }
    }

    package static func parse(
        _ string: String, options: Options = Options()
    ) throws(JSONParseError) -> JSONDocument {
        var string = string
        // `withUTF8` only rethrows untyped errors; carry the typed one out in a Result.
        let result = string.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try parse(buffer: buffer, options: options) }
        }
        return try result.get()
    }

    static func parse(
        buffer: UnsafeBufferPointer<UInt8>, options: Options, keyHints: KeyHints.View? = nil
    ) throws(JSONParseError) -> JSONDocument {
        // The members start on the stack (`MemberStack.withLentRoom`): a submission's parse
        // then allocates only its arrays and long strings (one allocation and its release less,
        // about 130 instructions under callgrind).
        let result = MemberStack.withLentRoom { room -> Result<JSONDocument, JSONParseError> in
            var parser = JSONParserCore(buffer: buffer, options: options)
            parser.members = MemberStack(lending: room)
            parser.keyHints = keyHints
            defer { parser.members.release() }
            do throws(JSONParseError) {
                let root = try parser.parseDocument()
                // Taken out of the parser, not copied (a copy in this closure retained both).
                var commas: [Int] = []
                var entries = [String: JSONDocument.Entry]()
                swap(&commas, &parser.trailingCommas)
                swap(&entries, &parser.entries)
                return .success(JSONDocument(root: root, trailingCommaOffsets: commas, entries: entries))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
