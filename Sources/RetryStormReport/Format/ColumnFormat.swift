import GSLSupport
import RetryStormResults
import SVGCharts

/// How one metric is written for people wherever the report reads its values together: a column
/// of a table, the findings that quote it, a tune's recommendation, its gates. One
/// unit for the set; numbers by ``HumanNumber``'s rule (the shortest decimal, ties to the even
/// digit) at a precision that depends on the value alone, so the same value prints the same in
/// every one of them.
///
/// - Counts: whole numbers with thousands grouped ("1,612,881"); a mean of counts rounds too,
///   except one that is not zero and would round to 0: it keeps its first significant digit
///   ("0.3" for one operation lost in three replications), so "0" always means none.
/// - Seconds: one unit for the set, from its largest value (``DurationUnit/forLinear(maxMagnitude:)``:
///   ms, s or min, never a bare "m"); infinity is "never" (a recovery that did not happen).
/// - Fractions: percentages. Ratios: plain numbers in the metric's unit ("×").
/// - Precision (all but counts): three significant digits of the value in its unit ("122", "18.5",
///   "0.0530"), at most ``maxDecimals`` places. One column of 1.71 s beside 151 s shows both as
///   people read them, where one precision for the column would print "151.000" or "2".
/// - Intervals: "±h" when the mean lies in the middle of its interval at the mean's precision,
///   else "[low, high]" (the metric's range cut it: a count cannot go below 0). A half-width too
///   small for that precision gets the places of its first significant digit ("1.71 ±0.004"),
///   never "±0.00".
public struct ColumnFormat: Sendable, Equatable {
    /// The metric: its kind decides the rules, its unit the symbol.
    public let metric: Metric
    /// The unit of every value of a seconds metric (nil for other kinds).
    public let unit: DurationUnit?

    /// Significant digits of a value (not a count).
    static let significantDigits = 3
    /// Places after the point at most: smaller values print as 0.000001 or 0.
    static let maxDecimals = 6

    /// The format of `metric` for the intervals `values` (their means choose the unit of a
    /// seconds metric; NaN and infinite values ignored).
    public init(metric: Metric, values: [ConfidenceInterval]) {
        self.metric = metric
        let means = values.map(\.mean).filter(\.isFinite)
        unit = metric.kind == .seconds ? DurationUnit.forLinear(maxMagnitude: means.map(abs).max() ?? 0) : nil
    }

    /// The format of `metric` over every point of `table`: the one the report, the terminal
    /// tables and the heatmaps share, so that a subset of the points (a tune's top rows, one
    /// chart) prints in the same unit as the whole.
    public init(metric: Metric, table: MetricTable) {
        self.init(metric: metric, values: table.names.compactMap { table.interval($0, metric) })
    }

    /// Places after the point for `x`: 0 for counts (but for a mean that would round to 0 from
    /// above or below: its first significant digit's), else those of its first
    /// ``significantDigits`` in the unit.
    public func places(_ x: Double) -> Int {
        guard metric.kind != .count else { return x != 0 && abs(x) <= 0.5 ? Self.places(x, significant: 1) : 0 }
        return Self.places(scaled(x), significant: Self.significantDigits)
    }

    /// Places after the point that show `significant` digits of `x` (0 for zero, large or
    /// non-finite values), at most ``maxDecimals``.
    static func places(_ x: Double, significant: Int) -> Int {
        guard x.isFinite, x != 0, abs(x) < 1e15 else { return 0 }
        let text = HumanNumber(.significant(significant)).format(abs(x))
        guard !text.contains("×"), let point = text.firstIndex(of: ".") else { return text.contains("×") ? maxDecimals : 0 }
        return min(maxDecimals, text.distance(from: point, to: text.endIndex) - 1)
    }

    /// The unit for a header or after a number: "s", "ms", "%", "×", "attempts/op"; a count's
    /// only where its label does not name it (``Metric/symbol``).
    public var unitSymbol: String {
        switch metric.kind {
        case .seconds: unit?.symbol ?? "s"
        case .fraction: "%"
        case .count, .ratio: metric.symbol
        }
    }

    /// A count as the tables print one that is no metric (a population's clients): "1,612,881".
    public static func count(_ n: Int) -> String {
        human(0).format(Double(n))
    }

    /// `x` in the unit, without the unit ("98.4" for seconds, "12.6" for a percentage, "1,234"),
    /// for a cell under a header that names the unit; "never" for an infinite time, "n/a" for no value.
    public func number(_ x: Double) -> String {
        number(x, places: places(x))
    }

    func number(_ x: Double, places: Int) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return metric.kind == .seconds ? (x > 0 ? "never" : "-never") : (x > 0 ? "∞" : "-∞") }
        return Self.human(places).format(scaled(x))
    }

    /// `x` with its unit, for a sentence: "98.4 s", "12.6%", "2.02×", "6.28 attempts/op", "1,234";
    /// "never" has no unit.
    public func text(_ x: Double) -> String {
        withUnit(number(x), x)
    }

    func withUnit(_ n: String, _ x: Double) -> String {
        guard x.isFinite else { return n }
        switch metric.kind {
        case .fraction: return n + "%"
        case .seconds: return n + " " + unitSymbol
        case .count: return n
        case .ratio: return unitSymbol == "×" ? n + "×" : unitSymbol.isEmpty ? n : n + " " + unitSymbol
        }
    }

    /// The interval beside a mean, in the unit: "±1.8", "[0, 11]" where the mean is not in its
    /// middle at this precision; nil with one replication or no spread.
    public func spread(_ ci: ConfidenceInterval) -> String? {
        guard ci.count > 1, ci.mean.isFinite, ci.low.isFinite, ci.high.isFinite, ci.high > ci.low else { return nil }
        let places = spreadPlaces(ci)
        let up = number(ci.high - ci.mean, places: places)
        let down = number(ci.mean - ci.low, places: places)
        return up == down ? "±" + up : interval(ci)
    }

    /// The mean's places, or more for a half-width that would print as zero at them: those of the
    /// smaller half-width's first significant digit (at most ``maxDecimals``).
    func spreadPlaces(_ ci: ConfidenceInterval) -> Int {
        let places = places(ci.mean)
        let halves = [ci.high - ci.mean, ci.mean - ci.low].filter { $0 > 0 }
        guard metric.kind != .count, let smallest = halves.min(), printsAsZero(smallest, places: places) else { return places }
        return max(places, Self.places(scaled(smallest), significant: 1))
    }

    /// A mean and its interval: "98.4 ±1.8", "10 [0, 25]", "2.02" with one replication.
    public func cell(_ ci: ConfidenceInterval) -> String {
        number(ci.mean) + (spread(ci).map { " " + $0 } ?? "")
    }

    /// A value with its unit and interval, for a sentence: "98.4 s (±1.8)", "10 [0, 25]" (an
    /// interval its range cut stands as it is); `words` go between the value and its interval
    /// ("2.02× capacity (±0.31)").
    public func quote(_ ci: ConfidenceInterval, words: String = "") -> String {
        text(ci.mean) + words + (spread(ci).map { $0.hasPrefix("[") ? " " + $0 : " (\($0))" } ?? "")
    }

    /// A signed difference with its unit: "+1.4 s", "-0.90×", "+4.1%"; no sign when it prints as zero.
    public func signed(_ x: Double) -> String {
        guard x.isFinite else { return text(x) }
        let magnitude = text(abs(x))
        return printsAsZero(x, places: places(x)) ? magnitude : (x < 0 ? "-" : "+") + magnitude
    }

    /// A paired difference: "+5.7 s (95% CI [-1.4, 12.8])"; without the interval for one pair.
    /// Mean and ends share the places of the end farthest from zero (``interval(_:)``).
    public func difference(_ d: ConfidenceInterval) -> String {
        guard d.count > 1, d.low.isFinite, d.high.isFinite else { return signed(d.mean) }
        return signed(d) + " (95% CI " + interval(d) + ")"
    }

    /// A paired difference's mean with its sign and unit at the places of its interval
    /// (``interval(_:)``): "+5.7 s" beside "[-1.4, 12.8]".
    public func signed(_ d: ConfidenceInterval) -> String {
        guard d.mean.isFinite, d.count > 1, d.low.isFinite, d.high.isFinite else { return signed(d.mean) }
        let places = intervalPlaces(d)
        let sign = printsAsZero(d.mean, places: places) ? "" : d.mean < 0 ? "-" : "+"
        return sign + withUnit(number(abs(d.mean), places: places), d.mean)
    }

    /// "[-1.4, 12.8]", "[0.0, 94.6]": an interval's ends, both at the places of the one farthest
    /// from zero (its three significant digits), or more where the mean's half-width needs them.
    public func interval(_ d: ConfidenceInterval) -> String {
        let places = intervalPlaces(d)
        return "[" + number(d.low, places: places) + ", " + number(d.high, places: places) + "]"
    }

    /// The places of the end farthest from zero, more while two different ends print the same.
    func intervalPlaces(_ d: ConfidenceInterval) -> Int {
        var places = places([d.low, d.high].filter(\.isFinite).map(abs).max() ?? 0)
        // Ends a rounding error apart (a difference the same in every replication) are one value.
        let apart = d.high - d.low > 1e-9 * max(abs(d.low), abs(d.high))
        while places < Self.maxDecimals, apart, number(d.low, places: places) == number(d.high, places: places) { places += 1 }
        return places
    }

    /// A bound as written, in the unit, trailing zeros dropped: "4×", "20%", "0.15%", "160".
    public func exact(_ x: Double) -> String {
        guard x.isFinite else { return text(x) }
        return withUnit(HumanNumber(.decimals(Self.maxDecimals), trimsTrailingZeros: true, groupsThousands: true).format(scaled(x)), x)
    }

    /// "time to success p99 (s)", "peak load / capacity (×)", "operations".
    public func title(_ label: String) -> String {
        unitSymbol.isEmpty ? label : "\(label) (\(unitSymbol))"
    }

    // MARK: - Rules

    static func human(_ decimals: Int) -> HumanNumber {
        HumanNumber(.decimals(decimals), groupsThousands: true)
    }

    /// `x` in the unit: percent and power-of-ten units move the decimal point of the shortest
    /// decimal (so 0.0069 is 0.69%, not 0.6900000000000001%), other units divide.
    func scaled(_ x: Double) -> Double {
        guard x.isFinite else { return x }
        switch metric.kind {
        case .fraction: return Self.shifted(x, by: 2)
        case .seconds:
            guard let unit else { return x }
            let exponent = [("ns", 9), ("µs", 6), ("ms", 3), ("s", 0)].first { $0.0 == unit.symbol }?.1
            return exponent.map { Self.shifted(x, by: $0) } ?? x / unit.seconds
        case .count, .ratio: return x
        }
    }

    /// `x` × 10^`places`, by moving the point of its shortest decimal text.
    static func shifted(_ x: Double, by places: Int) -> Double {
        guard places != 0, x.isFinite, x != 0 else { return x }
        let text = x.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        return Double("\(parts[0])e\(exponent + places)") ?? x * pow10(places)
    }

    static func pow10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<abs(n) { p *= 10 }
        return n < 0 ? 1 / p : p
    }

    func printsAsZero(_ x: Double, places: Int) -> Bool {
        Self.human(places).format(scaled(abs(x))).allSatisfy { $0 == "0" || $0 == "." || $0 == "," }
    }
}
