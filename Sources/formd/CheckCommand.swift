import ArgumentParser
import FormdCore
import FormdService
import Foundation

/// `formd check [PATH ...]`: one `FILE:LINE:COL: error|warning: MESSAGE` line per problem.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check definition files or folders; exit 1 when any has an error.",
        discussion: """
            Prints FILE:LINE:COL: error: MESSAGE (or warning:) per problem on standard output, and a \
            summary of what was checked on standard error. With --strict, warnings fail too.
            """
    )

    @Argument(help: "Definition files or folders (default: Forms).")
    var paths: [String] = []
    @Option(help: "Larger files are refused unread, as the server does (forms.max_file_bytes).")
    var maxFileBytes = DefinitionFile.defaultMaxBytes
    @Flag(help: "Exit 1 on warnings too (unknown keys, kinds that resemble built-in ones, target loops, ...).")
    var strict = false
    @Option(help: ArgumentHelp(
        "Also report breaking changes against an earlier definition (a file, or a folder whose <id>.json each checked form is compared with).",
        valueName: "old"))
    var against: String?
    @Flag(help: "With --against: breaking changes are warnings, not errors.")
    var allow = false
    @Option(help: ArgumentHelp(
        "The settings file whose validators.remote the definitions' remote rules must name (without it, remote validator names are not checked).",
        valueName: "file"))
    var config: String?

    func validate() throws {
        guard maxFileBytes > 0 else { throw ValidationError("--max-file-bytes must be positive") }
    }

    func run() throws {
        var out = ""
        var files = 0, forms = 0, errors = 0, warnings = 0
        var declared: Set<String>?
        if let config {
            do {
                declared = Set(
                    try ServiceConfiguration.resolve(environment: [:], configFile: config, configFileIsExplicit: true).remoteValidators.map(\.name))
            } catch {
                FileHandle.standardError.write(Data("formd check: \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        let remote = RemoteNameCheck(declared: declared)
        for path in paths.isEmpty ? ["Forms"] : paths {
            for (file, found) in DefinitionFiles.check(path: path, maxFileBytes: maxFileBytes, remote: remote) {
                files += 1
                var problems = found
                if let against, !problems.contains(where: { $0.severity == .error }) {
                    problems += DefinitionFiles.breakingChanges(file, against: against, allow: allow, maxFileBytes: maxFileBytes)
                }
                for d in problems { out += d.formatted(file: file) + "\n" }
                let e = problems.count { $0.severity == .error }
                errors += e
                warnings += problems.count - e
                if e == 0 { forms += 1 }
            }
        }
        writeStdout(Array(out.utf8))
        if declared == nil, remote.unchecked > 0 {
            FileHandle.standardError.write(Data(
                "formd check: \(remote.unchecked) remote rule\(remote.unchecked == 1 ? "" : "s") not checked against validators.remote (give --config FILE to check the names)\n".utf8))
        }
        let verdict = errors > 0 || (strict && warnings > 0) ? "failed" : "ok"
        FileHandle.standardError.write(Data(
            "formd check: \(files) file\(files == 1 ? "" : "s"), \(forms) form\(forms == 1 ? "" : "s") loadable, \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\(strict ? " (strict)" : ""): \(verdict)\n".utf8))
        if verdict == "failed" { throw ExitCode(1) }
    }
}

enum DefinitionFiles {
    /// Checks a file, or every `*.json` of a folder (not its sub-folders), sorted by name.
    static func check(path: String, maxFileBytes: Int, remote: RemoteNameCheck = RemoteNameCheck(declared: nil)) -> [(String, [Diagnostic])] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return [(path, [Diagnostic(.error, path: "", message: "no such file or folder")])]
        }
        guard isDirectory.boolValue else { return [(path, checkFile(path, maxFileBytes: maxFileBytes, remote: remote))] }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return names.map { name in
            let file = (path as NSString).appendingPathComponent(name)
            let id = String(name.dropLast(5))
            // A kept version (`formd publish`): it must load and hash to its name.
            if let kept = KeptVersionName(fileName: name) {
                switch KeptVersionName.load(path: file, name: kept, maxFileBytes: maxFileBytes, options: EvaluationOptions(), declaredRemote: remote.declared) {
                case .success(let form):
                    if remote.declared == nil { remote.unchecked += form.remoteRules.count }
                    return (file, form.warnings)
                case .failure(let error): return (file, error.diagnostics)
                }
            }
            if !Form.isValidID(id) {
                return (file, [Diagnostic(.warning, path: "", message: "\"\(id)\" is not a valid form id; the file is not served")])
            }
            return (file, checkFile(file, maxFileBytes: maxFileBytes, remote: remote))
        }
    }

    static func checkFile(_ file: String, maxFileBytes: Int, remote: RemoteNameCheck = RemoteNameCheck(declared: nil)) -> [Diagnostic] {
        switch DefinitionFile.read(file, limit: maxFileBytes) {
        case .failure(let failure):
            return [Diagnostic(.error, path: "", message: failure.description)]
        case .success(let read):
            let id = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            do {
                let form = try Form(id: id, json: read.bytes)
                guard let declared = remote.declared else {
                    remote.unchecked += form.remoteRules.count
                    return form.warnings
                }
                return (form.warnings + form.undeclaredRemoteValidators(declared: declared)).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
            } catch {
                return error.diagnostics
            }
        }
    }

    /// `formd check --against OLD`: the breaking changes from OLD (a file, or `<id>.json` in a
    /// folder) to `file`; nothing when there is no earlier definition of it.
    static func breakingChanges(_ file: String, against: String, allow: Bool, maxFileBytes: Int) -> [Diagnostic] {
        let name = (file as NSString).lastPathComponent
        guard KeptVersionName(fileName: name) == nil else { return [] }
        let id = (name as NSString).deletingPathExtension
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: against, isDirectory: &isDirectory) else {
            return [Diagnostic(.error, path: "", message: "--against \(against): no such file or folder")]
        }
        let oldFile = isDirectory.boolValue ? (against as NSString).appendingPathComponent(name) : against
        guard case .success(let oldRead) = DefinitionFile.read(oldFile, limit: maxFileBytes) else { return [] }
        guard case .success(let newRead) = DefinitionFile.read(file, limit: maxFileBytes),
            let new = try? Form(id: id, json: newRead.bytes)
        else { return [] }
        guard let old = try? Form(id: id, json: oldRead.bytes) else {
            return [Diagnostic(.warning, path: "", message: "--against: \(oldFile) does not load; no breaking-change check")]
        }
        return BreakingChanges.lint(old: old, new: new, allow: allow, newBytes: newRead.bytes)
    }

    /// Loads FORM: a path to a `.json` file, or a form id looked up in `formsDirectory`.
    static func loadForm(_ form: String, formsDirectory: String, options: EvaluationOptions = EvaluationOptions()) throws -> Form {
        let isPath = form.hasSuffix(".json") || form.contains("/")
        let file = isPath ? form : (formsDirectory as NSString).appendingPathComponent(form + ".json")
        let bytes: [UInt8]
        switch DefinitionFile.read(file, limit: DefinitionFile.defaultMaxBytes) {
        case .success(let read): bytes = read.bytes
        case .failure(.unreadable) where !isPath: throw UsageError("no form \"\(form)\" in \(formsDirectory)")
        case .failure(let failure): throw UsageError("\(file): \(failure)")
        }
        let id = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        do {
            return try Form(id: id, json: bytes, options: options)
        } catch {
            let lines = error.diagnostics.filter { $0.severity == .error }.map { $0.formatted(file: file) }
            throw UsageError(lines.joined(separator: "\n"))
        }
    }
}

/// `formd check --config`: the remote validator names the settings declare (nil: not given,
/// then the remote rules met are counted and reported as unchecked).
final class RemoteNameCheck {
    let declared: Set<String>?
    var unchecked = 0
    init(declared: Set<String>?) { self.declared = declared }
}
