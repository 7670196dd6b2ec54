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
// SwiftPM names a package by its URL's last component (`retrystorm` for …/retrystorm.git), and a
// package used by path by its directory's name, whatever the checkout is called, unless `name:`
// gives one: `retryStormName` is the name the targets below use in either case.
let environment = Context.environment
let (retryStorm, retryStormName): (Package.Dependency, String) =
    if let url = environment["RETRYSTORM_PACKAGE_URL"], let revision = environment["RETRYSTORM_REVISION"] {
        (.package(url: url, revision: revision), String((url.split(separator: "/").last ?? "").split(separator: ".").first ?? ""))
    } else {
        (.package(name: "RetryStorm", path: "../.."), "RetryStorm")
    }

let package = Package(
    name: "AppPolicyCheck",
    platforms: [.macOS(.v15)],
    dependencies: [retryStorm],
    targets: [
        // The app's own retry code: two policies written against RetryPolicy's ClientPolicy protocol
        // (an app links this and RetryPolicy, nothing of the simulator).
        .target(name: "AppRetry", dependencies: [.product(name: "RetryPolicy", package: retryStormName)]),
        // The experiment that compares them with the presets (experiments/custom-policies.yaml).
        .target(name: "PolicyExperiments", dependencies: ["AppRetry", .product(name: "RetryStormKit", package: retryStormName)]),
        // Writes results/custom-policies (scripts/make-results.sh runs it).
        .executableTarget(name: "custom-policies", dependencies: ["PolicyExperiments", .product(name: "RetryStormKit", package: retryStormName)]),
        .testTarget(
            name: "AppPolicyCheckTests",
            dependencies: [
                "AppRetry", "PolicyExperiments", .product(name: "RetryStormKit", package: retryStormName),
                .product(name: "RetryPolicy", package: retryStormName)
            ],
            resources: [.copy("Fixtures")]
        )
    ],
    swiftLanguageModes: [.v6]
)
