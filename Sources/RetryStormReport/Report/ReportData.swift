import GSLSupport
import RetryStormResults

/// What every part of the report reads, computed once: the results' metric table, the points in
/// the order the report lists them, one ``ColumnFormat`` per metric over every point (so a value
/// prints the same in the findings, the tables and the tune section), the baseline, and the points
/// that lose clearly more operations (``BestMarks``' rule).
struct ReportData {
    let run: RunDirectory
    private(set) var table: MetricTable
    /// Point indices in the report's order: rank order for a tune (tune.csv) and a sweep (by its
    /// objective), the study's order otherwise.
    let order: [Int]
    /// How a sweep's points are ordered, for the tables' note (nil: study or tune order).
    let sweepObjective: Objective?
    /// The point compared with in compare.csv (nil when the study has none).
    let baseline: String?
    /// The fewest replications of any point (the report judges nothing with fewer than two).
    let replications: Int
    /// Points that lose clearly more operations (gave up + blocked + unfinished) than another point
    /// (``MetricTable/losesClearlyMore(_:than:)``).
    let losesMore: Set<Int>
    private var formats: [Metric: ColumnFormat]
    /// Lost share (``Metric/lostFraction``: gave up + blocked + unfinished, of operations) per point, and its format.
    let lost: [ConfidenceInterval]
    let lostFormat: ColumnFormat

    init(_ run: RunDirectory) {
        self.run = run
        let results = run.results
        // Locals, not self's members: closures below cannot capture self before every member is set.
        let table = run.metrics
        self.table = table
        let names = table.names
        baseline = table.baseline ?? (results.kind == .compare && names.count > 1 ? names.first : nil)
        replications = names.compactMap { table.interval($0, .operations)?.count }.min() ?? 0
        var formats: [Metric: ColumnFormat] = [:]
        for metric in MetricTable.metrics {
            formats[metric] = ColumnFormat(metric: metric, table: table)
        }
        self.formats = formats
        lost = names.map { Self.lostShare(table, $0) }
        lostFormat = ColumnFormat(metric: .lostFraction, values: lost)
        losesMore = replications > 1 ? table.losingClearlyMore(among: Array(names.indices)) : []

        (order, sweepObjective) = Self.order(run)
    }

    /// The points' indices in the report's order, and how a sweep's are ordered (nil: study or tune
    /// order): the tune's ranking, a sweep's objective, else the study's order.
    static func order(_ run: RunDirectory) -> (order: [Int], sweepObjective: Objective?) {
        let names = run.metrics.names
        switch run.results.kind {
        case .tune:
            let index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            let ranked = run.results.ranking.sorted { $0.rank < $1.rank }.compactMap { index[$0.variant] }
            return (ranked + names.indices.filter { !ranked.contains($0) }, nil)
        case .sweep:
            // The scenario's objective (one this version does not know ranks nothing), else p99.
            let objective = MetricTable.sweepObjective(run.scenario.objective?.value)
            return (run.metrics.sweepOrder(objective), objective)
        case .run, .compare:
            return (Array(names.indices), nil)
        }
    }

    /// The same points, order and bars, with values and formats from `other` (a service's table,
    /// ``MetricTable/services``): for sentences about the focus.
    func judged(on other: MetricTable) -> ReportData {
        var copy = self
        copy.table = other
        copy.formats = Dictionary(other.columns.map { ($0, ColumnFormat(metric: $0, table: other)) }, uniquingKeysWith: { a, _ in a })
        return copy
    }

    /// The format of `metric` over every point.
    func format(_ metric: Metric) -> ColumnFormat {
        formats[metric] ?? ColumnFormat(metric: metric, values: [])
    }

    var names: [String] { table.names }

    func interval(_ p: Int, _ metric: Metric) -> ConfidenceInterval? {
        table.interval(table.names[p], metric)
    }

    /// "98.4 s (±1.8)", "10 [0, 25]", "2.02×": a value with its unit and interval, for a sentence;
    /// `words` go between the value and its interval ("2.02× capacity (±0.31)").
    func quote(_ p: Int, _ metric: Metric, words: String = "") -> String {
        guard let ci = interval(p, metric) else { return "n/a" }
        return Self.quote(ci, format(metric), words: words)
    }

    static func quote(_ ci: ConfidenceInterval, _ format: ColumnFormat, words: String = "") -> String {
        format.quote(ci, words: words)
    }

    /// The share of operations lost (gave up + blocked + unfinished, ``MetricTable/lostShares(_:)``)
    /// at point `name`, with its 95% interval cut to 0…1.
    static func lostShare(_ table: MetricTable, _ name: String) -> ConfidenceInterval {
        guard let lost = table.lostShares(name) else { return ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 0) }
        return Statistics.confidenceInterval95(lost.values).clamped(to: 0...1)
    }

    /// Whether any point blocked an operation (a budget or a breaker): else "lost" is "gave up".
    var anyBlocked: Bool {
        names.contains { (table.interval($0, .blockedFraction)?.mean ?? 0) > 0 }
    }

    /// Whether any point left an operation unfinished at the horizon (a breaker or a slot queue
    /// that kept it waiting, a retry scheduled past the end).
    var anyUnfinished: Bool {
        names.contains { (table.interval($0, .unfinishedFraction)?.mean ?? 0) > 0 }
    }

    /// How the lost operations were lost, for a sentence: "gave up", "gave up or were blocked",
    /// "gave up, were blocked or were still unfinished at the horizon".
    var lostHow: String {
        var ways = ["gave up"]
        if anyBlocked { ways.append("were blocked") }
        if anyUnfinished { ways.append("were still unfinished at the horizon") }
        return ReportData.list(ways).replacingOccurrences(of: " and were", with: " or were")
    }

    /// Names joined for a sentence: "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
        }
    }
}
