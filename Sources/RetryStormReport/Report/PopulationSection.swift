import GSLSupport
import RetryStormResults

/// The report's populations table (populations.csv): one row per point and population, with the
/// population's share of the fleet, what it lost and what it cost, each a mean over replications
/// with its 95% interval — the numbers behind "does upgrading part of the fleet protect anyone?".
/// Nothing for a scenario without populations.
enum PopulationSection {
    typealias Column = ReportTables.Column

    /// populations.csv metrics shown, with their labels (nil: the metric's) and units (nil: the
    /// format's own), in two tables so that neither is wider than a printed page.
    static let groups: [(title: String, columns: [Column])] = [
        (
            "Populations: outcome",
            [
                Column(.operations, unit: ""),
                Column(.gaveUpFraction, label: "gave up", unit: "% of operations"),
                Column(.incidentGaveUpFraction, label: "gave up, started in the incident", unit: "% of them"),
                Column(.amplification, unit: "attempts per operation")
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
                for c in columns {
                    let values = own.compactMap { $0.value(c.metric) }
                    intervals[c.metric] = Statistics.confidenceInterval95(values).clamped(to: c.metric.bounds)
                }
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
        for group in groups {
            // A column where no population has a value (no incident) says nothing.
            let shown = group.columns.filter { c in rows.contains { !($0.intervals[c.metric]?.mean.isNaN ?? true) } }
            guard !shown.isEmpty else { continue }
            out += HTML.element("h3", group.title) + "\n" + table(rows, shown, d).html
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
