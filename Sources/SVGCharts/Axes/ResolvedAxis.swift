/// An axis with a concrete domain and ticks, ready to place values.
package struct ResolvedAxis {
    package let scale: Axis.Scale
    /// Domain bounds in data units; both positive on a log axis.
    package let lo: Double
    package let hi: Double
    package let ticks: [Tick]
    /// Unlabelled faint gridlines (2…9 × 10^k on log axes of at most
    /// three decades; more would crowd the plot).
    package let minorTicks: [Double]
    /// The one unit of every tick label on a duration axis; nil otherwise.
    package let unit: DurationUnit?

    private let transformedLo: Double
    private let transformedHi: Double

    package init(
        scale: Axis.Scale, lo: Double, hi: Double, ticks: [Tick], minorTicks: [Double] = [],
        unit: DurationUnit? = nil
    ) {
        self.scale = scale
        self.lo = lo
        self.hi = hi
        self.ticks = ticks
        self.minorTicks = minorTicks
        self.unit = unit
        transformedLo = Self.transform(lo, scale)
        transformedHi = Self.transform(hi, scale)
    }

    /// Largest percentile a tail axis places (six nines): from 100 on the
    /// transform would be infinite.
    package static let maxPercentile = 99.9999

    /// The coordinate each scale is linear in: the value, its log10, or
    /// −log10(1 − q) for a percentile q/100.
    package static func transform(_ value: Double, _ scale: Axis.Scale) -> Double {
        switch scale {
        case .linear: return value
        case .log: return DecimalMath.log10(value)
        case .tailPercentile:
            // Below p0 only as padding; (100 − q) / 100 rather than
            // 1 − q/100: one rounding fewer.
            let q = min(maxPercentile, max(-100, value))
            return -DecimalMath.log10((100 - q) / 100)
        }
    }

    /// Position of `value` along the axis, 0 at `lo` and 1 at `hi`. Linear
    /// and tail values outside the domain extrapolate (callers clip); on a
    /// log axis values ≤ `lo` (including zero and negatives) map to 0.
    package func fraction(_ value: Double) -> Double {
        switch scale {
        case .linear:
            return hi > lo ? (value - lo) / (hi - lo) : 0.5
        case .log:
            guard value > lo else { return 0 }
        case .tailPercentile:
            guard value.isFinite else { return value > 0 ? 1 : 0 }
        }
        let span = transformedHi - transformedLo
        return span > 0 ? (Self.transform(value, scale) - transformedLo) / span : 0.5
    }

    /// `value` mapped onto the pixel interval `start...end` (which may run
    /// backwards, as y does).
    package func position(_ value: Double, from start: Double, to end: Double) -> Double {
        start + (end - start) * fraction(value)
    }

    /// Width of the widest tick label at `fontSize`.
    package func maxLabelWidth(fontSize: Double) -> Double {
        ticks.map { TextMetrics.width($0.label, fontSize: fontSize) }.max() ?? 0
    }

    /// The axis title: `label` naming the duration unit ("time (s)"), by
    /// ``AxisTitle``'s rules.
    package func title(_ label: String) -> String {
        AxisTitle.compose(label, unit: unit)
    }
}
