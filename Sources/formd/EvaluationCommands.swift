import ArgumentParser
import FormdCore
import Foundation

struct FormOptions: ParsableArguments {
    @Option(help: "Folder of form definitions, for FORM given as an id.")
    var forms = "Forms"

    @Option(help: "Message locale: en, nb or es.")
    var locale: String?
}

/// `formd validate [--forms DIR] [--locale TAG] [--ndjson] FORM SUBMISSION`: exit 0 valid, 1
/// invalid (a batch: some line invalid or not a values object), 2 bad input.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate a submission; prints the validate response body.",
        discussion: "Exit status: 0 valid, 1 invalid, 2 for a bad definition or usage."
    )

    @OptionGroup var options: FormOptions
    @Argument(help: "A form id (looked up in --forms) or a path to a .json definition.")
    var form: String
    @Argument(help: "The submission: a JSON file, or - for standard input. A file ending in .ndjson or .jsonl (or any input with --ndjson) is a batch: one values object a line, one answer line each.")
    var submission: String

    @Flag(help: "Read the submission as NDJSON (one values object a line) and print one validate answer per line, as POST /forms/{id}/validate/batch does; exit 1 when a line is invalid or not a values object.")
    var ndjson = false

    @Option(help: "With --ndjson: the longest line read (bytes); a longer line is answered with a line-too-long problem.")
    var maxLineBytes = 64 << 20

    func run() throws {
        if ndjson || submission.hasSuffix(".ndjson") || submission.hasSuffix(".jsonl") {
            let form = try OfflineRun.loadForm(form, options: options)
            let counts = try NDJSONBatch.run(form: form, path: submission, maxLineBytes: maxLineBytes)
            printError("formd validate: \(counts.lines) lines, \(counts.valid) valid, \(counts.invalid) invalid, \(counts.problems) problems")
            if counts.invalid + counts.problems > 0 { throw ExitCode(1) }
            return
        }
        let offline = try OfflineRun(form: form, submission: submission, options: options, changed: [])
        let answer: FormAnswer
        do {
            answer = try offline.form.validateAnswer(offline.values)
        } catch {
            // Rows formd cannot read: a problem of the values file, named as its other problems are.
            printError("\(submission): \(error.description)")
            throw ExitCode(2)
        }
        writeStdout(answer.json + [UInt8(ascii: "\n")])
        noteRemote(answer)
        if !answer.isValid { throw ExitCode(1) }
    }
}

/// `formd evaluate [--forms DIR] [--locale TAG] [--changed ID]... FORM VALUES`.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Evaluate values; prints the evaluate response body.",
        discussion: "Exit status: 0, or 2 for a bad definition or usage."
    )

    @OptionGroup var options: FormOptions
    @Option(help: "A field or dynamic section id whose value targets run (repeatable).")
    var changed: [String] = []
    @Argument(help: "A form id (looked up in --forms) or a path to a .json definition.")
    var form: String
    @Argument(help: "The values: a JSON file, or - for standard input.")
    var values: String

    func run() throws {
        let offline = try OfflineRun(form: form, submission: values, options: options, changed: changed)
        do {
            let answer = try offline.form.evaluateAnswer(offline.values, changed: offline.changed)
            writeStdout(answer.json + [UInt8(ascii: "\n")])
            noteRemote(answer)
        } catch {
            if case .badRows = error { printError("\(values): \(error.description)") }
            guard case .unknownChangedID(let unknown) = error else { throw ExitCode(2) }
            printError("--changed \(unknown): the form has no such field or dynamic section")
            throw ExitCode(2)
        }
    }
}

/// `formd validate FORM file.ndjson`: reads the batch in 64 KiB chunks and writes each answer
/// line as soon as it is made, so memory stays at one line and one answer whatever the batch's
/// size (API.md §10).
enum NDJSONBatch {
    static func run(form: Form, path: String, maxLineBytes: Int) throws -> BatchCounts {
        let input = try openInput(path)
        var counts = BatchCounts()
        var pending: [UInt8] = []
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        var number = 0
        var skipping = false  // inside a line past maxLineBytes: drop until its newline
        func flush(force: Bool) {
            if force || out.count >= 1 << 16 {
                writeStdout(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        func finish(_ line: ArraySlice<UInt8>) {
            number += 1
            counts.add(form.batchAnswerLine(line, number: number, locale: nil, into: &out))
            out.append(0x0A)
            flush(force: false)
        }
        while true {
            let chunk = input.readData(ofLength: 1 << 16)
            if chunk.isEmpty { break }
            var bytes = [UInt8](chunk)[...]
            while let nl = bytes.firstIndex(of: 0x0A) {
                if skipping {
                    skipping = false
                } else {
                    pending += bytes[..<nl]
                    finish(pending[...])
                }
                pending.removeAll(keepingCapacity: pending.count <= 1 << 20)
                bytes = bytes[(nl + 1)...]
            }
            if skipping { continue }
            pending += bytes
            if pending.count > maxLineBytes {
                number += 1
                Form.problemLine(number, slug: "line-too-long", detail: "a line of more than \(maxLineBytes) bytes (--max-line-bytes)", into: &out)
                out.append(0x0A)
                counts.add(.problem)
                pending.removeAll()
                skipping = true
            }
        }
        if !skipping, !pending.isEmpty { finish(pending[...]) }
        flush(force: true)
        return counts
    }
}

/// What validate and evaluate share: load the form, read the values, pick the locale.
struct OfflineRun {
    /// The form alone, with the run's locale and postal codes.
    static func loadForm(_ form: String, options: FormOptions) throws -> Form {
        do {
            var engine = EvaluationOptions(locale: negotiateLocale(query: options.locale, acceptLanguage: nil))
            if let path = ProcessInfo.processInfo.environment["FORMD_VALIDATORS_POSTAL_CODES"], !path.isEmpty {
                engine.postalCodes = try PostalCodeFile.load(path)
            }
            return try DefinitionFiles.loadForm(form, formsDirectory: options.forms, options: engine)
        } catch let e as UsageError {
            printError(e.description)
            throw ExitCode(2)
        }
    }

    /// The form, with the run's locale and postal codes.
    let form: Form
    let values: FormValues
    let changed: [String]

    init(form: String, submission: String, options: FormOptions, changed: [String]) throws {
        do {
            var engine = EvaluationOptions(locale: negotiateLocale(query: options.locale, acceptLanguage: nil))
            if let path = ProcessInfo.processInfo.environment["FORMD_VALIDATORS_POSTAL_CODES"], !path.isEmpty {
                engine.postalCodes = try PostalCodeFile.load(path)
            }
            if let run = CapturedRun.current {
                self.form = try run.form(form, forms: options.forms, locale: options.locale) {
                    try DefinitionFiles.loadForm(form, formsDirectory: options.forms, options: engine)
                }
            } else {
                self.form = try DefinitionFiles.loadForm(form, formsDirectory: options.forms, options: engine)
            }
            let bytes: [UInt8]
            if submission == "-" {
                bytes = readStdin()
            } else {
                guard let data = FileManager.default.contents(atPath: submission) else {
                    throw UsageError("cannot read \(submission)")
                }
                bytes = Array(data)
            }
            let document: FormValue
            do {
                document = try FormValue(json: bytes)
            } catch {
                throw UsageError("\(submission):\(error.line):\(error.column): \(error.message)")
            }
            switch document {
            case .object(let o): values = o
            case .null: values = FormValues()
            default: throw UsageError("\(submission): the values must be a JSON object")
            }
            self.changed = changed
        } catch let e as UsageError {
            printError(e.description)
            throw ExitCode(2)
        }
    }
}

enum PostalCodeFile {
    static func load(_ path: String) throws -> PostalCodeTable {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("validators.postal_codes: cannot read \(path)")
        }
        do {
            let doc = try JSONParser.parse(Array(data), options: .definition)
            return try PostalCodeTable(json: doc.root)
        } catch let e as JSONParseError {
            throw UsageError("validators.postal_codes: \(path):\(e.line):\(e.column): \(e.message)")
        } catch {
            throw UsageError("validators.postal_codes: \(path): \(error)")
        }
    }
}

/// The CLI calls no remote validator (API.md §10): say which rules stayed undecided.
func noteRemote(_ answer: FormAnswer) {
    for q in answer.remoteQuestions {
        printError("remote rule of \(q.field) (\(q.validator)) not asked: only the server decides it")
    }
}

/// Standard input for `-`, else the file at `path`; a file that cannot be read is a usage error
/// (exit 2) naming it, after `prefix`.
func openInput(_ path: String, prefix: String = "") throws -> FileHandle {
    if path == "-" { return FileHandle.standardInput }
    guard let h = FileHandle(forReadingAtPath: path) else {
        printError("\(prefix)cannot read \(path)")
        throw ExitCode(2)
    }
    return h
}
