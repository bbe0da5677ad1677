// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way: spytail (CLI) → SpytailIO → SpytailCore → C shims.

/// The per-line path runs through the core and the I/O layer: in release builds both are compiled with
/// full cross-module optimisation, so the small core functions the I/O layer calls per line can be inlined
/// there (measured with spytail-bench: ~5% off W1 scan's wall time, the output bytes unchanged).
let hotPath: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "spytail",
    products: [
        .executable(name: "spytail", targets: ["spytail"]),
        .executable(name: "spytail-bench", targets: ["spytail-bench"]),
        .library(name: "SpytailCore", targets: ["SpytailCore"]),
        .library(name: "SpytailIO", targets: ["SpytailIO"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // No traits: Hummingbird's default "FullFoundation" makes its URL-encoded form coder name
        // `DateFormatter`, which links full Foundation and ICU into every command (5.7 MB more resident
        // memory, measured); we use no form coding. "ConfigurationSupport" (swift-configuration) is unused too.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // C shims: system libraries from Debian packages, nothing else in them.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CIsal", path: "Sources/CIsal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CPCRE2", path: "Sources/CPCRE2", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CInotifyTools", path: "Sources/CInotifyTools", providers: [.apt(["libinotifytools0-dev"])]),

        // simdjson (Debian's libsimdjson-dev) behind a C interface: the benchmark's JSON parser comparison only.
        .target(name: "CSimdjsonBench", path: "Sources/CSimdjsonBench", linkerSettings: [.linkedLibrary("simdjson")]),

        // The JSON line scanner's structural pass, 64 bytes at a time in SIMD (its C file says how). Pure
        // computation, no library.
        .target(name: "CJSONScan", path: "Sources/CJSONScan"),

        // The commit and date a release build stamps in (-Xcc -D…; "unknown" otherwise).
        .target(name: "CBuildInfo", path: "Sources/CBuildInfo"),

        // Pure core: model, config, rules, filters, lines, multiline, formatters. No file or process I/O.
        .target(name: "SpytailCore", dependencies: ["CPCRE2", "CJSONScan"], swiftSettings: hotPath),
        // Linux I/O: readers (plain, gzip), discovery, sinks, the scan runner, inotify, checkpoints, the tailer.
        .target(name: "SpytailIO", dependencies: ["SpytailCore", "CIsal", "CInotifyTools", "CBuildInfo"], swiftSettings: hotPath),
        // run's HTTP face: metrics, probes, the API (Hummingbird on SwiftNIO, swift-prometheus). Kept out of the
        // core and the I/O layer: it reads them through `RunTelemetry` only.
        .target(
            name: "SpytailHTTP",
            dependencies: [
                "SpytailCore", "SpytailIO",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The dashboard's page, style and scripts, compiled into the binary (no files served from disk).
            resources: [
                .embedInCode("Dashboard/index.html"), .embedInCode("Dashboard/dashboard.css"),
                .embedInCode("Dashboard/dashboard.js"), .embedInCode("Dashboard/model.js"),
                .embedInCode("Dashboard/spotlight.js"), .embedInCode("Dashboard/favicon.svg"),
                .embedInCode("Dashboard/page.js"), .embedInCode("Dashboard/entries.js"), .embedInCode("Dashboard/filters.js"),
                .embedInCode("Dashboard/detail.js"), .embedInCode("Dashboard/drawer.js"), .embedInCode("Dashboard/history.js"),
            ]),
        // run's network outputs (ClickHouse over HTTP): batches shipped by AsyncHTTPClient on SwiftNIO, their
        // acknowledgements handed to the checkpoints through `DeliveryLedger`. Kept out of the I/O layer.
        .target(
            name: "SpytailShipping",
            dependencies: [
                "SpytailCore", "SpytailIO",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        // The thin CLI.
        .executableTarget(
            name: "spytail",
            dependencies: [
                "SpytailCore", "SpytailIO", "SpytailHTTP", "SpytailShipping",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // swiftc links an executable with `-export-dynamic`: 37,000 symbols in its dynamic table, which the
            // loader pages in at every start (2.3 MB resident). Nothing looks spytail's own symbols up at run
            // time (backtraces read the file's symbol table), so they stay out of it.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]),
        // The benchmark: prints figures, never asserts timings.
        .executableTarget(
            name: "spytail-bench",
            dependencies: ["SpytailLogGen", "SpytailCore", "SpytailIO", "CZlib", "CJSONScan", "CSimdjsonBench", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The deterministic log generator and output verifier of the tests and the benchmark.
        .target(name: "SpytailLogGen", dependencies: ["CZlib"], swiftSettings: optimizedInTests),

        // Test doubles (spies) for the seams.
        .target(name: "SpytailTestSupport", dependencies: ["SpytailCore", "SpytailIO", "CZlib"], swiftSettings: optimizedInTests),
        .testTarget(name: "SpytailCoreTests", dependencies: ["SpytailCore", "SpytailTestSupport", "SpytailLogGen"]),
        .testTarget(name: "SpytailLogGenTests", dependencies: ["SpytailLogGen"]),
        .testTarget(name: "SpytailIOTests", dependencies: ["SpytailIO", "SpytailTestSupport", "SpytailLogGen", "CZlib"]),
        .testTarget(name: "SpytailShippingTests", dependencies: ["SpytailShipping"], swiftSettings: optimizedInTests),
        // Runs the built binary; depending on the executable makes `swift test` build it first.
        // DashboardUnitTests: the dashboard's JavaScript unit tests, served to chromium by the test itself (the
        // shipped binary does not carry them).
        .testTarget(name: "EndToEndTests", dependencies: ["SpytailTestSupport", "SpytailLogGen", "spytail"],
                    exclude: ["DashboardUnitTests"], swiftSettings: optimizedInTests),
    ],
    cxxLanguageStandard: .cxx17
)

/// The end-to-end tests' own work (writing workloads, reading outputs back line by line) is generic String and
/// collection code that `-Onone` runs unspecialised, 10-50x slower: it was half the suite's CPU time.
var optimizedInTests: [SwiftSetting] { [.unsafeFlags(["-O"], .when(configuration: .debug))] }
