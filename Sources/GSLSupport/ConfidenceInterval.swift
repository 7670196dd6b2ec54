import CGSL

/// A mean with its two-sided 95% confidence interval over `count` values.
public struct ConfidenceInterval: Sendable, Hashable {
    public var mean: Double
    public var low: Double
    public var high: Double
    public var count: Int

    public init(mean: Double, low: Double, high: Double, count: Int) {
        self.mean = mean
        self.low = low
        self.high = high
        self.count = count
    }

    /// The interval intersected with the range the quantity can take (a count or a time is never
    /// below 0, a fraction never outside [0, 1]): the Student-t interval, truncated. The mean of
    /// values in range is itself in range, so only the ends move.
    public func clamped(to range: ClosedRange<Double>) -> ConfidenceInterval {
        func clamp(_ x: Double) -> Double { x.isNaN ? x : Swift.min(range.upperBound, Swift.max(range.lowerBound, x)) }
        return ConfidenceInterval(mean: mean, low: clamp(low), high: clamp(high), count: count)
    }

    /// Whether the interval holds `x` (a difference whose interval holds 0 is not told from noise).
    public func contains(_ x: Double) -> Bool { low <= x && x <= high }
}
