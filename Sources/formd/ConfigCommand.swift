import ArgumentParser
import FormdService
import Foundation

/// `formd config`: the settings `serve` would run with, as a config file; or the defaults, or the
/// README's table of every key. All three come from the one list of settings.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the resolved settings as a config file (or the defaults, or the table of keys).",
        discussion: """
            Without options: the settings `formd serve` would use here, resolved as it resolves them \
            (command line, then FORMD_* environment variables, then the config file, then defaults), \
            printed as a JSON config file. Exit 2 if a setting cannot be used.
            """
    )

    @Option(help: "Config file (default: config/formd.json when it exists).")
    var config: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("Any setting, as KEY=VALUE (repeatable).", valueName: "key=value"))
    var settings: [String] = []
    @Flag(help: "Print the built-in defaults (what config/formd.json holds), ignoring environment and files.")
    var defaults = false
    @Flag(help: "Print the table of every key: environment variable, default, meaning (Markdown).")
    var reference = false

    func run() throws {
        if reference {
            print(ServiceConfiguration.referenceMarkdown(), terminator: "")
            return
        }
        if defaults {
            print(ServiceConfiguration().configFileJSON(), terminator: "")
            return
        }
        let resolved: ServiceConfiguration
        do {
            resolved = try ServiceConfiguration.resolve(
                commandLine: try settingFlags(settings), configFile: config ?? "config/formd.json",
                configFileIsExplicit: config != nil)
        } catch {
            printError("formd: \(error)")
            throw ExitCode(2)
        }
        print(resolved.configFileJSON(), terminator: "")
    }
}

/// `--set KEY=VALUE` flags as dotted keys; a flag without `=` (or without a key) exits 2.
func settingFlags(_ pairs: [String]) throws -> [String: String] {
    var flags: [String: String] = [:]
    for setting in pairs {
        guard let eq = setting.firstIndex(of: "="), eq != setting.startIndex else {
            printError("formd: --set expects KEY=VALUE, got \"\(setting)\"")
            throw ExitCode(2)
        }
        flags[String(setting[..<eq])] = String(setting[setting.index(after: eq)...])
    }
    return flags
}
