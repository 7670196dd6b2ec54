// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "RetryStorm",
    products: [
        // The policy library apps link: no GSL, no simulator types.
        .library(name: "RetryPolicy", targets: ["RetryPolicy"]),
        .executable(name: "retrystorm", targets: ["retrystorm"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        // GNU Scientific Library, found through pkg-config (`libgsl-dev`).
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"])]
        ),
        // xoshiro256** exposed as a gsl_rng_type, so every gsl_ran_* draws from a 64-bit-seeded stream.
        .target(name: "CGSLXoshiro", dependencies: ["CGSL"]),
        .target(name: "GSLSupport", dependencies: ["CGSL", "CGSLXoshiro"]),
        .target(name: "RetryPolicy"),
        // Pure Swift SVG charts: no packages, fixed number formatting.
        // Its tests check internal layout helpers with @testable, also in the release test build.
        .target(name: "SVGCharts", swiftSettings: [.unsafeFlags(["-enable-testing"])]),
        // Cache prefetch hints for the event loop (Swift has no intrinsic for them).
        .target(name: "CPrefetch"),
        .target(name: "RetryStormEngine", dependencies: ["RetryPolicy", "GSLSupport", "CPrefetch"]),
        // The scenario format: YAML to a validated Scenario, the schema behind `keys` and `schema`,
        // and the one text format of numbers and durations.
        .target(
            name: "RetryStormScenario",
            dependencies: ["RetryStormEngine", "RetryPolicy", .product(name: "Yams", package: "Yams")]
        ),
        // The results model: typed records, the codec of a result directory, statistics and verdicts.
        .target(name: "RetryStormResults", dependencies: ["RetryStormScenario", "RetryStormEngine", "GSLSupport"]),
        // What people read: the charts, the HTML report and the terminal tables, drawn from the results model.
        .target(
            name: "RetryStormReport",
            dependencies: ["RetryStormResults", "RetryStormScenario", "RetryStormEngine", "GSLSupport", "SVGCharts"]
        ),
        // Studies (run, compare, sweep, tune, shards), their resources and their outputs on disk.
        .target(
            name: "RetryStormKit",
            dependencies: ["RetryStormReport", "RetryStormResults", "RetryStormScenario", "RetryStormEngine", "RetryPolicy",
                           "GSLSupport", "SVGCharts"]
        ),
        .executableTarget(
            name: "retrystorm",
            dependencies: ["RetryStormKit", "RetryStormEngine", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "RetryPolicyTests", dependencies: ["RetryPolicy"]),
        .testTarget(name: "GSLSupportTests", dependencies: ["GSLSupport"]),
        .testTarget(name: "RetryStormEngineTests", dependencies: ["RetryStormEngine", "RetryPolicy", "GSLSupport"]),
        .testTarget(name: "RetryStormKitTests", dependencies: ["RetryStormKit", "RetryStormEngine"], resources: [.copy("Fixtures")]),
        .testTarget(name: "SVGChartsTests", dependencies: ["SVGCharts"], resources: [.copy("Golden")]),
        // Runs the built `retrystorm` binary, as a user would.
        .testTarget(name: "CLITests", dependencies: ["retrystorm"], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
