import RetryPolicy

/// The type of a scenario field: how its text is parsed and checked, and how it is documented.
package enum FieldKind: Sendable {
    /// `allowsNone` accepts `none` (no limit).
    case integer(min: Int, max: Int, allowsNone: Bool = false)
    case number(min: Double, max: Double)
    case fraction
    /// A duration with a unit; `allowsNone` accepts `none` (no limit).
    case duration(min: Nanoseconds, max: Nanoseconds, allowsNone: Bool)
    /// `none`, a duration (0 or more, at most `max`), or a percentile of observed latencies
    /// written `pNN` (`p95`, `p99.9`; 0 < NN < 100): the delay of a hedged request.
    case delayOrPercentile(max: Nanoseconds)
    /// Events per unit of time, stored per second; `allowsNone` accepts `none` (no limit).
    case rate(min: Double, max: Double, allowsNone: Bool = false)
    case choice([String])
    case boolean
    case text
    /// A list of `[time, multiplier]` pairs (`[[0s, 1], [20s, 2]]`): times with units, not
    /// decreasing, each at most twice (a step); multipliers ≥ 0.
    case points
    /// The path of an input file: with a `column`, a CSV file with the header `t_s,<column>` (a
    /// curve over time, ``CurveFile``); without, a policy file read whole (``PolicyImporter``).
    /// Relative to the scenario file when the file sets it, to the working directory when an
    /// option (`--set`, `--vary`, `--grid`) does. Every such key is an input file: read once per
    /// command, hashed, and copied into the results (``InputFiles``).
    case file(column: String?)

    /// A one-line description of accepted values, for messages and docs.
    var summary: String {
        switch self {
        case .integer(let lo, let hi, let none): "whole number \(lo)…\(hi)" + (none ? " or none" : "")
        case .number(let lo, let hi): "number \(Self.show(lo))…\(Self.show(hi))"
        case .fraction: "fraction 0…1 (or %)"
        case .duration(_, _, let none): none ? "duration (e.g. 2s) or none" : "duration (e.g. 250ms, 2s, 5m)"
        case .delayOrPercentile: "none, duration (e.g. 50ms) or percentile (e.g. p95, p99.9)"
        case .rate(_, _, let none): none ? "rate (e.g. 1000/s) or none" : "rate (e.g. 1000/s)"
        case .choice(let options): options.joined(separator: " | ")
        case .boolean: "true | false"
        case .text: "text"
        case .points: "list of [time, multiplier]"
        case .file(let column): column == nil ? "file path" : "CSV file path"
        }
    }

    static func show(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
