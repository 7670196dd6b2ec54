/// Release gates that failed: what the CLI reports before exiting with status 1.
public struct ExpectationFailure: Error, Sendable, CustomStringConvertible {
    /// One line per gate and point that failed, with the measured value and interval.
    public let failures: [String]

    /// `N expectation(s) failed:` and the failures, one per line.
    public var description: String {
        "\(failures.count) expectation\(failures.count == 1 ? "" : "s") failed:\n"
            + failures.map { "  - " + $0 }.joined(separator: "\n")
    }
}
