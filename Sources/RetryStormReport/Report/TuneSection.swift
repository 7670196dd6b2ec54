import GSLSupport
import RetryStormResults

/// A tune's recommendation on the report's first screen, from tune.json: the point, its objective
/// on the replications that chose it and on fresh ones, each constraint's verdict, the runners-up
/// with their paired differences, the keys extended past the grid, a warning when the
/// recommendation still lies on an edge, and the points not run because they are the same
/// configuration.
enum TuneSection {
    /// A constraint or gate of tune.json as the report shows it.
    struct Verdict: Equatable {
        /// "peak load / capacity".
        var label: String
        /// The value that decides (on the fresh replications when there are any): "2.04×".
        var value: String
        /// On the selection replications: "2.02×".
        var selectionValue: String
        /// "at most 3×".
        var bound: String
        /// The verdict that decides, with confidence (``TuneFile/Verdict/deciding``).
        var verdict: ConstraintVerdict
        /// The deciding interval: "95% CI [1.31, 1.51]"; "" for files written before intervals were.
        var interval: String = ""
        /// Whether the file judged the whole interval; false for tune.json written before
        /// verdicts, where `verdict` is the mean's pass or fail.
        var withConfidence = false

        var met: Bool { verdict == .met }
    }

    /// The verdict of `v` in its metric's table format; the expectation's own text when it cannot
    /// be read.
    static func verdict(_ v: TuneFile.Verdict, _ d: ReportData) -> Verdict {
        guard let e = GateResults.parse(v.expectation) else {
            return Verdict(
                label: v.expectation, value: "\(v.confirmed_value ?? v.value)", selectionValue: "\(v.value)",
                bound: v.expectation, verdict: v.deciding)
        }
        let f = d.format(e.metric)
        var label = f.metric.label + (e.population.map { " of population \($0)" } ?? e.service.map { " at service \($0)" } ?? "")
        if e.statistic != .mean { label += " (\(e.statistic.rawValue))" }
        return Verdict(
            label: label, value: f.text(v.confirmed_value ?? v.value), selectionValue: f.text(v.value),
            bound: GateResults.bound(e, f), verdict: v.deciding,
            interval: (v.confirmed_interval ?? v.interval).map { i in
                i.replications > 1 && i.ci95_low.isFinite && i.ci95_high.isFinite ? "95% CI " + f.interval(interval(i)) : ""
            } ?? "", withConfidence: (v.confirmed_verdict ?? v.verdict) != nil)
    }

    /// "policy.backoff.base=25.1s, policy.backoff.max=36.4s", in the order of the swept keys.
    /// How runner-up `r` compares with recommendation `rec` (``RunnerUpVerdict``), as the
    /// terminal judged it when the tune ran.
    static func runnerUpVerdict(
        _ r: TuneFile.RunnerUp, _ rec: TuneFile.Recommendation, _ tune: TuneFile, _ d: ReportData, objective: Metric
    ) -> RunnerUpVerdict {
        let diff = r.difference_from_recommended
        return RunnerUpVerdict(
            difference: diff.interval.mean, indistinguishable: diff.indistinguishable, recommended: rec.objective.mean,
            runnerUp: r.objective.mean, maximize: tune.objective.goal == "max", minimum: d.table.minimumDifference,
            metric: objective)
    }

    static func setting(_ point: [String: String], _ d: ReportData) -> String {
        let paths =
            d.run.results.parameterPaths.filter { point[$0] != nil } + point.keys.sorted().filter { !d.run.results.parameterPaths.contains($0) }
        return paths.map { "\($0)=\(point[$0] ?? "")" }.joined(separator: ", ")
    }

    static func interval(_ i: TuneFile.Interval) -> ConfidenceInterval {
        ConfidenceInterval(mean: i.mean, low: i.ci95_low, high: i.ci95_high, count: i.replications)
    }

    /// The section's HTML; "" when tune.json has no recommendation.
    static func html(_ d: ReportData) -> String {
        // The objective as tune.json names it: the fleet's metric, or a population's
        // (`populations.NAME.METRIC`, which the sweep charts do not draw).
        guard let tune = d.run.results.tune, let rec = tune.recommendation, let objective = ScopedMetric(tune.objective.metric) else { return "" }
        let f =
            objective.population == nil
            ? d.format(objective.metric)
            : ColumnFormat(metric: objective.metric, values: [interval(rec.objective)] + (tune.runners_up ?? []).map { interval($0.objective) })
        let label = f.metric.label + (objective.population.map { " of population \($0)" } ?? "")
        let goal = tune.objective.goal == "max" ? "maximise" : "minimise"
        var out = HTML.element("h2", rec.feasible ? "Recommendation" : "No point meets every constraint: the closest") + "\n"
        out += "<p class=\"recommendation\">" + HTML.escape(setting(rec.point, d)) + "</p>\n"
        if rec.basis == .mean {
            out +=
                HTML.element(
                    "p",
                    "No point meets every constraint with confidence (each 95% interval inside its bound): this one meets them on the mean, and the constraints marked within noise could go either way.",
                    class: "warning") + "\n"
        }

        let fresh = rec.confirmed
        var header: [ReportTable.Header] = [.init(""), .init("on the \(rec.objective.replications) replications that chose it")]
        if let fresh { header.append(.init("on \(fresh.replications) fresh replications")) }
        header.append(.init("verdict"))
        var table = ReportTable(header: header, labelColumns: 1)
        var objectiveRow: [ReportTable.Cell] = [.text("\(goal) \(f.title(label))"), .value(interval(rec.objective), f)]
        if let fresh { objectiveRow.append(.value(interval(fresh), f)) }
        objectiveRow.append(.text("objective"))
        table.rows.append(objectiveRow)
        for c in rec.constraints {
            let v = verdict(c, d)
            var row: [ReportTable.Cell] = [.text("\(v.label): \(v.bound)"), .text(v.selectionValue)]
            if fresh != nil { row.append(.text(v.value)) }
            let verdictClass = v.verdict == .met ? "pass" : v.verdict == .notMet ? "fail" : "noise"
            row.append(
                ReportTable.Cell(
                    html: "<span class=\"\(verdictClass)\">\(HTML.escape(v.verdict.rawValue))</span>"
                        + (v.interval.isEmpty ? "" : " (\(HTML.escape(v.interval)))")))
            table.rows.append(row)
        }
        table.className = "recommend"
        out += table.html
        if let reps = rec.confirmed_replications, let lo = reps.min(), let hi = reps.max() {
            out +=
                HTML.element(
                    "p",
                    "Fresh replications: indices \(lo)–\(hi), seeds that played no part in choosing the point, so its value there is not biased by the selection among \(tune.evaluated ?? d.names.count) noisy means.",
                    class: "note") + "\n"
        }

        if let runners = tune.runners_up, !runners.isEmpty {
            out += HTML.element("h3", "Runners-up") + "\n"
            var t = ReportTable(
                header: [
                    .init("point"), .init(label, unit: f.unitSymbol),
                    .init("paired difference from the recommendation", unit: f.unitSymbol + ", 95% CI"),
                    .init("verdict")
                ], labelColumns: 1)
            for r in runners {
                let diff = interval(r.difference_from_recommended.interval)
                var text = f.signed(diff) + " " + f.interval(diff)
                if let c = r.confirmed_difference {
                    let ci = interval(c.interval)
                    text += "; on the fresh replications " + f.signed(ci) + " " + f.interval(ci)
                }
                let verdict = Self.runnerUpVerdict(r, rec, tune, d, objective: objective.metric).word
                t.rows.append([
                    .text(r.variant + (r.feasible ? "" : " (breaks a constraint)")), .value(interval(r.objective), f),
                    .text(text), .text(verdict)
                ])
            }
            out += t.html
            out +=
                HTML.element(
                    "p",
                    "Paired differences: runner-up minus recommendation, replication by replication (the same random numbers), with the Student-t 95% interval; within noise when the interval holds 0.",
                    class: "note") + "\n"
        }

        var notes: [String] = []
        for e in tune.extensions ?? [] where !e.added.isEmpty {
            notes.append("\(e.path) was extended past the grid while the leader lay on its edge: \(e.added.joined(separator: ", ")).")
        }
        let aliases = tune.aliases ?? []
        if !aliases.isEmpty {
            let listed = aliases.prefix(6).map { "\($0.variant) (as \($0.same_as))" }
            notes.append(
                "Not run again, the same configuration in effect as a point evaluated: \(listed.joined(separator: ", "))\(aliases.count > 6 ? " and \(aliases.count - 6) more" : "")."
            )
        }
        notes.append("\(tune.evaluated ?? d.names.count) points evaluated, \(tune.replications ?? d.replications) replications each.")
        out += HTML.element("p", notes.joined(separator: " "), class: "note") + "\n"
        for e in tune.extensions ?? [] {
            guard let reason = e.still_on_edge else { continue }
            out +=
                HTML.element(
                    "p",
                    "Warning: the recommendation lies on the edge of the values evaluated for \(e.path) (\(reason)): the optimum may lie beyond it.",
                    class: "warning") + "\n"
        }
        return out
    }
}
