/// How one axis of a chart maps data values to positions and labels.
///
/// The label should carry the unit, e.g. "time (s)" or "requests per
/// second"; tick labels are compact numbers ("1.5k"), durations ("250ms",
/// values in seconds) or percentages (values as fractions, 0.25 = "25%").
public struct Axis: Sendable, Equatable {
    public enum Scale: Sendable, Equatable {
        /// Evenly spaced values, nice 1-2-5 ticks.
        case linear
        /// Base-10 logarithmic; ticks at powers of ten (round durations for
        /// ``Format/duration``). Values ≤ 0 are drawn at the axis minimum.
        case log
    }

    public enum Format: Sendable, Equatable {
        /// Compact SI numbers: 1500 → "1.5k", 2e6 → "2M", 0.25 → "0.25".
        case number
        /// Values are seconds; labels carry the unit: 0.001 → "1ms", 600 → "10m".
        case duration
        /// Values are fractions; labels are percentages: 0.2 → "20%".
        case percent
    }

    /// Axis title with unit, e.g. "requests per second".
    public var label: String
    public var scale: Scale
    public var format: Format
    /// Fixed lower bound in data units; nil derives it from the data.
    /// Ignored on a log axis unless positive.
    public var min: Double?
    /// Fixed upper bound in data units; nil derives it from the data.
    public var max: Double?
    /// Widen a derived linear range to include 0 (for counts and rates,
    /// where a baseline other than 0 exaggerates changes).
    public var includesZero: Bool

    public init(
        label: String, scale: Scale = .linear, format: Format = .number,
        min: Double? = nil, max: Double? = nil, includesZero: Bool = false
    ) {
        self.label = label
        self.scale = scale
        self.format = format
        self.min = min
        self.max = max
        self.includesZero = includesZero
    }
}
