// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way: spytail (CLI) → SpytailIO → SpytailCore → C shims.
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
    ],
    targets: [
        // C shims: system libraries from Debian packages, nothing else in them.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPCRE2", path: "Sources/CPCRE2", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CInotifyTools", path: "Sources/CInotifyTools", providers: [.apt(["libinotifytools0-dev"])]),

        // Pure core: model, config, rules, filters, lines, multiline, formatters. No file or process I/O.
        .target(name: "SpytailCore", dependencies: ["CPCRE2"]),
        // Linux I/O: readers (plain, gzip), discovery, sinks, the scan runner, inotify, checkpoints, the tailer.
        .target(name: "SpytailIO", dependencies: ["SpytailCore", "CZlib", "CInotifyTools"]),
        // The thin CLI.
        .executableTarget(
            name: "spytail",
            dependencies: [
                "SpytailCore", "SpytailIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The benchmark: prints figures, never asserts timings.
        .executableTarget(
            name: "spytail-bench",
            dependencies: ["SpytailLogGen", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The deterministic log generator and output verifier of the tests and the benchmark.
        .target(name: "SpytailLogGen", dependencies: ["CZlib"]),

        // Test doubles (spies) for the seams.
        .target(name: "SpytailTestSupport", dependencies: ["SpytailCore", "SpytailIO", "CZlib"]),
        .testTarget(name: "SpytailCoreTests", dependencies: ["SpytailCore", "SpytailTestSupport"]),
        .testTarget(name: "SpytailLogGenTests", dependencies: ["SpytailLogGen"]),
        .testTarget(name: "SpytailIOTests", dependencies: ["SpytailIO", "SpytailTestSupport", "CZlib"]),
        // Runs the built binary; depending on the executable makes `swift test` build it first.
        .testTarget(name: "EndToEndTests", dependencies: ["SpytailTestSupport", "SpytailLogGen", "spytail"]),
    ]
)
