/// One release gate judged on an experiment's results: at every point it applies to, the value it
/// judged (the mean, or an end of the 95% interval) with the whole interval.
public struct ExpectationVerdict: Sendable {
    /// The gate as parsed (``Expectation/text`` is what was written).
    public let expectation: Expectation
    /// One per judged point, in study order: ``Expectation/Outcome/value`` in the metric's unit,
    /// ``Expectation/Outcome/interval`` the mean and 95% interval over the replications (low =
    /// high = mean with one replication), ``Expectation/Outcome/holds`` the verdict.
    public let outcomes: [Expectation.Outcome]
    /// One line per point where the gate fails, worded as the CLI prints them: the gate, where
    /// it was written, the point, the measured value and its interval.
    public let failures: [String]

    /// Whether the gate holds at every point it judges.
    public var passed: Bool { failures.isEmpty }
}
