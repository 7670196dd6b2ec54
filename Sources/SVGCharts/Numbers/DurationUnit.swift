/// A unit for durations given in seconds, smallest first in ``all``.
///
/// Minutes are "min", never a bare "m": beside "ms" an "m" reads as a
/// millisecond (and is the SI symbol for metre).
public struct DurationUnit: Sendable, Equatable {
    /// Length of one unit in seconds.
    public let seconds: Double
    /// Short symbol for labels: "ns", "µs", "ms", "s", "min", "h", "d".
    public let symbol: String
    /// Plural name for a title without a label: "seconds".
    public let name: String
    /// `k` when the unit is exactly `10^k` s, so values convert by moving
    /// the decimal point (exactly) instead of dividing.
    package let powerOfTen: Int?

    public static let nanosecond = DurationUnit(seconds: 1e-9, symbol: "ns", name: "nanoseconds", powerOfTen: -9)
    public static let microsecond = DurationUnit(seconds: 1e-6, symbol: "µs", name: "microseconds", powerOfTen: -6)
    public static let millisecond = DurationUnit(seconds: 1e-3, symbol: "ms", name: "milliseconds", powerOfTen: -3)
    public static let second = DurationUnit(seconds: 1, symbol: "s", name: "seconds", powerOfTen: 0)
    public static let minute = DurationUnit(seconds: 60, symbol: "min", name: "minutes", powerOfTen: nil)
    public static let hour = DurationUnit(seconds: 3600, symbol: "h", name: "hours", powerOfTen: nil)
    public static let day = DurationUnit(seconds: 86400, symbol: "d", name: "days", powerOfTen: nil)

    public static let all: [DurationUnit] = [
        nanosecond, microsecond, millisecond, second, minute, hour, day
    ]

    /// The largest unit not larger than `magnitude` seconds (nanoseconds
    /// below that): the unit for one value on its own.
    public static func forValue(_ magnitude: Double) -> DurationUnit {
        all.last { magnitude >= $0.seconds } ?? all[0]
    }

    /// One unit for a whole linear axis, table column or heatmap, chosen
    /// from the largest magnitude so the largest value reads 1…999 in it
    /// (seconds up to 10 min and minutes up to 6 h, where people count in
    /// them): 0.25 → ms, 180 → s, 3600 → min, 86400 → h; 0 → s.
    public static func forLinear(maxMagnitude: Double) -> DurationUnit {
        // Nothing to measure (no values, or all zero): seconds.
        guard maxMagnitude.isFinite, maxMagnitude > 0 else { return second }
        if maxMagnitude < 1e-6 { return nanosecond }
        if maxMagnitude < 1e-3 { return microsecond }
        if maxMagnitude < 1 { return millisecond }
        if maxMagnitude < 600 { return second }
        if maxMagnitude < 6 * 3600 { return minute }
        if maxMagnitude < 3 * 86400 { return hour }
        return day
    }

    /// One unit for values spanning decades (a log axis, a log-coloured
    /// heatmap): the unit in which the powers of ten covering `lo…hi`
    /// seconds have the narrowest widest label, so 1 ms…10 min reads
    /// 0.001…1000 s rather than 1…1000000 ms; ties go to seconds, then to
    /// the larger unit.
    public static func forLog(lo: Double, hi: Double) -> DurationUnit {
        guard lo > 0, hi >= lo, hi.isFinite else { return forLinear(maxMagnitude: hi) }
        var best = second
        var bestWidth = Double.infinity
        for unit in all.reversed() {
            let (a, b) = Ticks.decadeBounds(lo / unit.seconds, hi / unit.seconds)
            let width =
                [a, b].map {
                    TextMetrics.width(
                        HumanNumber(.decimals(max(0, -$0)), trimsTrailingZeros: true)
                            .format(DecimalMath.pow10($0)), fontSize: 1)
                }.max() ?? 0
            if width < bestWidth - 1e-9 || (abs(width - bestWidth) <= 1e-9 && unit == second) {
                best = unit
                bestWidth = width
            }
        }
        return best
    }

    /// `seconds` expressed in this unit as exact decimal digits where the
    /// unit is a power of ten of a second.
    package func digits(_ seconds: Double) -> DecimalDigits {
        if let powerOfTen { return DecimalDigits(seconds).shifted(by: -powerOfTen) }
        return DecimalDigits(seconds / self.seconds)
    }

    /// The next larger unit, nil for days.
    package var next: DurationUnit? {
        guard let i = Self.all.firstIndex(of: self), i + 1 < Self.all.count else { return nil }
        return Self.all[i + 1]
    }
}
