// swift-tools-version:6.1
import PackageDescription

// The policy library apps link, as a package of its own: no dependencies at all, so an app that
// adds it resolves nothing else (the simulator's package, one directory up, needs GSL, Yams and
// swift-argument-parser, and SwiftPM resolves every dependency of a package an app depends on).
//
// Platforms: `Duration` and `Clock` (the executor, `RetryHost`, the `Duration` overloads) need
// macOS 13, iOS 16, tvOS 16, watchOS 9; nothing here needs more (no Synchronization, no
// Foundation).
let package = Package(
    name: "RetryPolicy",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "RetryPolicy", targets: ["RetryPolicy"])
    ],
    targets: [
        .target(name: "RetryPolicy"),
        .testTarget(name: "RetryPolicyTests", dependencies: ["RetryPolicy"])
    ],
    swiftLanguageModes: [.v6]
)
