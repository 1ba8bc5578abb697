// package-benchmark suite for FormdCore (issues 2 and 3).
//
//   swift package --package-path Benchmarks benchmark
//   swift package --package-path Benchmarks benchmark --filter "Employment.*"
//
// Workloads are built once, outside the measured region (globals are initialised in `setup`).
import Benchmark
import FormdBenchSupport
import FormdCore

let employment = Workload.employment()
let employmentInvalid = Workload.employmentInvalid()
let large1 = Workload.large(scale: 1)
let large10 = Workload.large(scale: 10)
let largeDefinition1 = LargeForm(scale: 1).definition()
let largeDefinition10 = LargeForm(scale: 10).definition()

let benchmarks: @Sendable () -> Void = {
    let perRequest: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]
    let large: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident]

    // 1. Employment form: one request as the service handles it.
    Benchmark(
        "Employment validate (decode + Evaluation + encode)",
        configuration: .init(metrics: perRequest, warmupIterations: 1000, maxDuration: .seconds(5), maxIterations: 1_000_000)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(employment.decodeValidateEncode()) }
    } setup: {
        blackHole(employment.form.id)
    }

    Benchmark(
        "Employment validate, invalid submission (decode + Evaluation + encode)",
        configuration: .init(metrics: perRequest, warmupIterations: 1000, maxDuration: .seconds(5), maxIterations: 1_000_000)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(employmentInvalid.decodeValidateEncode()) }
    } setup: {
        blackHole(employmentInvalid.form.id)
    }

    Benchmark(
        "Employment Evaluation only (pre-decoded submission)",
        configuration: .init(metrics: perRequest, warmupIterations: 1000, maxDuration: .seconds(5), maxIterations: 1_000_000)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(employment.validateOnly()) }
    } setup: {
        blackHole(employment.form.id)
    }

    // 2. Large generated form: one evaluation, and the same at 10x.
    Benchmark(
        "Large 10k fields: Evaluation (1k formulas, 1k conditions, 100 instances)",
        configuration: .init(metrics: large, warmupIterations: 3, maxDuration: .seconds(10), maxIterations: 500)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(large1.validateOnly()) }
    } setup: {
        blackHole(large1.form.id)
    }

    Benchmark(
        "Large x10 100k fields: Evaluation (10k formulas, 10k conditions, 1k instances)",
        configuration: .init(metrics: large, warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 50)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(large10.validateOnly()) }
    } setup: {
        blackHole(large10.form.id)
    }

    Benchmark(
        "Large 10k fields: decode + Evaluation + encode",
        configuration: .init(metrics: large, warmupIterations: 3, maxDuration: .seconds(10), maxIterations: 500)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(large1.decodeValidateEncode()) }
    } setup: {
        blackHole(large1.form.id)
    }

    // 3. Load + check of a generated definition.
    Benchmark(
        "Load + check 10k fields / 1k formulas",
        configuration: .init(metrics: large, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 100)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? Form(id: "large1", json: largeDefinition1))
        }
    } setup: {
        blackHole(largeDefinition1.count)
    }

    Benchmark(
        "Load + check x10 100k fields / 10k formulas",
        configuration: .init(metrics: large, warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 20)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? Form(id: "large10", json: largeDefinition10))
        }
    } setup: {
        blackHole(largeDefinition10.count)
    }
}
