import ArgumentParser
import FormdCore
import Foundation

/// `formd runs`: many `formd validate|evaluate` runs in one process, for `scripts/wasm-parity`
/// (docs/WASM.md). One JSON line per run on standard input, `{"args": [...], "stdin": "..."}`;
/// one line per run on standard output, `{"status": N, "stdout": "...", "stderr": "..."}`: what
/// the run would have printed and its exit status, as a process of its own would. The protocol
/// of `scripts/formd-wasm batch`. Each run goes through the commands' own code (argument
/// parsing, loading, answering, exit statuses); only a form that loaded is kept for the next
/// runs that name it with the same `--forms` and `--locale` (files are not re-read), and so is a
/// command line that parsed (the same arguments parse to the same command).
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "Run many validate/evaluate commands in one process (JSON lines in and out; scripts/wasm-parity).",
        shouldDisplay: false
    )

    @Argument(help: "The runs, one JSON line each: a file, or - for standard input.")
    var input = "-"

    func run() throws {
        let source = try openInput(input, prefix: "formd runs: ")
        var pending: [UInt8] = []
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        var forms: [String: Form] = [:]
        var parsed: [[String]: any ParsableCommand] = [:]
        func handle(_ line: ArraySlice<UInt8>) throws {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let args = object["args"] as? [String]
            else {
                printError("formd runs: a line is not {\"args\": [...], \"stdin\": \"...\"}")
                throw ExitCode(2)
            }
            let run = CapturedRun(stdin: Array(((object["stdin"] as? String) ?? "").utf8), forms: forms)
            CapturedRun.current = run
            let status = Self.status(args, parsed: &parsed)
            CapturedRun.current = nil
            forms = run.forms
            out += Array(#"{"status":"#.utf8) + Array(String(status).utf8) + Array(#","stderr":"#.utf8)
            Self.appendJSONString(run.stderr, to: &out)
            out += Array(#","stdout":"#.utf8)
            Self.appendJSONString(run.stdout, to: &out)
            out += [0x7D, 0x0A]
            if out.count >= 1 << 16 {
                FileHandle.standardOutput.write(Data(out))
                out.removeAll(keepingCapacity: true)
            }
        }
        while true {
            let chunk = source.readData(ofLength: 1 << 16)
            if chunk.isEmpty { break }
            pending += chunk
            var start = pending.startIndex
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                try handle(pending[start..<nl])
                start = nl + 1
            }
            pending.removeSubrange(..<start)
        }
        try handle(pending[...])
        FileHandle.standardOutput.write(Data(out))
    }

    /// `bytes` (UTF-8; an invalid sequence becomes U+FFFD) as a JSON string.
    static func appendJSONString(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(0x22)
        let hex = Array("0123456789abcdef".utf8)
        for b in String(decoding: bytes, as: UTF8.self).utf8 {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case ..<0x20: out += [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(0x22)
    }

    /// One run's exit status, as `Main` would exit.
    static func status(_ args: [String], parsed: inout [[String]: any ParsableCommand]) -> Int32 {
        guard let name = args.first, name == "validate" || name == "evaluate" else {
            printError("formd runs: only validate and evaluate")
            return 2
        }
        do {
            var command: any ParsableCommand
            if let known = parsed[args] {
                command = known
            } else {
                command = try Formd.parseAsRoot(args)
                parsed[args] = command
            }
            try command.run()
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            let code = Formd.exitCode(for: error)
            let message = Formd.fullMessage(for: error)
            if code == .success {
                writeStdout(Array((message + "\n").utf8))
                return 0
            }
            printError(message)
            return 2
        }
    }
}

/// A run under `formd runs`: its standard input, what it wrote, and the forms loaded so far.
final class CapturedRun {
    /// The run in progress (`formd runs` is single-threaded).
    nonisolated(unsafe) static var current: CapturedRun?

    let stdin: [UInt8]
    var stdout: [UInt8] = []
    var stderr: [UInt8] = []
    var forms: [String: Form]

    init(stdin: [UInt8], forms: [String: Form]) {
        self.stdin = stdin
        self.forms = forms
    }

    /// The form for (`--forms`, FORM, `--locale`): loaded once, kept when it loaded.
    func form(_ form: String, forms directory: String, locale: String?, load: () throws -> Form) throws -> Form {
        let key = directory + "\u{0}" + form + "\u{0}" + (locale ?? "\u{1}")
        if let known = forms[key] { return known }
        let loaded = try load()
        forms[key] = loaded
        return loaded
    }
}
