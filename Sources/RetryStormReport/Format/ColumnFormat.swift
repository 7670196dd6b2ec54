import RetryStormResults
import SVGCharts
import GSLSupport

/// How one metric is written for people wherever its values are read together: a column of the
/// HTML report or of a terminal table, the findings that quote it, a tune's recommendation. One
/// unit and one precision for the set, numbers by ``HumanNumber``'s rule (the shortest decimal,
/// ties to the even digit), so the same value prints the same in every one of them.
///
/// - Counts: whole numbers with thousands grouped ("1,612,881"); a mean of counts rounds too.
/// - Seconds: one unit for the set, from its largest value (``DurationUnit/forLinear(maxMagnitude:)``:
///   ms, s or min, never a bare "m"); infinity is "never" (a recovery that did not happen).
/// - Fractions: percentages. Ratios: plain numbers in the metric's unit ("×").
/// - Decimals (all but counts): three significant digits of the largest magnitude, then more — at
///   most three more — until distinct values print distinctly and no non-zero value or non-zero
///   interval half-width prints as zero.
/// - Intervals: "±h" when the mean lies in the middle of its interval at this precision, else
///   "[low, high]": the interval was cut by the metric's range (a count cannot go below 0).
public struct ColumnFormat: Sendable, Equatable {
    public let info: MetricInfo
    /// The unit of every value of a seconds metric (nil for other kinds).
    public let unit: DurationUnit?
    /// Places after the point, in the unit (0 for counts).
    public let decimals: Int

    /// The format of `metric` for the intervals `values` (means and half-widths are read; NaN and
    /// infinite values ignored).
    public init(metric: String, values: [ConfidenceInterval]) {
        self.init(info: MetricCatalog.info(metric), values: values)
    }

    public init(info: MetricInfo, values: [ConfidenceInterval]) {
        self.info = info
        let means = values.map(\.mean).filter(\.isFinite)
        unit = info.kind == .seconds ? DurationUnit.forLinear(maxMagnitude: means.map(abs).max() ?? 0) : nil
        guard info.kind != .count else {
            decimals = 0
            return
        }
        let probe = ColumnFormat(info: info, unit: unit, decimals: 0)
        let scaled = means.map { abs(probe.scaled($0)) }
        let largest = scaled.max() ?? 0
        var base = 0
        if largest > 0 {
            let three = HumanNumber(.significant(3)).format(largest)
            base = three.firstIndex(of: ".").map { three.distance(from: $0, to: three.endIndex) - 1 } ?? 0
        }
        let halves = values.filter { $0.count > 1 && $0.mean.isFinite && $0.high > $0.low }
            .flatMap { [$0.high - $0.mean, $0.mean - $0.low] }.filter { $0 > 0 && $0.isFinite }
        var chosen = base
        for d in base...(base + 3) {
            chosen = d
            let f = ColumnFormat(info: info, unit: unit, decimals: d)
            if f.printsDistinctly(means), (means + halves).allSatisfy({ $0 == 0 || !f.printsAsZero($0) }) { break }
        }
        decimals = chosen
    }

    init(info: MetricInfo, unit: DurationUnit?, decimals: Int) {
        self.info = info
        self.unit = unit
        self.decimals = decimals
    }

    /// The unit for a header or after a number: "s", "ms", "%", "×", "attempts/op"; "" for a
    /// plain count.
    public var unitSymbol: String {
        switch info.kind {
        case .seconds: unit?.symbol ?? "s"
        case .fraction: "%"
        case .count, .ratio: info.unit
        }
    }

    /// `x` in the unit, without the unit ("98.4" for seconds, "12.6" for a percentage, "1,234"),
    /// for a cell under a header that names the unit; "never" for an infinite time, "n/a" for no value.
    public func number(_ x: Double) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return info.kind == .seconds ? (x > 0 ? "never" : "-never") : (x > 0 ? "∞" : "-∞") }
        return Self.human(decimals).format(scaled(x))
    }

    /// `x` with its unit, for a sentence: "98.4 s", "12.6%", "2.02×", "6.28 attempts/op", "1,234";
    /// "never" has no unit.
    public func text(_ x: Double) -> String {
        let n = number(x)
        guard x.isFinite else { return n }
        switch info.kind {
        case .fraction: return n + "%"
        case .seconds: return n + " " + unitSymbol
        case .count: return n
        case .ratio: return unitSymbol == "×" ? n + "×" : unitSymbol.isEmpty ? n : n + " " + unitSymbol
        }
    }

    /// The interval beside a mean, in the unit: "±1.8", "[0, 11]" where the
    /// mean is not in its middle at this precision; nil with one replication or no spread.
    public func spread(_ ci: ConfidenceInterval) -> String? {
        guard ci.count > 1, ci.mean.isFinite, ci.low.isFinite, ci.high.isFinite, ci.high > ci.low else { return nil }
        let up = number(ci.high - ci.mean), down = number(ci.mean - ci.low)
        return up == down ? "±" + up : "[" + number(ci.low) + ", " + number(ci.high) + "]"
    }

    /// A mean and its interval: "98.4 ±1.8", "10 [0, 25]", "2.02" with one replication.
    public func cell(_ ci: ConfidenceInterval) -> String {
        number(ci.mean) + (spread(ci).map { " " + $0 } ?? "")
    }

    /// A signed difference with its unit: "+1.4 s", "-0.90×", "+4.1%"; no sign when it prints as zero.
    public func signed(_ x: Double) -> String {
        guard x.isFinite else { return text(x) }
        let magnitude = text(abs(x))
        return printsAsZero(x) ? magnitude : (x < 0 ? "-" : "+") + magnitude
    }

    /// A paired difference: "+1.4 s (95% CI [1.3, 1.6])"; without the interval for one pair.
    public func difference(_ d: ConfidenceInterval) -> String {
        var text = signed(d.mean)
        if d.count > 1, d.low.isFinite, d.high.isFinite {
            text += " (95% CI [" + number(d.low) + ", " + number(d.high) + "])"
        }
        return text
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
        switch info.kind {
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

    func printsAsZero(_ x: Double) -> Bool {
        Self.human(decimals).format(scaled(abs(x))).allSatisfy { $0 == "0" || $0 == "." || $0 == "," }
    }

    /// Whether distinct values print distinctly (rounding is monotonic: neighbours suffice).
    func printsDistinctly(_ values: [Double]) -> Bool {
        var previous: (Double, String)?
        for v in values.sorted() {
            let t = number(v)
            if let (pv, pt) = previous, pv != v, pt == t { return false }
            previous = (v, t)
        }
        return true
    }
}
