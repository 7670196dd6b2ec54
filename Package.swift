// swift-tools-version:6.1
import PackageDescription

// The simulator, and the policy library apps link. An app depends on this package by URL and names
// the RetryPolicy product: that target depends on nothing, so the app builds no GSL, Yams or
// swift-argument-parser (SwiftPM still resolves them, as it resolves every dependency of a
// package). See the README, "In your app".
//
// Platforms: the policy library needs `Duration` and `Clock` (macOS 13, iOS 16, tvOS 16, watchOS
// 9); the simulator's Mutex and Atomic (Synchronization) need macOS 15, which a package's single
// platform list then asks of both. The simulator is a command-line tool and a library for macOS
// and Linux, not for iOS: only RetryPolicy is meant for the other platforms.
let package = Package(
    name: "RetryStorm",
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "retrystorm", targets: ["retrystorm"]),
        // The policy library an app ships (docs/policy-library.md): no dependencies, no Foundation.
        .library(name: "RetryPolicy", targets: ["RetryPolicy"]),
        // Simulations from Swift code (`Experiment`, docs/swift-api.md): for a package's tests and
        // release gates, not for an app, which links the RetryPolicy product alone.
        .library(name: "RetryStormKit", targets: ["RetryStormKit"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2")
    ],
    targets: [
        // The retry policies, budgets, breakers and the executor an app runs: what the simulator runs.
        .target(name: "RetryPolicy"),
        // GNU Scientific Library, found through pkg-config (Debian `libgsl-dev`, Homebrew `gsl`).
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
        ),
        // xoshiro256** exposed as a gsl_rng_type, so every gsl_ran_* draws from a 64-bit-seeded stream.
        .target(name: "CGSLXoshiro", dependencies: ["CGSL"]),
        .target(name: "GSLSupport", dependencies: ["CGSL", "CGSLXoshiro"]),
        // Pure Swift SVG charts: no packages, fixed number formatting.
        // Its layout helpers are `package`: its tests check them without @testable (no -enable-testing).
        .target(name: "SVGCharts"),
        // Cache prefetch hints for the event loop (Swift has no intrinsic for them).
        .target(name: "CPrefetch"),
        // pipe2 and posix_spawn_file_actions_addchdir_np, which Swift's Glibc module leaves out.
        .target(name: "CSpawn"),
        // The event loop is specialised here, for the library's RetryPolicy and for `CallerPolicy`,
        // the wrapper a caller's own ClientPolicy type runs in: no module needs the engine's generic
        // code, so nothing is built with cross-module optimisation (make bench: policy-custom, policy-library).
        .target(
            name: "RetryStormEngine", dependencies: ["RetryPolicy", "GSLSupport", "CPrefetch"]),
        // The words every layer above shares, on Foundation alone: the one number format, units,
        // source locations, the errors of bad input, the bounded reader of input files, the CSV
        // reader, SHA-256 and the machine's memory limits.
        .target(name: "RetryStormVocabulary"),
        // The scenario format: YAML to a validated Scenario, the schema behind `keys` and `schema`.
        .target(
            name: "RetryStormScenario",
            dependencies: [
                "RetryStormVocabulary", "RetryStormEngine", "RetryPolicy",
                .product(name: "Yams", package: "Yams")
            ]
        ),
        // The results model: typed records, the codec of a result directory, statistics and verdicts.
        .target(name: "RetryStormResults", dependencies: ["RetryStormVocabulary", "RetryStormEngine", "RetryPolicy", "GSLSupport"]),
        // What people read: the charts, the HTML report and the terminal tables, drawn from the results model.
        .target(
            name: "RetryStormReport",
            dependencies: [
                "RetryStormVocabulary", "RetryStormResults", "RetryStormScenario", "RetryStormEngine",
                "RetryPolicy", "GSLSupport", "SVGCharts"
            ]
        ),
        // Studies (run, compare, sweep, tune, shards), their resources and their outputs on disk.
        .target(
            name: "RetryStormKit",
            dependencies: [
                "RetryStormReport", "RetryStormResults", "RetryStormScenario", "RetryStormVocabulary", "RetryStormEngine",
                "RetryPolicy", "GSLSupport", "SVGCharts", "CSpawn"
            ]
        ),
        .executableTarget(
            name: "retrystorm",
            dependencies: [
                "RetryStormKit", "RetryStormEngine", "RetryStormReport", "RetryPolicy",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        // Tests: one target per module (its own module and the ones below it, not RetryStormKit where
        // the module does not need it), and TestSupport, the helpers several of them share (golden
        // files, the checkout, the chart fixtures, the manual test clock), a plain library only test targets depend on.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "RetryPolicyTests", dependencies: ["RetryPolicy", "TestSupport"]),
        .testTarget(name: "GSLSupportTests", dependencies: ["GSLSupport"]),
        .testTarget(
            name: "RetryStormEngineTests",
            dependencies: ["RetryStormEngine", "RetryPolicy", "GSLSupport", "TestSupport"]
        ),
        .testTarget(name: "RetryStormVocabularyTests", dependencies: ["RetryStormVocabulary"]),
        .testTarget(
            name: "RetryStormScenarioTests",
            dependencies: ["RetryStormScenario", "RetryStormVocabulary", "RetryStormEngine", "RetryPolicy"]
        ),
        .testTarget(name: "RetryStormResultsTests", dependencies: ["RetryStormResults", "RetryStormVocabulary", "GSLSupport", "TestSupport"]),
        .testTarget(
            name: "RetryStormReportTests",
            dependencies: [
                "RetryStormReport", "RetryStormKit", "RetryStormResults", "RetryStormVocabulary", "RetryStormScenario", "GSLSupport", "SVGCharts",
                "TestSupport"
            ],
            exclude: ["Fixtures"]  // read from the checkout (TestSupport's ChartsFixtures)
        ),
        .testTarget(name: "RetryStormKitTests", dependencies: ["RetryStormKit", "RetryStormEngine", "RetryStormReport", "TestSupport"]),
        .testTarget(name: "SVGChartsTests", dependencies: ["SVGCharts", "TestSupport"], exclude: ["Golden"]),
        // Runs the built `retrystorm` binary, as a user would (and loads scenarios and policy files in
        // process, to compare).
        .testTarget(
            name: "CLITests",
            dependencies: ["retrystorm", "RetryStormKit", "RetryPolicy", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // examples/AppPolicyCheck's targets, its sources by path, built here too: `make test` runs
        // the example's tests and `make results` its custom-policies on the simulator this package
        // has already compiled, where the example as a package of its own (`make example`) compiles
        // the simulator again into its own .build. The example's manifest declares the same
        // targets on this package's products; SwiftPM builds a dependency's targets only when used,
        // so the names do not clash there. scripts/check-consumer.sh builds the example's app
        // target by URL in CI, which resolves the whole example, RetryStormKit included.
        .target(
            name: "AppRetry", dependencies: ["RetryPolicy"], path: "examples/AppPolicyCheck/Sources/AppRetry"),
        .target(
            name: "PolicyExperiments", dependencies: ["AppRetry", "RetryStormKit"],
            path: "examples/AppPolicyCheck/Sources/PolicyExperiments"),
        .executableTarget(
            name: "custom-policies", dependencies: ["PolicyExperiments", "RetryStormKit"],
            path: "examples/AppPolicyCheck/Sources/custom-policies"),
        .testTarget(
            name: "AppPolicyCheckTests", dependencies: ["AppRetry", "PolicyExperiments", "RetryStormKit", "RetryPolicy"],
            path: "examples/AppPolicyCheck/Tests/AppPolicyCheckTests", resources: [.copy("Fixtures")]
        )
    ],
    swiftLanguageModes: [.v6]
)
