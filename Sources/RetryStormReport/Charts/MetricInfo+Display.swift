import RetryStormScenario
import RetryStormResults
import SVGCharts

extension MetricInfo {
    /// The axis format for charts of this metric.
    package var axisFormat: Axis.Format {
        switch kind {
        case .seconds: .duration
        case .fraction: .percent
        case .count, .ratio: .number
        }
    }

    /// The value for tables: counts grouped (means of counts keep one decimal), seconds with three
    /// decimals, fractions as percentages with one, ratios with three; `n/a` and `never` for NaN
    /// and infinity.
    ///
    /// Rounded by ``HumanNumber``'s rule — on the shortest decimal, ties to even — the rule of
    /// every number in the charts, so a value prints the same in a table and on a chart at the
    /// same precision (46.05 s is "46.0" in both, never "46.0" here and "46.1" there).
    public func format(_ x: Double) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return x > 0 ? "never" : "-never" }
        switch kind {
        case .count:
            // Means of counts over replications keep one decimal.
            return HumanNumber(.decimals(1), trimsTrailingZeros: true, groupsThousands: true).format(x)
        case .seconds, .ratio:
            return HumanNumber(.decimals(3)).format(x)
        case .fraction:
            // Percent by moving the decimal point (exact), then padded so a column lines up.
            return Self.padded(String(NumberFormat.percent(x, maxFractionDigits: 1).dropLast()), 1) + "%"
        }
    }
}

extension MetricInfo {
    /// `text` with its fraction padded to `decimals` digits, so columns of numbers line up.
    static func padded(_ text: String, _ decimals: Int) -> String {
        let fraction = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? -1
        if fraction < 0 { return text + "." + String(repeating: "0", count: decimals) }
        return text + String(repeating: "0", count: decimals - fraction)
    }
}
