/// Batch validation (API.md §4.2): NDJSON in, one validate answer per line out, in order. The
/// server's `POST /forms/{id}/validate/batch` and `formd validate FORM file.ndjson` both write
/// their lines through `batchAnswerLine`, so a line gets the same bytes from either.
///
/// Each line is parsed, validated and written on its own and then forgotten: the work per line
/// is one validate's, and nothing grows with the number of lines but the output.
public enum BatchOutcome: Sendable, Equatable {
    /// A values object that is valid (its answer says `"valid":true`).
    case valid
    /// A values object with errors.
    case invalid
    /// Not a values object (bad JSON, not an object, an empty line, or not reached in time):
    /// answered with a problem object naming the line.
    case problem
}

/// What a batch came to.
public struct BatchCounts: Sendable, Equatable {
    public var valid = 0
    public var invalid = 0
    public var problems = 0
    public var lines: Int { valid + invalid + problems }

    public init() {}

    public mutating func add(_ outcome: BatchOutcome) {
        switch outcome {
        case .valid: valid += 1
        case .invalid: invalid += 1
        case .problem: problems += 1
        }
    }
}

extension Form {
    /// Appends the answer line for input line `number` (1-based) to `out`, without the newline:
    /// the validate answer of its values object (the bytes `POST .../validate` answers), or a
    /// problem object `{"line", "type", "title", "status", "detail"}` (RFC 9457 members plus
    /// `line`) for a line that is not one. A trailing `\r` is ignored.
    public func batchAnswerLine(
        _ line: ArraySlice<UInt8>, number: Int, locale: SupportedLocale? = nil, into out: inout [UInt8]
    ) -> BatchOutcome {
        var line = line
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            Self.problemLine(number, slug: "not-an-object", detail: "an empty line: each line must be a values object", into: &out)
            return .problem
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(line, options: .submission).root
        } catch {
            Self.problemLine(number, slug: "invalid-json", detail: "column \(error.column): \(error.message)", into: &out)
            return .problem
        }
        guard case .object(let values) = root else {
            Self.problemLine(number, slug: "not-an-object", detail: "a line must be a values object", into: &out)
            return .problem
        }
        let evaluation: Evaluation
        do {
            evaluation = try Evaluation.of(plan: loaded.plan, values: values, mode: .validate, options: options(for: locale))
        } catch {
            Self.problemLine(number, slug: "bad-rows", detail: error.description, into: &out)
            return .problem
        }
        // Batches ask no remote validator (SEMANTICS §6.2): such a line is not decided here.
        if let q = evaluation.remoteQuestions.first {
            Self.problemLine(
                number, slug: "remote-not-asked", status: 503,
                detail: "the remote rule of \(q.field) (\(q.validator)) is not asked in batch validation; validate this submission on its own",
                into: &out)
            return .problem
        }
        var w = JSONWriter(reservingCapacity: 512)
        evaluation.validateResponse(head: loaded.answerHead, into: &w)
        out += w.bytes
        return evaluation.isValid ? .valid : .invalid
    }

    /// A problem line for input line `number`.
    public static func problemLine(_ number: Int, slug: String, status: Int = 400, detail: String, into out: inout [UInt8]) {
        var w = JSONWriter(reservingCapacity: 128)
        w.beginObject()
        w.key("line")
        w.rawValue(Array(String(number).utf8))
        w.key("type")
        w.string("/problems/" + slug)
        w.key("title")
        w.string(status == 400 ? "Bad Request" : status == 503 ? "Service Unavailable" : "Error")
        w.key("status")
        w.rawValue(Array(String(status).utf8))
        w.key("detail")
        w.string(detail)
        w.endObject()
        out += w.bytes
    }
}

/// The lines of an NDJSON buffer: split at `\n`; a last line without one counts when it is not
/// empty (a final newline ends the last line, it does not start another).
public struct NDJSONLines: Sequence, IteratorProtocol {
    let bytes: ArraySlice<UInt8>
    var position: Int

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    public mutating func next() -> ArraySlice<UInt8>? {
        guard position < bytes.endIndex else { return nil }
        let end = bytes[position...].firstIndex(of: 0x0A) ?? bytes.endIndex
        let line = bytes[position..<end]
        position = end == bytes.endIndex ? end : end + 1
        return line
    }

    /// How many lines `NDJSONLines` yields, counted without copying.
    public static func count(_ bytes: ArraySlice<UInt8>) -> Int {
        var n = 0
        for b in bytes where b == 0x0A { n += 1 }
        if let last = bytes.last, last != 0x0A { n += 1 }
        return n
    }
}
