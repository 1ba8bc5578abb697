import ArgumentParser
import Foundation

/// `formd`: serve, check, validate and evaluate Hyper-style form definitions.
struct Formd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formd",
        abstract: "Serves, checks and evaluates Hyper-style form definitions.",
        subcommands: [
            ServeCommand.self, CheckCommand.self, PublishCommand.self, ValidateCommand.self, EvaluateCommand.self, HealthcheckCommand.self,
            ConfigCommand.self, RunsCommand.self,
        ]
    )
}

/// Exit statuses of API.md: usage errors are 2 (ArgumentParser's default would be 64).
@main
enum Main {
    static func main() {
        do {
            var command = try Formd.parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            let code = Formd.exitCode(for: error)
            let message = Formd.fullMessage(for: error)
            if code == .success {
                print(message)
                exit(0)
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(2)
        }
    }
}

/// A usage or input problem: printed to standard error, exit 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func printError(_ text: String) {
    if let run = CapturedRun.current {
        run.stderr += Array((text + "\n").utf8)
        return
    }
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

func writeStdout(_ bytes: [UInt8]) {
    if let run = CapturedRun.current {
        run.stdout += bytes
        return
    }
    FileHandle.standardOutput.write(Data(bytes))
}

/// Standard input to its end (a run's `stdin` under `formd runs`).
func readStdin() -> [UInt8] {
    if let run = CapturedRun.current { return run.stdin }
    return Array(FileHandle.standardInput.readDataToEndOfFile())
}
