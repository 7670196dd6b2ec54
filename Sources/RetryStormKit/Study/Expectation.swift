/// A release gate or a tuning constraint: `[variant:]metric OP value`, judged on the mean over
/// replications. Without a variant it must hold for every point of the study.
public struct Expectation: Sendable, CustomStringConvertible {
    public enum Op: String, Sendable, CaseIterable {
        case le = "<=", ge = ">=", ne = "!=", eq = "==", lt = "<", gt = ">"

        func holds(_ x: Double, _ y: Double) -> Bool {
            switch self {
            case .le: x <= y
            case .ge: x >= y
            case .lt: x < y
            case .gt: x > y
            case .eq: x == y
            case .ne: x != y
            }
        }
    }

    public var variant: String?
    public var metric: String
    public var op: Op
    public var value: Double
    public var text: String
    public var location: SourceLocation

    public var description: String { text }

    public static func parse(_ raw: String, at location: SourceLocation) throws(ScenarioError) -> Expectation {
        let text = raw.filter { !$0.isWhitespace }
        // Two-character operators first, so `<=` is not read as `<`.
        guard let op = Op.allCases.first(where: { text.contains($0.rawValue) }),
              let range = text.range(of: op.rawValue) else {
            throw ScenarioError(location, "expected metric<=value (or >=, <, >, ==, !=), e.g. peak_load_ratio<=1.5 (got '\(raw)')")
        }
        var lhs = String(text[..<range.lowerBound])
        let rhs = String(text[range.upperBound...])
        var variant: String?
        if let colon = lhs.lastIndex(of: ":") {
            variant = String(lhs[..<colon])
            lhs = String(lhs[lhs.index(after: colon)...])
        }
        guard MetricTable.metrics.contains(lhs) else {
            let hint = Suggest.nearest(lhs, in: MetricTable.metrics).map { " Did you mean '\($0)'?" } ?? ""
            throw ScenarioError(location, "'\(lhs)' is not a metric (summary.csv column).\(hint)")
        }
        guard let value = Units.decimal(rhs) else {
            throw ScenarioError(location, "'\(rhs)' is not a number (metrics are in the units of their column, e.g. seconds)")
        }
        return Expectation(variant: variant, metric: lhs, op: op, value: value, text: raw, location: location)
    }

    /// One failure line per point where the mean breaks the expectation (or the variant is unknown).
    public func failures(in table: MetricTable) -> [String] {
        let names = variant.map { v in table.names.filter { $0 == v } } ?? table.names
        if names.isEmpty { return ["\(text) (\(location)): no variant named '\(variant ?? "")' in this study"] }
        var out: [String] = []
        for name in names {
            guard let ci = table.interval(name, metric) else { continue }
            if !op.holds(ci.mean, value) {
                let interval = ci.count > 1 ? " (95% CI \(Format.fixed(ci.low, 3))…\(Format.fixed(ci.high, 3)), \(ci.count) replications)" : ""
                out.append("\(text) (\(location)): \(name) has \(metric) = \(Format.fixed(ci.mean, 3))\(interval)")
            }
        }
        return out
    }

    /// Whether it holds at point `name` (for tuning).
    func holds(at name: String, in table: MetricTable) -> Bool {
        guard variant == nil || variant == name, let ci = table.interval(name, metric) else { return variant != nil }
        return op.holds(ci.mean, value)
    }
}
