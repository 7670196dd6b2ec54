import GSLSupport
import RetryStormVocabulary

extension Expectation {
    /// The variant a gate compares with, and how: the paired difference `point − variant` of the
    /// metric over the replications both have (replication r of every variant draws the same
    /// arrivals and service times, so the noise they share cancels: ``PairedDifference``).
    ///
    /// - `.minus(OTHER)`: the difference in the metric's unit (seconds, a fraction, a count);
    ///   `tts_p99_s.minus(full-jitter).ci95_high<=0.5` is "at most half a second slower".
    /// - `.vs(OTHER)`: the difference relative to OTHER's mean over the same replications, a
    ///   fraction (`5%` or `0.05`); `tts_p99_s.vs(full-jitter).ci95_high<=5%` is "at most 5% slower,
    ///   with 95% confidence". The interval is the paired interval divided by that mean (the
    ///   reference's mean is taken as known: its own spread is in the paired differences already).
    ///
    /// Which end says "not worse" follows the metric: for a lower-is-better metric (times, losses,
    /// load) bound the upper end, `.ci95_high<=`; for a higher-is-better one (a success share)
    /// the lower end, `.ci95_low>=-5%`.
    public struct Reference: Sendable, Hashable {
        /// The variant subtracted.
        public var variant: String
        /// Whether the difference is relative to the reference's mean (`.vs`) or in the metric's
        /// unit (`.minus`).
        public var relative: Bool

        /// - Parameters:
        ///   - variant: the variant subtracted, a point of the study.
        ///   - relative: true for `.vs` (a fraction of its mean), false for `.minus` (the metric's unit).
        public init(variant: String, relative: Bool) {
            self.variant = variant
            self.relative = relative
        }

        /// How it is written: "vs" or "minus".
        package var word: String { relative ? "vs" : "minus" }

        /// Takes a trailing `.vs(NAME)` or `.minus(NAME)` off `lhs`, or leaves it and returns nil.
        static func parse(_ lhs: inout String, at location: SourceLocation) throws(ScenarioError) -> Reference? {
            if let problem = parenthesisProblem(lhs) { throw ScenarioError(location, "'\(lhs)': \(problem)") }
            for relative in [true, false] {
                let opening = "." + (relative ? "vs" : "minus") + "("
                guard lhs.hasSuffix(")"), let start = lhs.range(of: opening, options: .backwards) else { continue }
                let name = String(lhs[start.upperBound..<lhs.index(before: lhs.endIndex)])
                guard !name.isEmpty, !name.contains("("), !name.contains(")") else {
                    throw ScenarioError(location, "'\(lhs)': name the variant to compare with, e.g. tts_p99_s\(opening)full-jitter)")
                }
                let rest = String(lhs[..<start.lowerBound])
                guard !Statistic.allCases.contains(where: { $0 != .mean && rest.hasSuffix("." + $0.rawValue) }) else {
                    throw misplaced(lhs, location)
                }
                lhs = rest
                return Reference(variant: name, relative: relative)
            }
            if lhs.contains(".vs(") || lhs.contains(".minus(") { throw misplaced(lhs, location) }
            return nil
        }

        /// What is wrong with the parentheses in `lhs`, or nil. Only `.vs(NAME)` and `.minus(NAME)`
        /// hold them, one pair, and variant names hold none (``VariantName``): a parenthesis
        /// left open, closed twice or standing elsewhere is a typing slip, and saying so beats
        /// advice about where a difference goes or that it needs a name.
        static func parenthesisProblem(_ lhs: String) -> String? {
            let opens = lhs.count(where: { $0 == "(" })
            let closes = lhs.count(where: { $0 == ")" })
            guard opens + closes > 0 else { return nil }
            let example = "e.g. tts_p99_s.vs(full-jitter).ci95_high<=5%"
            let shape = "a difference is written .vs(VARIANT) or .minus(VARIANT), one at most"
            if opens > closes { return "a '(' is not closed: \(shape), \(example)" }
            if closes > opens { return "a ')' closes no '(': \(shape), \(example)" }
            if opens > 1 { return "\(shape), \(example)" }
            guard let open = lhs.firstIndex(of: "("), let close = lhs.firstIndex(of: ")"), open < close else {
                return "a ')' comes before its '(': \(shape), \(example)"
            }
            guard lhs[..<open].hasSuffix(".vs") || lhs[..<open].hasSuffix(".minus") else {
                return "parentheses belong to a difference only: \(shape), \(example)"
            }
            return nil
        }

        static func misplaced(_ lhs: String, _ location: SourceLocation) -> ScenarioError {
            ScenarioError(
                location,
                "'\(lhs)': a difference comes right after the metric, before .ci95_low or .ci95_high (e.g. tts_p99_s.vs(full-jitter).ci95_high<=5%)")
        }

        /// The bound of a `.vs` gate: a fraction, written as a percentage or a plain number.
        static func relativeBound(_ rhs: String, at location: SourceLocation) throws(ScenarioError) -> Double {
            let percent = rhs.hasSuffix("%")
            guard let v = Units.decimal(percent ? String(rhs.dropLast()) : rhs) else {
                throw ScenarioError(location, "'\(rhs)': a relative difference (.vs) is a fraction of the other variant's mean: 5% or 0.05")
            }
            return percent ? v / 100 : v
        }

        /// The paired difference of `metric`, `name − variant`, in `table`: its mean and 95% interval
        /// (count: the pairs); relative to the reference's mean for `.vs` (NaN when that mean is 0 or
        /// not finite: a time that never came has no relative difference). Nil when either point
        /// has no such cell.
        func interval(_ name: String, _ metric: Metric, in table: MetricTable) -> ConfidenceInterval? {
            guard let a = table.cell(name, metric), let b = table.cell(variant, metric) else { return nil }
            let d = PairedDifference(a.values, replications: a.replications, minus: b.values, replications: b.replications).interval
            guard relative else { return d }
            let base = Self.pairedMean(of: b, with: a)
            guard base.isFinite, base != 0 else { return ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: d.count) }
            let (low, high) = base > 0 ? (d.low / base, d.high / base) : (d.high / base, d.low / base)
            return ConfidenceInterval(mean: d.mean / base, low: low, high: high, count: d.count)
        }

        /// The mean of `b`'s values over the replications that pair with `a` (both values numbers).
        static func pairedMean(of b: MetricTable.Cell, with a: MetricTable.Cell) -> Double {
            var mine: [Int: Double] = [:]
            for (r, x) in zip(a.replications, a.values) where !x.isNaN { mine[r] = x }
            let paired = zip(b.replications, b.values).filter { mine[$0.0] != nil && !$0.1.isNaN }.map(\.1)
            // A plain sum: GSL's running mean makes NaN of ∞ − ∞, where times that never came mean never.
            return paired.isEmpty ? .nan : paired.reduce(0, +) / Double(paired.count)
        }

        /// One failure line per point where `gate` breaks: the difference judged, its interval and
        /// pairs, the reference's mean for `.vs`; a point with fewer than two pairs says so.
        func failures(of gate: Expectation, in table: MetricTable, points: [String]) -> [String] {
            let metric = gate.metric
            let unit = relative ? "" : metric.kind == .seconds ? " s" : ""
            func shown(_ x: Double) -> String {
                if x.isNaN { return "n/a" }
                if x.isInfinite { return x > 0 ? "+∞" : "-∞" }
                let v = relative || metric.kind == .fraction ? x * 100 : x
                return (v >= 0 ? "+" : "") + Format.fixed(v, 3) + (relative || metric.kind == .fraction ? "%" : unit)
            }
            let scoped = table.scoped(gate.population, service: gate.service)
            return gate.outcomes(in: table, points: points).filter { !$0.holds }.map { o in
                let ci = o.interval
                let what = "\(o.point) − \(variant) in \(gate.scoped)"
                let head = "\(gate.text) (\(gate.location)): "
                guard ci.count >= 2 else {
                    return head + "\(what): a paired difference needs at least 2 replications of both (got \(ci.count) pair"
                        + "\(ci.count == 1 ? "" : "s")); run with --replications 2 or more"
                }
                if o.value.isInfinite {
                    // A time that never came (the tables' "never") in one of a pair but not the other.
                    let never = o.value > 0 ? o.point : variant
                    return head + "\(what) is \(shown(o.value)): \(never)'s \(gate.scoped) never came in a replication where the other's did"
                }
                var relativeTo = ""
                if relative, let a = scoped?.cell(o.point, metric), let b = scoped?.cell(variant, metric) {
                    let base = Self.pairedMean(of: b, with: a)
                    guard base.isFinite, base != 0 else {
                        let mean = base.isInfinite && metric.kind == .seconds ? "never" : Format.fixed(base, 3)
                        return head + "\(what) has no relative value: \(variant)'s mean is \(mean) (.minus(\(variant)) judges the difference itself)"
                    }
                    relativeTo = ", relative to \(variant)'s mean \(Format.fixed(base, 3))\(metric.kind == .seconds ? " s" : "")"
                }
                let judged = gate.statistic == .mean ? "mean" : gate.statistic.rawValue
                return head + "\(what)\(relativeTo) has \(judged) \(shown(o.value)) (95% CI \(shown(ci.low))…\(shown(ci.high)), "
                    + "\(ci.count) pairs)"
            }
        }
    }
}
