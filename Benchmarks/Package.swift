// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for FormdCore, kept out of the root package so that `swift build` / `swift test`
// there never fetch or build package-benchmark.
//
//   swift package --package-path Benchmarks benchmark            # all benchmarks (release)
//   swift run -c release --package-path Benchmarks formd-bench    # plain driver (ContinuousClock), also for profilers
let package = Package(
    name: "formd-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` so that the product reference does not depend on the checkout directory's name.
        .package(name: "formd", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Fixture loading and the generator of large definitions/submissions (shared by both drivers).
        .target(
            name: "FormdBenchSupport",
            dependencies: [.product(name: "FormdCore", package: "formd")]
        ),
        // package-benchmark suite (the plugin discovers executable targets under Benchmarks/).
        .executableTarget(
            name: "FormdBenchmarks",
            dependencies: [
                "FormdBenchSupport",
                .product(name: "FormdCore", package: "formd"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FormdBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Plain driver without the malloc interposer: cross-check and profiling (callgrind/perf).
        .executableTarget(
            name: "formd-bench",
            dependencies: ["FormdBenchSupport", .product(name: "FormdCore", package: "formd")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
