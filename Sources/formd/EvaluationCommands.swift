import ArgumentParser
import FormdCore
import Foundation

struct FormOptions: ParsableArguments {
    @Option(help: "Folder of form definitions, for FORM given as an id.")
    var forms = "Forms"

    @Option(help: "Message locale: en, nb or es.")
    var locale: String?
}

/// `formd validate [--forms DIR] [--locale TAG] FORM SUBMISSION`: exit 0 valid, 1 invalid, 2 bad input.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate a submission; prints the validate response body.",
        discussion: "Exit status: 0 valid, 1 invalid, 2 for a bad definition or usage."
    )

    @OptionGroup var options: FormOptions
    @Argument(help: "A form id (looked up in --forms) or a path to a .json definition.")
    var form: String
    @Argument(help: "The submission: a JSON file, or - for standard input.")
    var submission: String

    func run() throws {
        let offline = try OfflineRun(form: form, submission: submission, options: options, changed: [])
        let answer = offline.form.validateAnswer(offline.values)
        writeStdout(answer.json + [UInt8(ascii: "\n")])
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
        } catch {
            guard case .unknownChangedID(let unknown) = error else { throw ExitCode(2) }
            printError("--changed \(unknown): the form has no such field or dynamic section")
            throw ExitCode(2)
        }
    }
}

/// What validate and evaluate share: load the form, read the values, pick the locale.
struct OfflineRun {
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
            self.form = try DefinitionFiles.loadForm(form, formsDirectory: options.forms, options: engine)
            let bytes: [UInt8]
            if submission == "-" {
                bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
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
