import GSLSupport
import RetryStormResults

/// The report's populations table (populations.csv): one row per point and population, with the
/// population's share of the fleet, what it lost and what it cost, each a mean over replications
/// with its 95% interval — the numbers behind "does upgrading part of the fleet protect anyone?".
/// Nothing for a scenario without populations.
enum PopulationSection {
    typealias Column = ReportTables.Column

    /// populations.csv metrics shown, with their labels (nil: the metric's) and units (nil: the
    /// format's own), in three tables so that none is wider than a printed page (a point's name,
    /// the population and its clients take three columns of each).
    static let groups: [(title: String, columns: [Column])] = [
        (
            "Populations: outcome",
            [
                Column(.operations, unit: ""),
                Column(.lostFraction, label: "lost", unit: "% of operations"),
                Column(.gaveUpFraction, label: "gave up", unit: "% of operations"),
                Column(.blockedFraction, label: "blocked", unit: "% of operations"),
                Column(.unfinishedFraction, label: "unfinished", unit: "% of operations")
            ]
        ),
        (
            "Populations: retries",
            [
                Column(.incidentGaveUpFraction, label: "gave up, started in the incident", unit: "% of them"),
                Column(.amplification, unit: "attempts per operation"),
                Column(.retriesRefusedFraction, label: "retries refused by a guard", unit: "% of retries wanted")
            ]
        ),
        (
            "Populations: time to success",
            [
                Column(.ttsP50, label: "p50"),
                Column(.ttsP99, label: "p99"),
                Column(.incidentTTSP99, label: "p99, started in the incident")
            ]
        )
    ]

    static var columns: [Column] { groups.flatMap(\.columns) }

    /// One population of one point: its clients and, per shown metric, its interval.
    struct Row {
        var point: String
        var population: String
        var clients: Int
        var intervals: [Metric: ConfidenceInterval]
    }

    /// The rows in the report's point order, populations in file order.
    static func rows(_ d: ReportData) -> [Row] {
        let records = d.run.results.populations
        var populations: [String] = []
        for r in records where !populations.contains(r.population) { populations.append(r.population) }
        var rows: [Row] = []
        for p in d.order {
            let point = d.names[p]
            for population in populations {
                let own = records.filter { $0.variant == point && $0.population == population }.sorted { $0.replication < $1.replication }
                // A population of no clients (a rollout stage at 0%) has nothing to show.
                guard let first = own.first, first.clients > 0 else { continue }
                var intervals: [Metric: ConfidenceInterval] = [:]
                for c in columns where c.metric.isColumn {
                    let values = own.compactMap { $0.value(c.metric) }
                    intervals[c.metric] = c.metric.interval95(values)
                }
                // Lost: gave up + blocked + unfinished, replication by replication (``MetricTable/lostShares(_:)``).
                let lost = own.compactMap { r in
                    r.value(.gaveUpFraction).flatMap { g in
                        r.value(.blockedFraction).flatMap { b in r.value(.unfinishedFraction).map { g + b + $0 } }
                    }
                }
                intervals[.lostFraction] = Statistics.confidenceInterval95(lost).clamped(to: Metric.lostFraction.bounds)
                rows.append(Row(point: point, population: population, clients: first.clients, intervals: intervals))
            }
        }
        return rows
    }

    static func html(_ d: ReportData) -> String {
        let rows = rows(d)
        guard !rows.isEmpty else { return "" }
        let lead =
            "Each population of the fleet on its own (populations.csv): "
            + (d.replications > 1
                ? "mean over \(d.replications) replications and its 95% confidence interval." : "one replication, values without intervals.")
            + " Operations of a population count where they started, whatever the server did to the others; populations of no clients are left out."
        var out = HTML.element("p", lead, class: "note") + "\n"
        for sentence in losses(rows, d) { out += HTML.element("p", sentence) + "\n" }
        for group in groups {
            // A column where no population has a value (no incident) says nothing.
            // Blocked and unfinished only where some population had any, as in the outcome table.
            let shown = group.columns.filter { c in
                let values = rows.compactMap { $0.intervals[c.metric]?.mean }.filter { !$0.isNaN }
                let optional = c.metric == .blockedFraction || c.metric == .unfinishedFraction
                return !values.isEmpty && (!optional || values.contains { $0 > 0 })
            }
            guard !shown.isEmpty else { continue }
            out += HTML.element("h3", group.title) + "\n" + table(rows, shown, d).html
        }
        return out
    }

    /// At most this many points get a sentence on who loses what (a sweep's many points are in the table).
    static let pointsSaid = 4

    /// Which population loses what, a sentence per point (the first ``pointsSaid`` in the report's
    /// order): the populations from the most lost to the least, each with its lost share and 95%
    /// interval and what the loss is made of (gave up, blocked, unfinished at the horizon).
    /// "In base, old loses 12.3% (±0.4) of its operations (gave up 12.0%, unfinished 0.31%); new loses 0.52% (±0.10)."
    static func losses(_ rows: [Row], _ d: ReportData) -> [String] {
        var points: [String] = []
        for r in rows where !points.contains(r.point) { points.append(r.point) }
        let f = ColumnFormat(metric: .lostFraction, values: rows.compactMap { $0.intervals[.lostFraction] })
        var out: [String] = []
        for point in points.prefix(pointsSaid) {
            let own = rows.filter { $0.point == point }.filter { !($0.intervals[.lostFraction]?.mean.isNaN ?? true) }
            guard !own.isEmpty else { continue }
            let sorted = own.sorted { ($0.intervals[.lostFraction]?.mean ?? 0) > ($1.intervals[.lostFraction]?.mean ?? 0) }
            let parts = sorted.enumerated().map { i, r -> String in
                let ci = r.intervals[.lostFraction]!
                let parts: [(String, Metric)] = [("gave up", .gaveUpFraction), ("blocked", .blockedFraction), ("unfinished", .unfinishedFraction)]
                let made = parts.compactMap { word, m -> String? in
                    guard let x = r.intervals[m]?.mean, x > 0, ci.mean > 0 else { return nil }
                    return "\(word) \(f.text(x))"
                }
                let breakdown = made.count > 1 || (made.count == 1 && !made[0].hasPrefix("gave up")) ? " (\(made.joined(separator: ", ")))" : ""
                return "\(r.population) loses \(f.quote(ci))\(i == 0 ? " of its operations" : "")\(breakdown)"
            }
            let lead = d.names.count > 1 ? "In \(point), " : ""
            let sentence = lead + parts.joined(separator: "; ") + "."
            out.append(lead.isEmpty ? Findings.capitalized(sentence) : sentence)
        }
        return out
    }

    /// One table: the point (when there are several), the population and its clients, then `shown`.
    static func table(_ rows: [Row], _ shown: [Column], _ d: ReportData) -> ReportTable {
        let formats = Dictionary(
            uniqueKeysWithValues: shown.map { c in
                (c.metric, ColumnFormat(metric: c.metric, values: rows.compactMap { $0.intervals[c.metric] }))
            })
        let several = d.names.count > 1
        var header: [ReportTable.Header] = several ? [.init(d.run.results.kind == .compare ? "variant" : "point")] : []
        header += [.init("population"), .init("clients")]
        for c in shown { header.append(.init(c.label, unit: c.unit ?? formats[c.metric]!.unitSymbol)) }
        var table = ReportTable(header: header, labelColumns: several ? 2 : 1)
        for r in rows {
            var row: [ReportTable.Cell] = several ? [.text(r.point)] : []
            row += [.text(r.population), .text(ColumnFormat.count(r.clients))]
            for c in shown { row.append(.value(r.intervals[c.metric], formats[c.metric]!)) }
            table.rows.append(row)
        }
        return table
    }
}
