import GSLSupport
import RetryStormResults

/// The report's full tables: points as rows (in ``ReportData/order``: rank order for a tune and a
/// sweep), metrics in three groups — load, outcome, time — with friendly labels, the unit under
/// each label, and every value in its column's ``ColumnFormat``. A tune adds its ranking first.
enum ReportTables {
    /// A column: a summary.csv metric (or ``Metric/lostFraction``, the lost share), its label
    /// when it is not the metric's, and its unit when it is not the format's ("% of served").
    struct Column {
        var metric: Metric
        var label: String
        var unit: String?
        /// The service whose table the column reads (a call graph's focus); nil: the users'.
        var service: String?

        init(_ metric: Metric, label: String? = nil, unit: String? = nil, service: String? = nil) {
            self.metric = metric
            self.label = label ?? metric.label
            self.unit = unit
            self.service = service
        }
    }

    struct Group {
        var title: String
        var columns: [Column]
    }

    static let groups: [Group] = [
        Group(
            title: "Load",
            columns: [
                Column(.peakLoadRatio, label: "peak load", unit: "× capacity"),
                Column(.peakOverload, label: "peak load at the time", unit: "× capacity then"),
                Column(.incidentLoadRatio, label: "mean load in the incident", unit: "× capacity then"),
                Column(.amplification, unit: "attempts per operation"),
                Column(.wastedFraction, label: "wasted work", unit: "% of served"),
                // Here rather than beside `recovered`: the outcome table is the widest at 800 px.
                Column(.stuck, label: "stuck at the horizon", unit: "% of replications")
            ]),
        Group(
            title: "Outcome",
            columns: [
                Column(.operations, unit: ""),
                Column(.succeeded, unit: ""),
                Column(.gaveUpFraction, label: "gave up", unit: "% of operations"),
                Column(.blockedFraction, label: "blocked", unit: "% of operations"),
                Column(.unfinishedFraction, label: "unfinished at the horizon", unit: "% of operations"),
                Column(.lostFraction, label: "lost: did not succeed", unit: "% of operations"),
                Column(.recovered, label: "recovered", unit: "% of replications")
            ]),
        Group(
            title: "Time",
            columns: [
                Column(.ttsP50),
                Column(.ttsP99),
                Column(.ttsP999),
                Column(.ttsSuccessP99, label: "p99 among successes"),
                Column(.incidentTTSP99, label: "p99 of operations started in the incident"),
                Column(.recovery, label: "recovery after the trigger began"),
                Column(.recoveryAfterTrigger, label: "recovery after it ended")
            ])
    ]

    /// The groups of `d`'s tables: in a call graph, the load is the focus's (its peak over its own
    /// capacity and its requests per user operation) in place of the first service's peaks, which
    /// stay flat while the storm lands downstream.
    static func groups(_ d: ReportData) -> [Group] {
        guard let focus = d.table.focus?.name, d.table.services[focus] != nil else { return groups }
        var out = groups
        out[0].columns.removeAll { [.peakLoadRatio, .peakOverload, .incidentLoadRatio].contains($0.metric) }
        out[0].columns.insert(
            contentsOf: [
                Column(.peakLoadRatio, label: "peak load at \(focus)", unit: "× its capacity", service: focus),
                Column(FocusService.load, label: "requests at \(focus)", unit: "per user operation", service: focus)
            ], at: 0)
        return out
    }

    /// The columns of `group` that say something here: not every value missing, blocked only where
    /// something was blocked, unfinished only where something was unfinished, lost only where
    /// either was (else lost is gave up). Where some point's p99 over every operation is never,
    /// p99 among successes takes p99.9's place (that point's p99.9 is never too, and one column
    /// more is too many for an 800 px page: tune-delays); elsewhere p99.9 stays.
    static func columns(_ group: Group, _ d: ReportData) -> [Column] {
        let anyNever = d.order.contains { d.interval($0, .ttsP99)?.mean == .infinity }
        return group.columns.filter { c in
            if c.metric == .blockedFraction { return d.anyBlocked }
            if c.metric == .unfinishedFraction { return d.anyUnfinished }
            if c.metric == .lostFraction { return d.anyBlocked || d.anyUnfinished }
            if c.metric == .ttsSuccessP99 { return anyNever }
            if c.metric == .ttsP999 && anyNever { return false }
            // As the terminal's (``StudyTable/shown(_:order:)``): after a trigger, or where a point got stuck without one.
            if c.metric == .stuck && !d.order.contains(where: { !(d.interval($0, .recovered)?.mean.isNaN ?? true) })
                && !d.order.contains(where: { (d.interval($0, .stuck)?.mean ?? 0) > 0 })
            {
                return false
            }
            let own = on(c, d)
            return d.order.contains { own.interval($0, c.metric).map { !$0.mean.isNaN } ?? false }
        }
    }

    /// The table of one group, with its footnotes (where a best mark is shared, withheld or kept
    /// from a point that loses clearly more operations).
    static func table(_ group: Group, _ d: ReportData) -> (table: ReportTable, notes: [String]) {
        let columns = columns(group, d)
        let ranked = d.run.results.kind == .tune || d.run.results.kind == .sweep
        var header: [ReportTable.Header] = ranked ? [.init("rank")] : []
        header.append(.init(d.run.results.kind == .compare ? "variant" : d.names.count == 1 ? "" : "point"))
        // One note per verdict, naming every column it applies to: the same "not for …" under
        // each of six time columns says nothing the first did not.
        var notes: [(text: String, labels: [String])] = []
        var marks: [BestMarks] = []
        for c in columns {
            let own = on(c, d)
            let f = c.metric == .lostFraction ? d.lostFormat : own.format(c.metric)
            header.append(.init(c.label, unit: c.unit ?? f.unitSymbol))
            let m = BestMarks(own.table, metric: c.metric, among: d.order)
            marks.append(m)
            for note in m.notes(names: d.names) {
                let text = note.replacingOccurrences(of: "*", with: "★")
                if let i = notes.firstIndex(where: { $0.text == text }) { notes[i].labels.append(c.label) } else { notes.append((text, [c.label])) }
            }
        }
        var table = ReportTable(header: header, labelColumns: ranked ? 2 : 1)
        for (rank, p) in d.order.enumerated() {
            var row: [ReportTable.Cell] = ranked ? [.text("\(rank + 1)")] : []
            row.append(.text(d.names[p]))
            for (c, column) in columns.enumerated() {
                var cell =
                    column.metric == .lostFraction
                    ? ReportTable.Cell.value(d.lost[p], d.lostFormat)
                    : ReportTable.Cell.value(on(column, d).interval(p, column.metric), on(column, d).format(column.metric))
                cell.isBest = marks[c].marked.contains(p)
                row.append(cell)
            }
            table.rows.append(row)
        }
        return (table, notes.map { "\(ReportData.list($0.labels)): \($0.text)" })
    }

    /// `d` as column `c` reads it: judged on its service's table, or as it is.
    static func on(_ c: Column, _ d: ReportData) -> ReportData {
        c.service.flatMap { d.table.services[$0] }.map { d.judged(on: $0) } ?? d
    }

    /// A tune's ranking (tune.csv): rank, point, objective, paired difference from rank 1, whether
    /// it meets the constraints (or what it breaks), and the points that are the same configuration.
    static func ranking(_ d: ReportData) -> ReportTable? {
        let ranking = d.run.results.ranking.sorted { $0.rank < $1.rank }
        guard let first = ranking.first else { return nil }
        let f = d.format(first.objective.metric)
        var table = ReportTable(
            header: [
                .init("rank"), .init("point"), .init(f.metric.label, unit: f.unitSymbol),
                .init("paired difference from rank 1", unit: f.unitSymbol + ", 95% CI"),
                .init("constraints")
            ], labelColumns: 2)
        let aliases = ranking.contains { !$0.aliases.isEmpty }
        if aliases { table.header.append(.init("also stands for")) }
        for r in ranking {
            let ci = ConfidenceInterval(mean: r.mean, low: r.low, high: r.high, count: r.replications)
            var row: [ReportTable.Cell] = [.text("\(r.rank)"), .text(r.variant), .value(ci, f)]
            if let diff = r.difference, diff.count == 3 {
                let ci = ConfidenceInterval(mean: diff[0], low: diff[1], high: diff[2], count: r.replications)
                row.append(.text(f.signed(ci) + " " + f.interval(ci)))
            } else {
                row.append(.text("–"))
            }
            let noise = r.withinNoise.split(separator: ";").joined(separator: ", ")
            let breaks = r.violated.split(separator: ";").joined(separator: ", ")
            row.append(.text(r.feasible ? (noise.isEmpty ? "met" : "within noise of " + noise) : "breaks " + breaks))
            if aliases { row.append(.text(r.aliases.split(separator: ";").joined(separator: ", "))) }
            table.rows.append(row)
        }
        return table
    }

    /// Every table with its heading and notes.
    static func html(_ d: ReportData) -> String {
        var out = HTML.element("h2", "Tables") + "\n"
        var lead =
            d.replications > 1
            ? "Mean over \(d.replications) replications and, below it, its 95% confidence interval: ± half its width, or [low, high] where a count, time or share cannot go further."
            : "One replication: values without intervals, and nothing marked best."
        if d.replications > 1, d.names.count > 1 {
            lead +=
                " ★ best in its column: clearly better by paired differences, shared when within noise, never to a point that loses clearly more operations on a time."
            if let focus = d.table.focus {
                let why = focus.choice == .peakLoad && focus.peakLoad >= 1 ? ", where its storm lands" : ""
                lead += " Nor to one that puts clearly more requests per user operation on \(focus.name), the focus of this call graph\(why)."
            }
        }
        if let objective = d.sweepObjective {
            lead += " Points ranked by the mean of \(objective.metric.name) (\(objective.maximize ? "highest" : "lowest") first)."
        } else if d.run.results.kind == .tune {
            lead += " Points in the tune's rank order."
        }
        out += HTML.element("p", lead, class: "note") + "\n"
        if let ranking = ranking(d) {
            out += HTML.element("h3", "Ranking") + "\n" + ranking.html
        }
        for group in groups(d) where !columns(group, d).isEmpty {
            let (table, notes) = table(group, d)
            out += HTML.element("h3", group.title) + "\n" + table.html
            for n in notes { out += HTML.element("p", n, class: "note") + "\n" }
        }
        return out + PopulationSection.html(d) + ServiceSection.html(d)
    }
}
