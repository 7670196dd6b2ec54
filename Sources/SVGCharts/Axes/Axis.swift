/// How one axis of a chart maps data values to positions and labels.
///
/// The label should carry the unit, e.g. "time (s)" or "requests per
/// second", except on a ``Format/duration`` axis, where the renderer picks
/// one unit for the whole axis and appends it: "time to success (ms)". Tick
/// labels are compact numbers ("1.5k"), plain numbers in the axis's
/// duration unit, percentages (values as fractions, 0.25 = "25%") or, on a
/// ``Scale/tailPercentile`` axis, percentile names ("p99").
public struct Axis: Sendable, Equatable {
    public enum Scale: Sendable, Equatable {
        /// Evenly spaced values, nice 1-2-5 ticks.
        case linear
        /// Base-10 logarithmic; ticks at powers of ten (of the axis's unit
        /// for ``Format/duration``). Values ≤ 0 are drawn at the axis minimum.
        case log
        /// Percentiles (values 0…100, 99.9 = p99.9) placed at −log10(1 − q)
        /// with q = value / 100, so each further "nine" takes the same room:
        /// p90, p99 and p99.9 are evenly spaced and p50 sits 0.7 of a step
        /// before p90. Ticks at p0, p50, p90, p99, p99.9, … labelled "p99";
        /// the format is ignored. Values from 100 on are clamped to p99.9999.
        case tailPercentile
    }

    public enum Format: Sendable, Equatable {
        /// Compact SI numbers: 1500 → "1.5k", 2e6 → "2M", 0.25 → "0.25".
        case number
        /// Values are seconds. The axis chooses one unit for all its ticks
        /// (``DurationUnit/forLinear(maxMagnitude:)``, or on a log axis
        /// ``DurationUnit/forLog(lo:hi:)``), labels ticks with plain numbers
        /// in it and writes it in the title: "time (s)" with 0, 20, 40; on a
        /// log axis from 1 ms to 10 min, 0.001 … 1000 s. A label that
        /// already names a unit, "delay (ms)", fixes the unit instead; an
        /// empty label becomes the unit's name ("seconds"). See ``AxisTitle``.
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

    /// Whether the axis has a title line: a label, or a duration unit to name.
    package var hasTitle: Bool { !label.isEmpty || (format == .duration && scale != .tailPercentile) }

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
