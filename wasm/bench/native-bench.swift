// Native twin of wasm-bench.mjs: decode values + validate + answer bytes through the public API,
// N times, in one process. Built by scripts/wasm-bench against .build/release's FormdCore.
import FormdCore
import Foundation

let args = CommandLine.arguments
let definition = try Data(contentsOf: URL(fileURLWithPath: args[1]))
let values = Array(try Data(contentsOf: URL(fileURLWithPath: args[2])))
let n = args.count > 3 ? Int(args[3])! : 10000
let form = try Form(id: "employment", json: definition)
func once() -> Int {
    // As the module's `formd_validate` does for an object: the form's submission.
    try! form.validateAnswer(form.submission(fromJSON: values)).json.count
}
var bytes = 0
for _ in 0..<200 { bytes &+= once() }
let clock = ContinuousClock()
let t = clock.measure { for _ in 0..<n { bytes &+= once() } }
let us = Double(t.components.seconds) * 1e6 + Double(t.components.attoseconds) / 1e12
print("{\"native_us_per_validate\": \(String(format: "%.1f", us / Double(n))), \"calls\": \(n), \"answer_bytes\": \(once())}")
