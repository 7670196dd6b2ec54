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
    /// decimals, fractions as percentages, ratios with three decimals; `n/a` and `never` for NaN
    /// and infinity.
    public func format(_ x: Double) -> String {
        if x.isNaN { return "n/a" }
        if x.isInfinite { return x > 0 ? "never" : "-never" }
        switch kind {
        case .count:
            // Means of counts over replications keep one decimal.
            guard abs(x) < 1e15 else { return NumberFormat.fixed(x, maxFractionDigits: 0) }
            let tenths = Int64((abs(x) * 10).rounded())
            let text = Format.grouped(tenths / 10) + (tenths % 10 == 0 ? "" : ".\(tenths % 10)")
            return x < 0 && tenths > 0 ? "-" + text : text
        // SVGCharts' formatter: exact for any finite magnitude, trailing zeros kept by padding.
        case .seconds, .ratio: return Self.padded(NumberFormat.fixed(x, maxFractionDigits: 3), 3)
        case .fraction: return Self.padded(NumberFormat.fixed(x * 100, maxFractionDigits: 1), 1) + "%"
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
