import ArgumentParser
import FormdService
import Foundation

/// `formd publish NEW --forms DIR [--keep N]`: puts a checked definition in place and keeps the
/// one it replaces as an earlier version (API.md "Versions").
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Put a new definition of a form in place, keeping the one it replaces as an earlier version.",
        discussion: """
            Checks NEW_DEFINITION (as `formd check` does) and against the current definition of the \
            same form (breaking changes: a field's type changed, an option id removed or given \
            another title, a required field added without a default; errors unless --allow). Then \
            writes the current definition, byte for byte, as the kept file \
            <id>.<published>.<hash>.json and renames NEW_DEFINITION's bytes over <id>.json, each \
            atomically, so a replica watching DIR sees the old or the new form and holds both. A kept \
            version answers with exactly the version it had when current. The oldest kept versions \
            past --keep are removed (without --keep: the new definition's "keep_versions", else 10). A definition that fails changes nothing. Exit 0 published (or \
            unchanged), 1 refused, 2 usage.
            """
    )

    @Argument(help: ArgumentHelp("The new definition (its file name gives the form id unless --id).", valueName: "new-definition"))
    var definition: String
    @Option(help: "Folder of form definitions (a ConfigMap's source folder: kept versions are flat files beside the forms).")
    var forms: String = "Forms"
    @Option(help: "Form id (default: the new definition's file name without .json).")
    var id: String?
    @Option(help: "Kept versions per form; older ones are removed (default: the definition's \"keep_versions\", else 10).")
    var keep: Int?
    @Flag(help: "Publish despite breaking changes (reported as warnings).")
    var allow = false

    func validate() throws {
        if let keep, keep < 0 || keep > 1000 { throw ValidationError("--keep must be in 0...1000") }
    }

    func run() throws {
        let outcome: Publisher.Outcome
        do {
            outcome = try Publisher.publish(definition: definition, forms: forms, id: id, keep: keep, allow: allow)
        } catch {
            print(error.description)
            FileHandle.standardError.write(Data("formd publish: refused; nothing changed in \(forms)\n".utf8))
            throw ExitCode(1)
        }
        for w in outcome.warnings { print(w) }
        var lines: [String] = []
        if outcome.unchanged {
            lines.append("formd publish: \(outcome.id) is already at \(outcome.version); nothing changed")
        } else {
            lines.append("formd publish: \(outcome.id) is now \(outcome.version)" + (outcome.replaced.map { ", replacing \($0)" } ?? " (a new form)"))
            if let kept = outcome.keptFile { lines.append("  kept \(kept)") }
            for p in outcome.pruned { lines.append("  removed \(p)") }
            lines.append("  (a ConfigMap built from \(forms) must list the kept files too: config/kubernetes/kustomization.yaml)")
        }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
