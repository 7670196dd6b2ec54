/// A value with an optional interval around it, in axis units: a mean over
/// replications and its 95% confidence interval, say.
///
/// A non-finite value is not drawn; an interval is drawn only when both
/// ends are finite (the order of `low` and `high` does not matter).
public struct Estimate: Sendable, Equatable {
    public var value: Double
    public var low: Double?
    public var high: Double?

    public init(_ value: Double, low: Double? = nil, high: Double? = nil) {
        self.value = value
        self.low = low
        self.high = high
    }

    /// The interval's ends, lower first, when both are finite.
    package var interval: (low: Double, high: Double)? {
        guard let low, let high, low.isFinite, high.isFinite else { return nil }
        return (min(low, high), max(low, high))
    }

    /// Everything an axis range must include (non-finite entries are ignored there).
    package var axisValues: [Double] {
        [value, low ?? .nan, high ?? .nan]
    }
}
