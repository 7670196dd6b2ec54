import Foundation
import RetryStormResults
import RetryStormScenario
import RetryStormVocabulary
import SVGCharts

/// One swept key as the sweep charts show it: its distinct values, in increasing order when they
/// are numbers, and how to place them along an axis.
///
/// Placement, so that a cell's width or a point's position tells the truth: numeric values are
/// placed by value on the scale on which they are most evenly spaced — logarithmic for values
/// that grow by a factor (250 ms, 500 ms, 1 s; a `LO...HI:log:N` grid), linear for values that
/// grow by a step (1, 2, 3 attempts) — so values a tune adds between them (refinement) get
/// narrower cells where they are denser, as on an axis. Values that are not all numbers (jitter
/// kinds, `none`) are categorical, in order of first appearance, and the axis says so.
struct SweepKey: Equatable {
    enum Scale: Equatable {
        case categorical, linear, log
    }

    /// The dotted scenario path, e.g. `policy.backoff.base`.
    let path: String
    /// The values as written in the scenario and sweep.csv, in axis order.
    let values: [String]
    /// Each value as a number (seconds for durations, per second for rates); nil when some value
    /// is not a number.
    let numbers: [Double]?
    /// Whether the key is a duration (its numbers are seconds).
    let isDuration: Bool
    let scale: Scale

    /// The key `path` with the distinct `values` found in the results (any order).
    init(path: String, values: [String]) {
        self.path = path
        var distinct: [String] = []
        for v in values where !distinct.contains(v) { distinct.append(v) }
        let parsed = distinct.map { Self.number($0, path: path) }
        isDuration = Self.isDuration(path)
        if parsed.allSatisfy({ $0 != nil }) {
            let pairs = zip(distinct, parsed.map { $0! }).sorted { $0.1 < $1.1 }
            // Two spellings of one value ("1s", "1000ms") cannot be told apart on an axis.
            let numbers = pairs.map(\.1)
            if zip(numbers, numbers.dropFirst()).allSatisfy({ $0 < $1 }) {
                self.values = pairs.map(\.0)
                self.numbers = numbers
                scale = Self.scale(numbers)
                return
            }
        }
        self.values = distinct
        numbers = nil
        scale = .categorical
    }

    /// Log when every value is positive and the steps between neighbours are more even in log
    /// than in linear terms (the ratio of the largest step to the smallest is smaller); with two
    /// values, log when one is at least ten times the other. Linear otherwise.
    static func scale(_ numbers: [Double]) -> Scale {
        guard numbers.count > 1 else { return .linear }
        guard numbers.allSatisfy({ $0 > 0 }) else { return .linear }
        if numbers.count == 2 { return numbers[1] >= 10 * numbers[0] ? .log : .linear }
        func unevenness(_ xs: [Double]) -> Double {
            let steps = zip(xs, xs.dropFirst()).map { $1 - $0 }
            return (steps.max() ?? 1) / (steps.min() ?? 1)
        }
        return unevenness(numbers.map(log10)) < unevenness(numbers) ? .log : .linear
    }

    /// The heatmap placement of the values.
    var placement: Heatmap.Placement {
        switch (scale, numbers) {
        case (.log, let numbers?): .log(numbers)
        case (.linear, let numbers?): .linear(numbers)
        default: .categorical
        }
    }

    /// One unit for the labels of a duration key placed by value (``UniformFormat``): "0.25",
    /// "0.5", "1" in seconds rather than "250ms", "500ms", "1s" beside each other. Nil otherwise:
    /// the values are labelled as written.
    ///
    /// The unit is the one a table column would take (seconds up to 10 min): delays of 5 s to
    /// 2 min read "5 … 120" s, where the narrowest labels of a log axis would be "0.0833 … 2" min.
    var durationFormat: UniformFormat? {
        guard isDuration, let numbers, scale != .categorical else { return nil }
        return UniformFormat.fitting(
            numbers, format: .duration, scale: numbers.allSatisfy { $0 > 0 } ? .log : .linear,
            unit: DurationUnit.forLinear(maxMagnitude: numbers.map(abs).max() ?? 0))
    }

    /// The axis labels, left to right (bottom to top).
    var labels: [String] {
        guard let format = durationFormat, let numbers else { return values }
        return numbers.map(format.string)
    }

    /// The axis title: the path, the unit of duration labels, and "log scale" on a log scale
    /// (a categorical heatmap axis adds "categorical, not to scale" itself).
    var title: String {
        let label = scale == .log ? "\(path) (log scale)" : path
        return durationFormat?.title(label) ?? label
    }

    /// The value of `text` for key `path` as a number: seconds for durations, per second for
    /// rates; nil when it is not a number (`none`, a choice).
    static func number(_ text: String, path: String) -> Double? {
        guard let field = ScenarioSchema.byPath[path], let v = try? field.parse(text) else { return Units.decimal(text) }
        switch v {
        case .integer(let i): return i.map(Double.init)
        case .number(let d): return d
        case .duration(let ns): return ns.map { Double($0) / 1e9 }
        default: return nil
        }
    }

    static func isDuration(_ path: String) -> Bool {
        if case .duration = ScenarioSchema.byPath[path]?.kind { return true }
        return false
    }
}
