/// The verdicts on a list of release gates, in the order they were given (the scenario's
/// `expect:` list first), as ``ExperimentResults/check(_:)`` returns them.
public struct ExpectationReport: Sendable {
    /// One verdict per gate, in order.
    public let verdicts: [ExpectationVerdict]

    /// Whether every gate holds (true for no gates).
    public var passed: Bool { verdicts.allSatisfy(\.passed) }

    /// Every failure line, gate by gate.
    public var failures: [String] { verdicts.flatMap(\.failures) }

    /// Returns when every gate holds.
    /// - Throws: ``ExpectationFailure`` listing every failure otherwise.
    public func require() throws(ExpectationFailure) {
        guard passed else { throw ExpectationFailure(failures: failures) }
    }
}
