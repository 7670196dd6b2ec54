// swift-tools-version:6.1
import PackageDescription

// An app's package that checks its retry policy before a release: its tests decode the policy file
// the simulator exported and drive it with the policy library's executor, and run a scenario
// through RetryStormKit with a release gate. The app itself links the RetryPolicy product alone;
// only its tests need the simulator (GSL, Yams, swift-argument-parser come with it).
//
// RetryStorm is this checkout, two directories up, by path. With RETRYSTORM_PACKAGE_URL and
// RETRYSTORM_REVISION set (CI: scripts/check-consumer.sh), it is a git URL and a revision instead,
// as an app names the repository on its code host, so CI proves the package resolves that way.
// The path dependency is named: SwiftPM identifies a package used by path by its directory's name,
// which is whatever the repository's checkout is called; `name:` gives its products a name that
// holds (a URL's last component, `retrystorm`, matches it as SwiftPM compares identities).
let environment = Context.environment
let retryStorm: Package.Dependency =
    if let url = environment["RETRYSTORM_PACKAGE_URL"], let revision = environment["RETRYSTORM_REVISION"] {
        .package(url: url, revision: revision)
    } else {
        .package(name: "RetryStorm", path: "../..")
    }

let package = Package(
    name: "AppPolicyCheck",
    platforms: [.macOS(.v15)],
    dependencies: [retryStorm],
    targets: [
        // The app's own retry code: two policies written against RetryPolicy's ClientPolicy protocol
        // (an app links this and RetryPolicy, nothing of the simulator).
        .target(name: "AppRetry", dependencies: [.product(name: "RetryPolicy", package: "RetryStorm")]),
        // The experiment that compares them with the presets (experiments/custom-policies.yaml).
        .target(name: "PolicyExperiments", dependencies: ["AppRetry", .product(name: "RetryStormKit", package: "RetryStorm")]),
        // Writes results/custom-policies (scripts/make-results.sh runs it).
        .executableTarget(name: "custom-policies", dependencies: ["PolicyExperiments", .product(name: "RetryStormKit", package: "RetryStorm")]),
        .testTarget(
            name: "AppPolicyCheckTests",
            dependencies: [
                "AppRetry", "PolicyExperiments", .product(name: "RetryStormKit", package: "RetryStorm"),
                .product(name: "RetryPolicy", package: "RetryStorm")
            ],
            resources: [.copy("Fixtures")]
        )
    ],
    swiftLanguageModes: [.v6]
)
