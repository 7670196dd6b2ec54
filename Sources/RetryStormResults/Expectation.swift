import GSLSupport
import RetryStormVocabulary

/// A release gate or a tuning constraint:
/// `[variant:][populations.NAME.|services.NAME.]metric[.vs(OTHER)|.minus(OTHER)][.ci95_low|.ci95_high] OP value`.
///
/// `populations.NAME.metric` judges that population's rows of populations.csv
/// (``MetricTable/populations``), e.g. `populations.new.gave_up_fraction<=1%`;
/// `services.NAME.metric` a call graph's service's rows of services.csv (``MetricTable/services``),
/// e.g. `services.db.requests_per_operation.ci95_high<=2`.
///
/// It judges the mean over replications, or an end of its 95% confidence interval: a gate such as
/// `peak_load_ratio.ci95_high<=2` passes only when the whole interval is within the bound, not
/// just its middle. A fraction may be written as a percentage (`gave_up_fraction<=0.1%`), a time
/// with a duration's unit (`tts_p99_s<=5000ms`; a plain number is seconds). Without a
/// variant it must hold for every point of the study (in `tune`, for the recommended point).
///
/// With `.vs(OTHER)` or `.minus(OTHER)` a gate judges the paired difference from the variant
/// OTHER, replication by replication (``Reference``): `mine:tts_p99_s.vs(full-jitter).ci95_high<=5%`
/// is "mine's p99 is not worse than full jitter's by more than 5%, with 95% confidence". Such a gate
/// needs two replications or more, and is a release gate only, not a tuning constraint.
public struct Expectation: Sendable, CustomStringConvertible {
    /// How the judged value compares with the bound; the raw value is how a gate writes it.
    public enum Op: String, Sendable, CaseIterable {
        /// At most the bound (`<=`): holds at equality.
        case le = "<="
        /// At least the bound (`>=`): holds at equality.
        case ge = ">="
        /// Anything but the bound (`!=`).
        case ne = "!="
        /// Exactly the bound (`==`), e.g. `gave_up==0`.
        case eq = "=="
        /// Strictly below the bound (`<`).
        case lt = "<"
        /// Strictly above the bound (`>`).
        case gt = ">"

        package func holds(_ x: Double, _ y: Double) -> Bool {
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

    /// What is judged: the mean, or an end of the 95% interval.
    public enum Statistic: String, Sendable, CaseIterable {
        /// The mean over replications (no suffix).
        case mean
        /// The lower end of the 95% interval (`.ci95_low`): a `>=` on it asks for confidence.
        case ci95Low = "ci95_low"
        /// The upper end of the 95% interval (`.ci95_high`): a `<=` on it asks for confidence.
        case ci95High = "ci95_high"

        package func value(_ ci: ConfidenceInterval) -> Double {
            switch self {
            case .mean: ci.mean
            case .ci95Low: ci.low
            case .ci95High: ci.high
            }
        }
    }

    /// The variant judged (`mine:`), nil for every point of the study.
    public var variant: String?
    /// The metric judged, a column of summary.csv (or of populations.csv with ``population``).
    public var metric: Metric
    /// The population judged (`populations.NAME.metric`), nil for the whole fleet.
    public var population: String?
    /// The service judged (`services.NAME.metric`), nil for the whole fleet.
    public var service: String? = nil
    /// The paired difference judged instead of the metric itself (`.vs(OTHER)`, `.minus(OTHER)`),
    /// nil for the metric's own value.
    public var reference: Reference? = nil
    /// The mean or an end of the 95% interval.
    public var statistic: Statistic
    /// How the judged value compares with ``value``.
    public var op: Op
    /// The bound, in the metric's unit (a fraction for a percentage; for `.vs`, a fraction of the
    /// reference's mean).
    public var value: Double
    /// The gate as it was written.
    public var text: String
    /// Where it was written: a scenario's `expect:` line, an option, or `expectation N` in Swift.
    public var location: SourceLocation

    /// The gate as it was written.
    public var description: String { text }

    package static func parse(_ raw: String, at location: SourceLocation) throws(ScenarioError) -> Expectation {
        let text = raw.filter { !$0.isWhitespace }
        // Two-character operators first, so `<=` is not read as `<`.
        guard let op = Op.allCases.first(where: { text.contains($0.rawValue) }),
            let range = text.range(of: op.rawValue)
        else {
            throw ScenarioError(location, "expected metric<=value (or >=, <, >, ==, !=), e.g. \(Metric.peakLoadRatio)<=1.5 (got '\(raw)')")
        }
        var lhs = String(text[..<range.lowerBound])
        let rhs = String(text[range.upperBound...])
        guard !rhs.isEmpty else {
            throw ScenarioError(location, "expected a value after \(op.rawValue), e.g. \(Metric.peakLoadRatio)<=1.5 (got '\(raw)')")
        }
        var statistic = Statistic.mean
        for s in [Statistic.ci95Low, .ci95High] where lhs.hasSuffix("." + s.rawValue) {
            statistic = s
            lhs.removeLast(s.rawValue.count + 1)
        }
        let reference = try Reference.parse(&lhs, at: location)
        var variant: String?
        if let colon = lhs.lastIndex(of: ":") {
            variant = String(lhs[..<colon])
            lhs = String(lhs[lhs.index(after: colon)...])
        }
        guard !lhs.isEmpty else {
            throw ScenarioError(location, "expected a metric before \(op.rawValue), e.g. \(Metric.peakLoadRatio)<=1.5 (got '\(raw)')")
        }
        let scoped = try ScopedMetric.parse(lhs, at: location)
        let metric = scoped.metric
        let value: Double
        if reference?.relative == true {
            value = try Reference.relativeBound(rhs, at: location)
        } else if rhs.hasSuffix("%") {
            guard metric.kind == .fraction else {
                throw ScenarioError(
                    location, "'\(rhs)': \(lhs) is not a fraction, so it takes a plain number in its unit (\(metric.unit)), not a percentage")
            }
            guard let v = Units.decimal(String(rhs.dropLast())) else {
                throw ScenarioError(location, "'\(rhs)' is not a percentage")
            }
            value = v / 100
        } else if let v = Units.decimal(rhs) {
            value = v
        } else if metric.kind == .seconds {
            // A time may carry its unit, read as the scenario's durations are: 5000ms, 2s, 1.5m.
            do {
                value = Double(try Units.duration(rhs)) / 1e9
            } catch {
                throw ScenarioError(location, field: metric.name, "\(error.message); a plain number is seconds")
            }
        } else {
            throw ScenarioError(
                location, field: metric.name,
                "'\(rhs)' is not a number (metrics are in the units of their column, e.g. seconds; times may be written as 500ms, fractions as 0.1%)"
            )
        }
        return Expectation(
            variant: variant, metric: metric, population: scoped.population, service: scoped.service, reference: reference,
            statistic: statistic, op: op, value: value, text: raw, location: location)
    }

    /// The quantity judged, for formatting its values: the metric, or its paired difference
    /// (a fraction for `.vs`).
    package var judgedMetric: Metric {
        reference.map { Metric.difference(of: metric, relative: $0.relative) } ?? metric
    }

    /// What it judges: the metric, of the fleet, a population or a service.
    package var scoped: ScopedMetric { ScopedMetric(metric, population: population, service: service) }

    /// Refuses, before anything runs, an expectation that names a population the scenario does not have.
    package func check(populations names: [String]) throws(ScenarioError) {
        try scoped.check(populations: names, at: location)
    }

    /// Refuses, before anything runs, an expectation that names a service the scenario does not have.
    package func check(services names: [String]) throws(ScenarioError) {
        try scoped.check(services: names, at: location)
    }

    /// The interval it judges at point `name`: the fleet's, or its population's; for a gate on a
    /// difference, the paired difference's (``Reference/interval(_:_:in:)``).
    package func interval(_ name: String, in table: MetricTable) -> ConfidenceInterval? {
        guard let scoped = table.scoped(population, service: service) else { return nil }
        guard let reference else { return scoped.interval(name, metric) }
        return reference.interval(name, metric, in: scoped)
    }

    /// The cell it judges at point `name` (every replication's value).
    package func cell(_ name: String, in table: MetricTable) -> MetricTable.Cell? {
        table.scoped(population, service: service)?.cell(name, metric)
    }

    /// Refuses, before anything runs, an expectation that names a point the study does not have.
    package func check(points names: [String]) throws(ScenarioError) {
        for name in [variant, reference?.variant].compactMap({ $0 }) where !names.contains(name) {
            let hint = Suggest.nearest(name, in: names).map { " Did you mean '\($0)'?" } ?? ""
            let list = names.count <= 12 ? " (\(names.joined(separator: ", ")))" : ""
            throw ScenarioError(location, "'\(name)' is not a variant of this study\(list).\(hint)")
        }
        if let reference, reference.variant == variant {
            throw ScenarioError(location, "'\(text)' compares \(reference.variant) with itself: name another variant in .\(reference.word)(…)")
        }
    }

    /// The points of `scope` it judges: its variant, or every point but the one it is compared with.
    func judgedPoints(_ scope: [String]) -> [String] {
        if let variant { return scope.filter { $0 == variant } }
        return scope.filter { $0 != reference?.variant }
    }

    /// The judged value at point `name` (nil if the table has no such point).
    package func judged(_ name: String, in table: MetricTable) -> Double? {
        interval(name, in: table).map { statistic.value($0) }
    }

    /// The expectation judged at one point: the value judged (the mean or an end of the interval),
    /// the whole interval, and whether it holds.
    public struct Outcome: Sendable, Equatable {
        /// The point judged: a variant of compare, a grid point of sweep, `base` for run.
        public var point: String
        /// The value judged (the mean or the end of the interval the gate names), in the metric's
        /// unit; for a difference, the difference (a fraction for `.vs`). NaN: no value.
        public var value: Double
        /// The mean and 95% interval of what is judged (count: replications, or pairs for a difference).
        public var interval: ConfidenceInterval
        /// Whether ``value`` satisfies the bound (a difference with fewer than two pairs never does).
        public var holds: Bool
        /// The verdict with confidence: whether the whole 95% interval is inside the bound.
        public var verdict: ConstraintVerdict
    }

    /// The points of `points` (every point of `table` when nil) that the expectation judges — only
    /// its own variant when it names one — each with its outcome, in `points`' order. Empty when it
    /// names a variant that is not among them.
    public func outcomes(in table: MetricTable, points: [String]? = nil) -> [Outcome] {
        judgedPoints(points ?? table.names).compactMap { name in
            interval(name, in: table).map { ci in
                let x = statistic.value(ci)
                // A difference "with 95% confidence" needs an interval: one pair has none.
                if reference != nil && ci.count < 2 {
                    return Outcome(point: name, value: x, interval: ci, holds: false, verdict: .notMet)
                }
                return Outcome(point: name, value: x, interval: ci, holds: op.holds(x, value), verdict: ConstraintVerdict(self, ci))
            }
        }
    }

    /// One failure line per point of `points` (every point when nil) where the expectation breaks.
    public func failures(in table: MetricTable, points: [String]? = nil) -> [String] {
        let scope = points ?? table.names
        for name in [variant, reference?.variant].compactMap({ $0 }) where !scope.contains(name) {
            return ["\(text) (\(location)): no variant named '\(name)' in this study"]
        }
        if let population, table.scoped(population) == nil {
            return ["\(text) (\(location)): no population named '\(population)' in these results"]
        }
        if let service, table.scoped(nil, service: service) == nil {
            return ["\(text) (\(location)): no service named '\(service)' in these results"]
        }
        // A time that never came (no recovery, too few successes for a percentile) is "never",
        // as the tables say it, not the CSV's `inf`.
        func shown(_ x: Double) -> String { x == .infinity && metric.kind == .seconds ? "never" : Format.fixed(x, 3) }
        if let reference { return reference.failures(of: self, in: table, points: scope) }
        return outcomes(in: table, points: scope).filter { !$0.holds }.map { o in
            let ci = o.interval
            let interval = ci.count > 1 ? " (95% CI \(shown(ci.low))…\(shown(ci.high)), \(ci.count) replications)" : ""
            let what = statistic == .mean ? scoped.description : "\(scoped).\(statistic.rawValue)"
            return "\(text) (\(location)): \(o.point) has \(what) = \(shown(o.value))\(statistic == .mean ? interval : "")"
                + (statistic == .mean ? "" : " (mean \(shown(ci.mean)), \(ci.count) replications)")
        }
    }

    /// Whether it holds at point `name` (for tuning).
    package func holds(at name: String, in table: MetricTable) -> Bool {
        guard variant == nil || variant == name, let x = judged(name, in: table) else { return variant != nil }
        return op.holds(x, value)
    }

    /// The verdict with confidence at point `name` (met where it does not apply: another variant's).
    package func verdict(at name: String, in table: MetricTable) -> ConstraintVerdict {
        guard variant == nil || variant == name else { return .met }
        guard let ci = interval(name, in: table) else { return .notMet }
        return ConstraintVerdict(self, ci)
    }

    /// How far the judged value `x` lies inside the bound, in the metric's unit: bound − x for
    /// `<=` and `<`, x − bound for `>=` and `>`, |x − bound| for `!=`, −|x − bound| for `==`
    /// (0 when it holds). Negative when it fails.
    package func margin(_ x: Double) -> Double {
        switch op {
        case .le, .lt: value - x
        case .ge, .gt: x - value
        case .ne: abs(x - value)
        case .eq: -abs(x - value)
        }
    }

    /// How far point `name` misses it, relative to the bound: |x − value| / max(|value|, 1e-9)
    /// when it fails (0 when it holds); the tuner ranks points that meet no constraints set by the
    /// sum of these. A metric with no value (NaN) misses by +∞.
    package func violation(at name: String, in table: MetricTable) -> Double {
        guard variant == nil || variant == name else { return 0 }
        guard let x = judged(name, in: table) else { return .infinity }
        return violation(of: x)
    }

    /// How far the value `x` misses the bound, relative to it (0 when it holds, +∞ for NaN): the
    /// same measure as ``violation(at:in:)``, applied to one replication's value when the tuner
    /// compares violations replication by replication.
    package func violation(of x: Double) -> Double {
        if x.isNaN { return .infinity }
        if op.holds(x, value) { return 0 }
        let miss = op == .ne ? 1 : abs(x - value)
        return miss / max(abs(value), 1e-9)
    }
}
