
/// How to show a summary metric (a summary.csv column, or a metric of compare.csv and sweep.csv):
/// its label for people, its unit, how to format it and which direction is better.
public struct MetricInfo: Sendable, Equatable {
    public enum Better: Sendable, Equatable {
        case lower, higher
        /// Neither: a size or a count that describes the run rather than judges it.
        case neither
    }

    public enum Kind: Sendable, Equatable {
        /// A count: grouped whole numbers.
        case count
        /// Seconds.
        case seconds
        /// A fraction shown as a percentage.
        case fraction
        /// A plain number with a few decimals (ratios).
        case ratio
    }

    public var name: String
    /// Short label for table rows and axis titles, e.g. "time to success p99".
    public var label: String
    /// Unit text for tables and axes, e.g. "s" or "× capacity"; empty for counts.
    public var unit: String
    public var kind: Kind
    public var better: Better
    /// The values the metric can take; confidence intervals are cut to it (nil: any).
    public var range: ClosedRange<Double>?
    /// A time to success or to recovery: a variant that loses clearly more operations cannot be
    /// best on it (giving up early makes the survivors look fast; see ``BestMarks``).
    public var rewardsGivingUp: Bool

    public init(name: String, label: String, unit: String, kind: Kind, better: Better,
                range: ClosedRange<Double>? = nil, rewardsGivingUp: Bool = false) {
        self.name = name
        self.label = label
        self.unit = unit
        self.kind = kind
        self.better = better
        self.range = range ?? (kind == .fraction ? 0...1 : 0...Double.infinity)
        self.rewardsGivingUp = rewardsGivingUp
    }

    /// "label (unit)", the axis title.
    public var axisTitle: String { unit.isEmpty ? label : "\(label) (\(unit))" }
}
