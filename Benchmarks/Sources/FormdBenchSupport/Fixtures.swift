@_spi(Benchmarks) import FormdCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The committed fixtures in `Benchmarks/Fixtures/`, located from this source file.
public enum Fixtures {
    /// `Benchmarks/Fixtures/`, found relative to this file (the benchmarks run from a checkout).
    public static let directory: String = {
        var path = #filePath
        for _ in 0..<3 {  // …/Benchmarks/Sources/FormdBenchSupport/Fixtures.swift
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path + "/Fixtures"
    }()

    public static func bytes(_ name: String) -> [UInt8] {
        let path = directory + "/" + name
        guard let file = fopen(path, "rb") else { fatalError("cannot open \(path)") }
        defer { fclose(file) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, file) }
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }
}

/// A loaded form plus a submission, ready to evaluate, through the public `Form` API (the door
/// the server uses) and one `@_spi(Benchmarks)` entry for the evaluation alone.
public struct Workload: Sendable {
    public let form: Form
    public let definitionBytes: [UInt8]
    public let submissionBytes: [UInt8]
    /// The submission decoded once, for benchmarks that time the evaluation alone.
    public let submission: FormValues

    public init(id: String, definition: [UInt8], submission: [UInt8]) {
        do {
            form = try Form(id: id, json: definition)
        } catch {
            let problems = error.diagnostics.prefix(10).map { "\($0)" }.joined(separator: "\n")
            fatalError("benchmark form \(id) rejected:\n\(problems)")
        }
        self.definitionBytes = definition
        self.submissionBytes = submission
        self.submission = Self.decode(submission)
    }

    static func decode(_ bytes: [UInt8]) -> FormValues {
        do {
            return try FormValues(json: bytes)
        } catch {
            fatalError("submission does not parse: \(error.message)")
        }
    }

    /// One request as the server does it: decode the body (`Form.submission(fromJSON:)`),
    /// validate, write the answer (`Form.validateAnswer`). Returns the answer's size so the work
    /// cannot be optimised away.
    @inline(never)
    public func decodeValidateEncode() -> Int {
        guard let submission = try? form.submission(fromJSON: submissionBytes) else { fatalError("submission does not parse") }
        return (try? form.validateAnswer(submission))?.json.count ?? 0
    }

    /// The same request through the typed API an app uses: `Form.validate` builds a `FormState`,
    /// which is then written as the answer. Returns the answer's size.
    @inline(never)
    public func typedValidate() -> Int {
        let values = (try? FormValues(json: submissionBytes)) ?? [:]
        return (try? form.validate(values))?.answerJSON.count ?? 0
    }

    /// The evaluation alone, on the pre-decoded submission. Returns the number of errors.
    @inline(never)
    public func validateOnly() -> Int {
        form.benchmarkEvaluation(submission)
    }

    /// The answer, for a check of what the benchmark evaluates.
    public func responseText() -> String {
        String(decoding: (try? form.validateAnswer(submission))?.json ?? [], as: UTF8.self)
    }

    public static func employment() -> Workload {
        Workload(
            id: "employment", definition: Fixtures.bytes("employment.json"),
            submission: Fixtures.bytes("employment-submission.json"))
    }

    public static func employmentInvalid() -> Workload {
        Workload(
            id: "employment", definition: Fixtures.bytes("employment.json"),
            submission: Fixtures.bytes("employment-submission-invalid.json"))
    }

    /// The generated large form at `scale` (1: 10,000 fields) with its submission.
    public static func large(scale: Int) -> Workload {
        let g = LargeForm(scale: scale)
        return Workload(id: "large\(scale)", definition: g.definition(), submission: g.submission())
    }
}

/// 100 `count` fields `a0`…`a99`, all valid, and per field either nothing, a numeric formula
/// field `fN = aN * 2 + aN+1 - 3`, or an expression rule on `aN` with the same expression
/// (`$aN * 2 + $aN+1 - 3 >= 0`): what a rule costs beside a formula of the same size (SEMANTICS §6).
public enum RuleCostForm {
    public enum Variant: Sendable { case plain, formulas, rules }

    public static func workload(_ variant: Variant) -> Workload {
        var fields: [String] = []
        var values: [String] = []
        for i in 0..<100 {
            let next = "a\((i + 1) % 100)"
            switch variant {
            case .plain, .formulas:
                fields.append(#"{"id": "a\#(i)", "type": "count"}"#)
            case .rules:
                fields.append(#"{"id": "a\#(i)", "type": "count", "validations": {"rules": [{"condition": "$a\#(i) * 2 + $\#(next) - 3 >= 0"}]}}"#)
            }
            if variant == .formulas {
                fields.append(#"{"id": "f\#(i)", "type": "count", "formula": "a\#(i) * 2 + \#(next) - 3"}"#)
            }
            values.append(#""a\#(i)": \#(i + 2)"#)
        }
        let definition = #"[{"id": "g", "sections": [{"id": "s", "fields": ["# + fields.joined(separator: ",") + "]}]}]"
        return Workload(id: "rulecost", definition: Array(definition.utf8), submission: Array(("{" + values.joined(separator: ",") + "}").utf8))
    }
}
