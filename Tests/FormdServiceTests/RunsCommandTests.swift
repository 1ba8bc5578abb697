import Foundation
import Testing

/// `formd runs` (scripts/wasm-parity's native side, docs/WASM.md): each run answers what
/// `formd validate|evaluate` with the same arguments answers as a process of its own: the same
/// stdout bytes, stderr and exit status, for valid, invalid and refused runs, through a parsed
/// command line and a loaded form that are kept from one run to the next.
@Suite("formd runs", .timeLimit(.minutes(2)))
struct RunsCommandTests {
    @Test func eachRunAnswersAsItsOwnProcess() throws {
        let folder = try TempFolder()
        let forms = RouteTests.forms
        let values = [
            #"{"email": "ola@example.com", "username": "ola_n", "password": "hunter22", "password_confirmation": "hunter22"}"#,
            #"{"email": "not an address", "username": "O"}"#, "{}", #"{"email": "#, "[1, 2]", "null",
        ]
        var runs: [[String]] = []
        for (i, v) in values.enumerated() {
            let file = try folder.write("values\(i).json", v)
            runs.append(["validate", "--forms", forms, "signup", file.path])
            runs.append(["validate", "--forms", forms, "--locale", "nb", "signup", file.path])
            runs.append(["evaluate", "--forms", forms, "--changed", "email", "signup", file.path])
        }
        let empty = try folder.write("empty.json", "{}")
        runs.append(["evaluate", "--forms", forms, "--changed", "no_such_field", "signup", empty.path])
        runs.append(["validate", "--forms", forms, "no-such-form", empty.path])
        runs.append(["validate", "--forms", forms, "--nope", "signup", empty.path])
        runs.append(["validate", "--forms", forms, "signup", empty.path])  // again: the kept command and form
        var lines = ""
        for args in runs {
            let line = try JSONSerialization.data(withJSONObject: ["args": args, "stdin": ""])
            lines += String(decoding: line, as: UTF8.self) + "\n"
        }
        // Values on standard input ("-"), as scripts/wasm-parity sends them.
        let stdinRun = ["validate", "--forms", forms, "signup", "-"]
        let stdinLine = try JSONSerialization.data(withJSONObject: ["args": stdinRun, "stdin": values[1]])
        lines += String(decoding: stdinLine, as: UTF8.self) + "\n"
        let input = try folder.write("runs.jsonl", lines)
        let batch = try FormdProcess.run(["runs", input.path], directory: folder.url)
        #expect(batch.status == 0, "\(batch.stderr)")
        let answers = batch.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(answers.count == runs.count + 1)
        for (args, answer) in zip(runs, answers) {
            let alone = try FormdProcess.run(args, directory: folder.url)
            #expect(answer?["status"] as? Int == Int(alone.status), "\(args)")
            #expect(answer?["stdout"] as? String == alone.stdout, "\(args)")
            #expect(answer?["stderr"] as? String == alone.stderr, "\(args)")
        }
        let viaFile = try FormdProcess.run(["validate", "--forms", forms, "signup", try folder.write("v1.json", values[1]).path], directory: folder.url)
        #expect(answers.last??["stdout"] as? String == viaFile.stdout, "values on stdin answer as from a file")
        #expect(answers.last??["status"] as? Int == 1)
    }
}
