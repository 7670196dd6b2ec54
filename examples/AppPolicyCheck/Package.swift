// swift-tools-version:6.1
import PackageDescription

// An app's package that checks its retry policy before a release: its tests decode the policy file
// the simulator exported and drive it with the policy library's executor, and run a scenario
// through RetryStormKit with a release gate. The app itself would link RetryPolicy alone; only its
// tests need the simulator (GSL, Yams, swift-argument-parser come with it).
//
// The root is named: SwiftPM identifies a package used by path by its directory's name, which is
// whatever the repository's checkout is called; `name:` gives its products a name that holds.
let package = Package(
    name: "AppPolicyCheck",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RetryStorm", path: "../.."),
        .package(path: "../../RetryPolicy")
    ],
    targets: [
        // The app's own retry code: two policies written against RetryPolicy's ClientPolicy protocol
        // (an app links this and RetryPolicy, nothing of the simulator).
        .target(name: "AppRetry", dependencies: ["RetryPolicy"]),
        // The experiment that compares them with the presets (experiments/custom-policies.yaml).
        .target(name: "PolicyExperiments", dependencies: ["AppRetry", .product(name: "RetryStormKit", package: "RetryStorm")]),
        // Writes results/custom-policies (scripts/make-results.sh runs it).
        .executableTarget(name: "custom-policies", dependencies: ["PolicyExperiments", .product(name: "RetryStormKit", package: "RetryStorm")]),
        .testTarget(
            name: "AppPolicyCheckTests",
            dependencies: ["AppRetry", "PolicyExperiments", .product(name: "RetryStormKit", package: "RetryStorm"), "RetryPolicy"],
            resources: [.copy("Fixtures")]
        )
    ],
    swiftLanguageModes: [.v6]
)
