// swift-tools-version:6.1
import PackageDescription

// Layers, dependencies pointing one way:
//   FormdCore (form model + rules engine, Foundation only, no I/O)
//   FormdHTTP (HTTP/1.1 server on POSIX sockets + Dispatch; knows nothing about forms)
//   FormdService (routes, config, registry, metrics) -> FormdCore, FormdHTTP, FormdWeb
//   FormdClient (Swift client over URLSession, offline evaluation) -> FormdCore
//   FormdWeb (the browser client's files: formd.js, its style sheet, the page at `/`)
//   formd (executable) -> FormdService
let package = Package(
    name: "formd",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "FormdCore", targets: ["FormdCore"]),
        .library(name: "FormdClient", targets: ["FormdClient"]),
        .executable(name: "formd", targets: ["formd"]),
    ],
    // `Server` (on by default) brings the server's dependencies. An app that only wants the
    // engine and the client depends on formd with `traits: []`: SwiftPM then resolves, fetches
    // and builds none of them (every reference to them below is guarded by the trait).
    traits: [
        .trait(name: "Server", description: "The server and the formd command's dependencies (argument parsing, configuration, logging, metrics)."),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Providers and precedence of the settings; no traits: formd reads its JSON file itself
        // (file:line:col errors, unknown keys refused).
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "FormdCore",
            // `format` regexes use the toolchain's ICU directly (see docs/REGEX.md).
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        // A Swift client of the server (Foundation's URLSession only), evaluating offline with FormdCore.
        .target(name: "FormdClient", dependencies: ["FormdCore"]),
        .executableTarget(name: "formd-client-example", dependencies: ["FormdClient"], path: "Examples/ClientExample"),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // epoll, accept4 and pipe2 for the epoll event queue: Linux only.
        .target(name: "CFormdLinux"),
        .target(
            name: "FormdHTTP",
            dependencies: ["CZlib", "COpenSSL", .target(name: "CFormdLinux", condition: .when(platforms: [.linux]))]
        ),
        // The web client is plain source (ES module, CSS, HTML; no build step), compiled into the
        // binary as bytes so that the container and a copied binary serve it without files.
        .target(
            name: "FormdWeb",
            // formd-engine.js wraps formd-engine.wasm, embedded as EngineModule.swift
            // (scripts/embed-wasm, docs/WASM.md).
            exclude: ["README.md"],
            resources: [
                .embedInCode("formd.js"), .embedInCode("formd.css"), .embedInCode("formd-engine.js"),
                .embedInCode("index.html"), .embedInCode("page.js"), .embedInCode("page.css"), .embedInCode("formd-sw.js"),
            ]
        ),
        .target(
            name: "FormdService",
            dependencies: [
                "FormdCore", "FormdHTTP", "FormdWeb",
                .product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
            ],
            // `schemas/form-definition.json`, linked into the target so it can be embedded.
            resources: [.embedInCode("Documents/Resources/form-definition.json")]
        ),
        .executableTarget(
            name: "formd",
            dependencies: [
                "FormdCore", "FormdService",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
            ]
        ),
        // What every test target shares: the HTTP test client (plain and TLS), a test CA, `eventually`.
        .target(name: "FormdTestSupport", dependencies: ["COpenSSL"], path: "Tests/FormdTestSupport"),
        .testTarget(name: "FormdCoreTests", dependencies: ["FormdCore", "FormdTestSupport"]),
        .testTarget(name: "FormdHTTPTests", dependencies: ["FormdHTTP", "FormdTestSupport"]),
        // Depends on the executable so `swift test` builds `formd` first: these tests start the real binary.
        .testTarget(name: "FormdServiceTests", dependencies: ["FormdService", "FormdClient", "FormdTestSupport", "formd"]),
    ],
    swiftLanguageModes: [.v6]
)
