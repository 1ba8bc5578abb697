// Plain benchmark driver (no malloc interposer): the same workloads as the package-benchmark
// suite, timed with ContinuousClock. Also the program to run under callgrind / perf.
//
//   swift run -c release --package-path Benchmarks formd-bench [scenario...] [--runs N] [--seconds S]
//   formd-bench --profile employment --iterations 20000      # untimed loop for a profiler
//   formd-bench --dump employment                             # print the response evaluated
//   formd-bench --cold large large-x10    # each op timed alone after evicting the caches
//   formd-bench --threads 2 employment    # 2 threads on one shared form, as the server's workers
//   formd-bench --threads 2 --unshared employment   # the control: each thread its own form
//
// Scenarios: employment, employment-invalid, rulecost-plain, rulecost-formulas, rulecost-rules, large, large-x10, large-e2e, large-x10-e2e, load, load-employment, load-x10
// (default: all).
import FormdBenchSupport
import FormdCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Scenario {
    let name: String
    let what: String
    let prepare: () -> () -> Int
}

let scenarios: [Scenario] = [
    Scenario(name: "employment", what: "decode + validate + encode, valid ~300 B submission") {
        let w = Workload.employment()
        return { w.decodeValidateEncode() }
    },
    Scenario(name: "employment-invalid", what: "decode + validate + encode, 9 errors") {
        let w = Workload.employmentInvalid()
        return { w.decodeValidateEncode() }
    },
    Scenario(name: "employment-typed", what: "decode + Form.validate (typed FormState) + answerJSON: the API an app uses") {
        let w = Workload.employment()
        return { w.typedValidate() }
    },
    Scenario(name: "employment-eval", what: "Evaluation only (pre-decoded submission)") {
        let w = Workload.employment()
        return { w.validateOnly() }
    },
    Scenario(name: "rulecost-plain", what: "100 count fields: one Evaluation (the base of the two below)") {
        let w = RuleCostForm.workload(.plain)
        return { w.validateOnly() }
    },
    Scenario(name: "rulecost-formulas", what: "the same plus 100 formulas `aN * 2 + aN+1 - 3`: one Evaluation") {
        let w = RuleCostForm.workload(.formulas)
        return { w.validateOnly() }
    },
    Scenario(name: "rulecost-rules", what: "the same 100 fields, each with the rule `$aN * 2 + $aN+1 - 3 >= 0`: one Evaluation") {
        let w = RuleCostForm.workload(.rules)
        return { w.validateOnly() }
    },
    Scenario(name: "large", what: "10k fields, 1k formulas, 1k conditions, 100 instances: one Evaluation") {
        let w = Workload.large(scale: 1)
        return { w.validateOnly() }
    },
    Scenario(name: "large-x10", what: "100k fields, 10k formulas, 10k conditions, 1k instances: one Evaluation") {
        let w = Workload.large(scale: 10)
        return { w.validateOnly() }
    },
    Scenario(name: "rows-flat", what: "500 instances of a repeating section as flat keys: decode + validate + encode") {
        let w = RowsForm.workload(rows: false)
        return { w.decodeValidateEncode() }
    },
    Scenario(name: "rows-nested", what: "the same 500 instances as rows (API.md 4.3): decode + validate + encode") {
        let w = RowsForm.workload(rows: true)
        return { w.decodeValidateEncode() }
    },
    Scenario(name: "large-e2e", what: "10k fields: decode + validate + encode") {
        let w = Workload.large(scale: 1)
        return { w.decodeValidateEncode() }
    },
    Scenario(name: "large-x10-e2e", what: "100k fields: decode + validate + encode") {
        let w = Workload.large(scale: 10)
        return { w.decodeValidateEncode() }
    },
    Scenario(name: "load", what: "Form(id:json:) of 10k fields / 1k formulas (parse + check + compile)") {
        let bytes = LargeForm(scale: 1).definition()
        return { (try? Form(id: "large1", json: bytes)) == nil ? 0 : 1 }
    },
    Scenario(name: "load-employment", what: "Form(id:json:) of the employment form (8.4 KB) beside a loaded copy: a cold form on a busy host") {
        let w = Workload.employment()
        // A loaded copy keeps its `format` patterns alive, as the forms already in use do on a server,
        // so the interned patterns are reused; without it every load compiles them (about twice the cost).
        let pinned = try? Form(id: "pinned", json: w.definitionBytes)
        return { (try? Form(id: "employment", json: w.definitionBytes)) == nil || pinned == nil ? 0 : 1 }
    },
    Scenario(name: "load-x10", what: "Form(id:json:) of 100k fields / 10k formulas") {
        let bytes = LargeForm(scale: 10).definition()
        return { (try? Form(id: "large10", json: bytes)) == nil ? 0 : 1 }
    },
]

@MainActor func scenario(_ name: String) -> Scenario {
    guard let s = scenarios.first(where: { $0.name == name }) else {
        print("unknown scenario \(name); known: \(scenarios.map(\.name).joined(separator: ", "))")
        exit(2)
    }
    return s
}

func format(_ d: Duration) -> String {
    let ns = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
    if ns < 1_000 { return String(format3(ns)) + " ns" }
    if ns < 1_000_000 { return format3(ns / 1e3) + " µs" }
    if ns < 1_000_000_000 { return format3(ns / 1e6) + " ms" }
    return format3(ns / 1e9) + " s"
}

func format3(_ x: Double) -> String {
    let r = (x * 100).rounded() / 100
    return "\(r)"
}

func nanos(_ d: Duration) -> Double { Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9 }

var args = Array(CommandLine.arguments.dropFirst())
var runs = 3
var seconds = 2.0
var names: [String] = []
var profile: String?
var dump: String?
var iterations = 10_000
/// Evict the CPU caches (write a buffer several times the L3) before each op, timed alone: the
/// cost of an evaluation whose form and submission are not in cache.
var cold = false
/// Threads running the scenario at once on one prepared workload (one form, shared as the
/// server's workers share it): what writes to shared memory (reference counts) cost across cores.
var threads = 1
/// With `--threads`: each thread its own workload (`--unshared`), the control for the sharing.
var shared = true
while !args.isEmpty {
    let a = args.removeFirst()
    switch a {
    case "--runs": runs = Int(args.removeFirst()) ?? 3
    case "--seconds": seconds = Double(args.removeFirst()) ?? 2
    case "--profile": profile = args.removeFirst()
    case "--iterations": iterations = Int(args.removeFirst()) ?? 10_000
    case "--dump": dump = args.removeFirst()
    case "--cold": cold = true
    case "--threads": threads = max(1, Int(args.removeFirst()) ?? 1)
    case "--unshared": shared = false
    default: names.append(a)
    }
}

if let dump {
    let w: Workload
    switch dump {
    case "employment": w = .employment()
    case "employment-invalid": w = .employmentInvalid()
    case "large": w = .large(scale: 1)
    default: print("dump: employment | employment-invalid | large"); exit(2)
    }
    print(w.responseText())
    exit(0)
}

if let profile {
    let body = scenario(profile).prepare()
    var sink = 0
    for _ in 0..<iterations { sink &+= body() }
    print("\(profile): \(iterations) iterations, sink \(sink)")
    exit(0)
}

/// 128 MiB, written then read: larger than any L3 this runs on.
nonisolated(unsafe) let evictionBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 128 << 20, alignment: 64)
nonisolated(unsafe) var evictionSink = 0
func evictCaches() {
    let words = evictionBuffer.bindMemory(to: Int.self)
    for i in stride(from: 0, to: words.count, by: 8) { words[i] &+= 1 }
    var x = 0
    for i in stride(from: 0, to: words.count, by: 8) { x &+= words[i] }
    evictionSink &+= x
}

if names.isEmpty { names = scenarios.map(\.name) }
if threads > 1 {
    runThreaded(names, threads: threads, runs: runs, seconds: seconds, shared: shared)
    exit(0)
}
print("formd-bench: release=\(!_isDebugAssertConfiguration()), runs=\(runs), ~\(seconds) s each\(cold ? ", cold caches" : "")")
let clock = ContinuousClock()
for name in names {
    let s = scenario(name)
    let body = s.prepare()
    // Warm-up, and calibrate a batch of about 10 ms.
    var sink = body()
    var batch = 1
    while !cold {
        let t = clock.measure { for _ in 0..<batch { sink &+= body() } }
        if nanos(t) > 10_000_000 || batch >= 1 << 20 { break }
        batch *= 2
    }
    var perOp: [Double] = []
    var minSingle = Double.infinity
    for _ in 0..<runs {
        var total = Duration.zero
        var ops = 0
        let start = clock.now
        while clock.now - start < .milliseconds(Int64(seconds * 1000)) {
            if cold { evictCaches() }
            let t = clock.measure { for _ in 0..<batch { sink &+= body() } }
            total += t
            ops += batch
            if batch == 1 { minSingle = min(minSingle, nanos(t)) }
        }
        perOp.append(nanos(total) / Double(ops))
    }
    let sorted = perOp.sorted()
    let best = sorted[0]
    let median = sorted[sorted.count / 2]
    var line = "\(s.name): best \(format(.nanoseconds(Int64(best)))) / op (\(Int(1e9 / best)) op/s), "
    line += "median \(format(.nanoseconds(Int64(median)))) / op (\(Int(1e9 / median)) op/s)"
    if minSingle.isFinite { line += ", fastest single \(format(.nanoseconds(Int64(minSingle))))" }
    print(line + "   [\(s.what)] (sink \(sink & 1))")
}
