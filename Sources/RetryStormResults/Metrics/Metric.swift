import GSLSupport
/// A metric: one number per replication that summary.csv writes (and, per population,
/// populations.csv; per service of a call graph, services.csv), that compare.csv and sweep.csv summarise, that gates, tune's objective and
/// constraints judge, and that the tables, charts and docs show.
///
/// Every fact about a metric is declared once, in the catalogue (`Metric+Catalogue.swift`):
/// its name (the CSV column), label, unit, number format, better direction, bounds, whether it
/// rewards giving up, and where it has a value. Code refers to a metric by its typed value
/// (`.gaveUpFraction`); a name is read only at the edges — a user's `--expect`, `--objective` or
/// `--constraint`, a CSV header, tune.json — with ``named(_:)``, and an unknown name is an error
/// there, never a default entry.
///
/// Adding a metric is one declaration in the catalogue (and its place in ``all``) plus its
/// computation in the record of each file it is written to (``SummaryRecord``, ``PopulationRecord``,
/// ``ServiceRecord``).
public struct Metric: Sendable, Hashable, CustomStringConvertible {
    /// How people read the number.
    public enum Kind: Sendable, Equatable {
        /// A count: grouped whole numbers.
        case count
        /// Seconds.
        case seconds
        /// A fraction (0…1) shown as a percentage.
        case fraction
        /// A plain number with a few decimals (ratios, means of counts).
        case ratio
    }

    /// Which way is better: what the best marks (``BestMarks``) and the findings judge.
    public enum Better: Sendable, Equatable {
        /// `lower`: smaller values are better (times, losses); `higher`: larger ones are (successes, `recovered`).
        case lower, higher
        /// Neither: a size or a count that describes the run rather than judges it.
        case neither
    }

    /// Where a metric has a value: the rows of a results file.
    public enum Scope: String, Sendable, CaseIterable {
        /// summary.csv: the whole fleet, one row per replication.
        case fleet
        /// populations.csv: one row per population and replication.
        case population
        /// services.csv: one row per service of a call graph and replication.
        case service
        /// edges.csv: one row per edge (`calls[]` entry) of a call graph and replication; no gate
        /// names its metrics.
        case edge

        /// The file whose columns the metrics of this scope are.
        package var file: String {
            switch self {
            case .fleet: "summary.csv"
            case .population: "populations.csv"
            case .service: "services.csv"
            case .edge: "edges.csv"
            }
        }
    }

    /// Which operations a metric counts.
    public enum Window: Sendable, Equatable {
        /// Every operation of the run.
        case run
        /// The operations that started in the incident window (from the first trigger to the later
        /// of the recovery and the trigger's end): they do not change when more quiet time is
        /// simulated after the incident.
        case incident
    }

    /// The CSV column, and what `--expect`, `--objective` and `--constraint` name.
    public let name: String
    /// Short label for table rows and axis titles, e.g. "time to success p99".
    public let label: String
    /// What the number is in, for the docs: "operations", "s", "×", "share", "attempts/op".
    public let unit: String
    /// How the number is read and shown; it sets the default ``format`` and ``bounds``.
    public let kind: Kind
    /// How summary.csv, populations.csv and services.csv write it.
    public let format: ValueFormat
    /// Which way is better, for the best marks and findings; `.neither` for one that describes the run.
    public let better: Better
    /// The values it can take: confidence intervals are cut to them (a count's never goes below 0).
    public let bounds: ClosedRange<Double>
    /// A time to success or to recovery: a point that loses clearly more operations cannot be
    /// best on it (giving up early makes the survivors look fast; see ``BestMarks``).
    public let rewardsGivingUp: Bool
    /// The files it is a column of (empty for a derived metric).
    public let scopes: [Scope]
    /// Which operations it counts: those of the whole run, or those started in the incident window.
    public let window: Window
    /// One sentence for the docs and `retrystorm metrics`.
    public let meaning: String
    /// For a metric that is no column: how it is computed from columns (nil for a column).
    public let derivation: String?
    /// Each replication's value is 1 or 0 (an event happened or not), so its mean is a
    /// probability whose interval is Wilson's (``interval95(_:)``), not Student's.
    public let isIndicator: Bool

    /// Declares a metric (the catalogue is the only place that does).
    /// - Parameters:
    ///   - format: nil: whole numbers for a count, six decimals otherwise.
    ///   - bounds: nil: 0…1 for a fraction, 0…∞ otherwise.
    ///   - in: the files it is written to.
    init(
        _ name: String, label: String, unit: String, kind: Kind, format: ValueFormat? = nil, better: Better,
        bounds: ClosedRange<Double>? = nil, rewardsGivingUp: Bool = false, in scopes: [Scope] = [.fleet],
        window: Window = .run, isIndicator: Bool = false, meaning: String, derivation: String? = nil
    ) {
        self.isIndicator = isIndicator
        self.name = name
        self.label = label
        self.unit = unit
        self.kind = kind
        self.format = format ?? (kind == .count ? .whole : .fixed(6))
        self.better = better
        self.bounds = bounds ?? (kind == .fraction ? 0...1 : 0...Double.infinity)
        self.rewardsGivingUp = rewardsGivingUp
        self.scopes = derivation == nil ? scopes : []
        self.window = window
        self.meaning = meaning
        self.derivation = derivation
    }

    /// The run total of a timeseries.csv count column: summary.csv names it as the time series does.
    static func total(
        of column: TimeSeriesColumn, label: String, unit: String, better: Better,
        in scopes: [Scope] = [.fleet], meaning: String
    ) -> Metric {
        Metric(column.name, label: label, unit: unit, kind: .count, better: better, in: scopes, meaning: meaning)
    }

    /// What a gate on a paired difference judges (``Expectation/Reference``): `metric`'s difference
    /// between two points, in its unit, or relative to the reference's mean (a fraction). No column;
    /// its kind and unit are what the tables and gate lines format it with, and it may be negative.
    package static func difference(of metric: Metric, relative: Bool) -> Metric {
        Metric(
            metric.name, label: metric.label + (relative ? ", relative difference" : ", difference"),
            unit: relative ? "share" : metric.unit, kind: relative ? .fraction : metric.kind,
            format: relative ? .fixed(6) : metric.format, better: metric.better, bounds: -Double.infinity...Double.infinity,
            meaning: "the paired difference of \(metric.name) from another variant", derivation: "a paired difference")
    }

    /// The unit beside a label in a table header or an axis title: a count's unit unless its
    /// label already names it ("failed attempts"), a ratio's, "s" for seconds, none for a
    /// fraction (its values carry "%").
    package var symbol: String {
        switch kind {
        case .count: label.contains(unit) ? "" : unit
        case .ratio: unit
        case .seconds: "s"
        case .fraction: ""
        }
    }

    /// The mean over replications of `values` (one per replication) and its 95% interval, cut
    /// to ``bounds``: Student's t, or Wilson's score interval for an indicator (the replications
    /// valued 1 among those with a value; NaN ones, where the metric is undefined, are left out,
    /// and with none left it is NaN).
    public func interval95(_ values: [Double]) -> ConfidenceInterval {
        guard isIndicator else { return Statistics.confidenceInterval95(values).clamped(to: bounds) }
        let defined = values.filter { !$0.isNaN }
        return Statistics.wilsonInterval95(successes: defined.filter { $0 >= 0.5 }.count, count: defined.count)
    }

    /// "label (unit)", the axis title.
    package var axisTitle: String { symbol.isEmpty ? label : "\(label) (\(symbol))" }

    /// Whether it is a column of a file (not derived).
    package var isColumn: Bool { derivation == nil }

    /// The ``name``, the CSV column.
    public var description: String { name }

    /// Metrics are equal when their names are: the name is a metric's identity.
    public static func == (a: Metric, b: Metric) -> Bool { a.name == b.name }

    /// Hashes the ``name`` alone, as ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    // MARK: - Lookup at the edges

    private static let byName: [String: Metric] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// The metric named `name` (a CSV column, a user's gate or objective), or nil.
    public static func named(_ name: String) -> Metric? { byName[name] }

    /// The summary.csv column named `name`: what gates, objectives and constraints judge, and
    /// what compare.csv and sweep.csv hold; nil for any other name.
    package static func summaryColumn(named name: String) -> Metric? {
        named(name).flatMap { $0.scopes.contains(.fleet) ? $0 : nil }
    }

    /// The metrics that are columns of `scope`'s file, in catalogue order.
    package static func columns(of scope: Scope) -> [Metric] { all.filter { $0.scopes.contains(scope) } }
}
