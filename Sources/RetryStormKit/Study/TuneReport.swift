import Foundation
import GSLSupport
import RetryStormReport

/// tune.csv, tune.json and the terminal report of `tune`.
package struct TuneReport {
    package let tuner: Tuner
    package let outcome: Tuner.Outcome
    /// The release gates, judged at the recommendation and recorded in tune.json.
    package let gates: [Expectation]

    package init(tuner: Tuner, outcome: Tuner.Outcome, gates: [Expectation] = []) {
        self.tuner = tuner
        self.outcome = outcome
        self.gates = gates
    }

    var leaderName: String? { outcome.ranking.first.map { outcome.study.points[$0.point].name } }

    /// tune.csv: one row per evaluated point in rank order (rank 1 is the recommendation when
    /// feasible): the objective's interval, the paired difference from rank 1 (none for rank 1),
    /// the interval on fresh replications (rank 1 and runner-up 1), how far it misses the
    /// constraints, and the points not run because they are the same configuration.
    package var records: [TuneRecord] {
        let study = outcome.study
        return outcome.ranking.enumerated().map { i, r in
            let p = study.points[r.point]
            let diff = i == 0 ? nil : leaderName.flatMap { tuner.objectiveTable(outcome.metrics).difference(p.name, minus: $0, tuner.objective) }
            let confirmed = outcome.confirmation.flatMap { tuner.objectiveTable($0.metrics).interval(p.name, tuner.objective) }
            return TuneRecord(
                rank: i + 1, variant: p.name, parameters: p.parameters, feasible: r.feasible,
                objective: Objective(tuner.objective, maximize: tuner.maximize, population: tuner.objectivePopulation), mean: r.objective.mean,
                low: r.objective.low,
                high: r.objective.high, replications: r.objective.count,
                violated: r.violated.map(Self.csvText).joined(separator: ";"),
                violation: r.distance, difference: diff.map { [$0.interval.mean, $0.interval.low, $0.interval.high] },
                confirmed: confirmed.map { [$0.mean, $0.low, $0.high] },
                aliases: (outcome.aliases[r.point] ?? []).joined(separator: ";"),
                withinNoise: zip(tuner.constraints, r.verdicts).filter { c, v in v == .withinNoise && !r.violated.contains(c.text) }
                    .map { Self.csvText($0.0.text) }.joined(separator: ";")
            ).asWritten
        }
    }

    /// A constraint as tune.csv lists it: without spaces or commas.
    static func csvText(_ text: String) -> String {
        text.replacingOccurrences(of: ",", with: " ").replacingOccurrences(of: " ", with: "")
    }

    // MARK: - tune.json

    package var file: TuneFile {
        let study = outcome.study
        func point(_ p: Int) -> [String: String] {
            Dictionary(uniqueKeysWithValues: zip(study.parameterPaths, study.points[p].parameters))
        }
        var bounds: [TuneFile.Bound] = []
        // tune.json's bounds are the fleet's (the charts draw them on summary metrics); a
        // population's or a service's constraint is judged all the same, and listed with the
        // gates' verdicts.
        for c in tuner.constraints where c.population == nil && c.service == nil {
            let statistic = c.statistic == .mean ? nil : c.statistic.rawValue
            switch c.op {
            case .le, .lt: bounds.append(.init(metric: c.metric.name, statistic: statistic, min: nil, max: c.value))
            case .ge, .gt: bounds.append(.init(metric: c.metric.name, statistic: statistic, min: c.value, max: nil))
            case .eq: bounds.append(.init(metric: c.metric.name, statistic: statistic, min: c.value, max: c.value))
            case .ne: continue
            }
        }
        var recommendation: TuneFile.Recommendation?
        if let top = outcome.ranking.first {
            let name = study.points[top.point].name
            let confirmed = outcome.confirmation.flatMap { tuner.objectiveTable($0.metrics).interval(name, tuner.objective) }
            let verdict = { (c: Expectation) -> TuneFile.Verdict in
                let value = c.judged(name, in: outcome.metrics) ?? .nan
                let fresh = outcome.confirmation.flatMap { c.judged(name, in: $0.metrics) }
                let ci = c.interval(name, in: outcome.metrics)
                let freshCI = outcome.confirmation.flatMap { c.interval(name, in: $0.metrics) }
                return TuneFile.Verdict(
                    expectation: c.text, value: value, met: c.holds(at: name, in: outcome.metrics),
                    confirmed_value: fresh, confirmed_met: outcome.confirmation.map { c.holds(at: name, in: $0.metrics) },
                    verdict: c.verdict(at: name, in: outcome.metrics), interval: ci.map(TuneFile.Interval.init),
                    confirmed_verdict: outcome.confirmation.map { c.verdict(at: name, in: $0.metrics) },
                    confirmed_interval: freshCI.map(TuneFile.Interval.init))
            }
            var closest: TuneFile.Closest?
            if let c = outcome.closest {
                closest = TuneFile.Closest(
                    least_violation: study.points[c.leastViolation].name,
                    violation_difference: c.violationDifference.map { .init(interval: .init($0.interval), indistinguishable: $0.indistinguishable) },
                    objective_difference: c.objectiveDifference.map { .init(interval: .init($0.interval), indistinguishable: $0.indistinguishable) })
            }
            recommendation = TuneFile.Recommendation(
                variant: name, point: point(top.point), feasible: top.feasible, violation: top.distance, objective: .init(top.objective),
                confirmed: confirmed.map(TuneFile.Interval.init), confirmed_replications: outcome.confirmation.map { Array($0.replications) },
                constraints: tuner.constraints.map(verdict), gates: gates.isEmpty ? nil : gates.map(verdict),
                basis: top.confident ? .confident : top.feasible ? .mean : .closest, closest: closest)
        }
        let runners = outcome.runnersUp.enumerated().map { i, r -> TuneFile.RunnerUp in
            let fresh = i == 0 ? outcome.confirmation?.versusRunnerUp : nil
            return TuneFile.RunnerUp(
                variant: study.points[r.ranked.point].name, point: point(r.ranked.point), feasible: r.ranked.feasible,
                objective: .init(r.ranked.objective),
                difference_from_recommended: .init(interval: .init(r.difference.interval), indistinguishable: r.difference.indistinguishable),
                confirmed_difference: fresh.map { .init(interval: .init($0.interval), indistinguishable: $0.indistinguishable) })
        }
        let aliases = outcome.aliases.sorted { $0.key < $1.key }.flatMap { p, names in
            names.map { TuneFile.Alias(variant: $0, same_as: study.points[p].name) }
        }
        return TuneFile(
            objective: .init(metric: tuner.objectiveName, goal: tuner.maximize ? "max" : "min"), constraints: bounds,
            chosen: outcome.best.map { .init(variant: study.points[$0.point].name, point: point($0.point)) },
            recommendation: recommendation, runners_up: runners,
            extensions: outcome.extensions.map { .init(path: $0.path, added: $0.added, still_on_edge: $0.stoppedBy) },
            aliases: aliases, evaluated: study.points.count, replications: study.replications)
    }

    /// tune.json's text.
    package var json: String { TuneFile.json(file) }

    // MARK: - The terminal report

    /// The lines that say where the recommendation may not be the optimum: a key on whose edge it still lies.
    package var edgeWarnings: [String] {
        outcome.edges.map { "warning: the recommendation lies on the edge of the values evaluated for \($0.path): \($0.stoppedBy ?? "")" }
    }

    package func text(title: String) -> String {
        let study = outcome.study
        let goal =
            "\(tuner.maximize ? "maximise" : "minimise") \(tuner.objectiveName)"
            + (tuner.constraints.isEmpty ? "" : " subject to \(tuner.constraints.map(\.text).joined(separator: ", "))")
        let aliasCount = outcome.aliases.values.reduce(0) { $0 + $1.count }
        var lines = [
            "\(title): \(goal)",
            "  \(study.points.count) points evaluated, \(study.replications) replication\(study.replications == 1 ? "" : "s") each"
                + (aliasCount > 0
                    ? "; \(aliasCount) more were the same configuration as one of them (a max delay the schedule never reaches, or an unused setting), not run again"
                    : "")
        ]
        if let line = constraintSources { lines.append("  " + line) }
        for e in outcome.extensions where !e.added.isEmpty {
            lines.append("  \(e.path) extended past the grid: \(e.added.joined(separator: ", "))")
        }
        func setting(_ p: Int) -> String {
            zip(study.parameterPaths, study.points[p].parameters).map { "\($0)=\($1)" }.joined(separator: ", ")
        }
        // The objective and each constraint in the report's format over every point, so a value
        // reads here as in report.html.
        let objective = ColumnFormat(metric: tuner.objective, table: tuner.objectiveTable(outcome.metrics))
        func interval(_ ci: ConfidenceInterval) -> String { objective.quote(ci) }
        if let top = outcome.ranking.first {
            let name = study.points[top.point].name
            lines += headline(top, setting: setting, objective: objective)
            if let c = outcome.confirmation, let ci = tuner.objectiveTable(c.metrics).interval(name, tuner.objective) {
                lines.append(
                    "               confirmed on \(ci.count) fresh replication\(ci.count == 1 ? "" : "s") (\(c.replications.lowerBound)–\(c.replications.upperBound - 1)), not used to choose it: \(interval(ci))"
                )
            }
            for c in tuner.constraints {
                lines.append(
                    "  constraint   \(c.text): \(verdictText(c, name, outcome.metrics))"
                        + (outcome.confirmation.map { "; on the fresh replications \(verdictText(c, name, $0.metrics))" } ?? ""))
            }
        }
        for (i, r) in outcome.runnersUp.enumerated() {
            let d = r.difference.interval
            let minimum = outcome.metrics.minimumDifference
            let recommended =
                outcome.ranking.first.flatMap { outcome.metrics.interval(outcome.study.points[$0.point].name, tuner.objective)?.mean }
            // Without the recommendation's mean, nothing says the difference is too small.
            let verdict = RunnerUpVerdict(
                difference: d.mean, indistinguishable: r.difference.indistinguishable, recommended: recommended ?? .infinity,
                runnerUp: r.ranked.objective.mean, maximize: tuner.maximize, minimum: minimum, metric: tuner.objective
            ).phrase(minimum: minimum, metric: tuner.objective)
            lines.append(
                "  runner-up \(i + 1)  \(setting(r.ranked.point)): \(tuner.objectiveName) = \(interval(r.ranked.objective))\(standing(r.ranked))"
            )
            lines.append("               paired difference \(objective.difference(d)): \(verdict)")
            if i == 0, let fresh = outcome.confirmation?.versusRunnerUp {
                lines.append(
                    "               on the fresh replications \(objective.difference(fresh.interval))"
                        + (fresh.indistinguishable ? ": indistinguishable" : ""))
            }
        }
        for w in edgeWarnings { lines.append("  " + w) }
        let top = outcome.ranking.prefix(8).map(\.point)
        var table = StudyTable.render(
            title: "  top of the ranking:", metrics: outcome.metrics, rows: top,
            extra: ScopedMetric(tuner.objective, population: tuner.objectivePopulation))
        if let note = objectiveMarkNote(rows: top) { table += "  " + note + "\n" }
        lines.append(table)
        return lines.joined(separator: "\n")
    }

    /// Why a runner-up is not the recommendation when a constraint is the reason: ", breaks …"
    /// when it misses one on the mean, ", within noise of …" when it meets them on the mean only;
    /// "" when it meets every constraint with confidence, or breaks none but has no finite objective.
    func standing(_ r: Tuner.Ranked) -> String {
        // Infeasible with no constraint broken: the objective, never or no value, is quoted already.
        if !r.feasible { return r.violated.isEmpty ? "" : ", breaks \(r.violated.joined(separator: ", "))" }
        let noisy = zip(tuner.constraints, r.verdicts).filter { $0.1 == .withinNoise }.map(\.0.text)
        return noisy.isEmpty ? "" : ", within noise of \(noisy.joined(separator: ", "))"
    }

    /// Why a point that meets every constraint is no choice: its objective.
    func noObjective(_ r: Tuner.Ranked) -> String {
        r.objective.mean == .infinity
            ? "its \(tuner.objectiveName) is never (fewer operations succeeded than the percentile needs)"
            : "its \(tuner.objectiveName) has no value"
    }

    /// Where the constraints come from: `--constraint` adds to the scenario's `constraints:`, it
    /// does not replace them. Nil without constraints.
    var constraintSources: String? {
        guard !tuner.constraints.isEmpty else { return nil }
        let fromOptions = tuner.constraints.filter {
            if case .option = $0.location.origin { return true }
            return false
        }.count
        let fromScenario = tuner.constraints.count - fromOptions
        func count(_ n: Int) -> String { "\(n) constraint\(n == 1 ? "" : "s")" }
        switch (fromScenario, fromOptions) {
        case (_, 0): return "constraints: \(count(fromScenario)) from the scenario's `constraints:` (--constraint would add to them)"
        case (0, _): return "constraints: \(count(fromOptions)) from --constraint (added to the scenario's `constraints:`, which has none)"
        default:
            return
                "constraints: \(count(fromScenario)) from the scenario's `constraints:` and \(count(fromOptions)) from --constraint, which adds to them"
        }
    }

    /// A constraint at point `name`: the judged value, its 95% interval and the verdict,
    /// "1.41× (95% CI [1.31, 1.51]): within noise of the bound".
    func verdictText(_ c: Expectation, _ name: String, _ metrics: MetricTable) -> String {
        // A population's or a service's constraint reads its own table, as tune.json and the report do.
        let f = ColumnFormat(metric: c.metric, table: outcome.metrics.scoped(c.population, service: c.service) ?? outcome.metrics)
        guard let ci = c.interval(name, in: metrics) else { return "no value: \(ConstraintVerdict.notMet.rawValue)" }
        let verdict = ConstraintVerdict(c, ci).rawValue
        let spread = ci.count > 1 && ci.low.isFinite && ci.high.isFinite ? " (95% CI \(f.interval(ci)))" : ci.count == 1 ? " (one replication)" : ""
        if c.statistic == .mean { return f.text(ci.mean) + spread + ": " + verdict }
        return "\(c.statistic.rawValue) \(f.text(c.statistic.value(ci))) (mean \(f.text(ci.mean))\(spread)): \(verdict)"
    }

    /// The lines that say what the recommendation is and on what it stands: every constraint met
    /// with confidence; met on the mean only (said plainly, naming the constraints within noise);
    /// or the closest point, and why it was chosen over the least violation when it was.
    func headline(_ top: Tuner.Ranked, setting: (Int) -> String, objective: ColumnFormat) -> [String] {
        let value = "\(tuner.objectiveName) = \(objective.quote(top.objective))"
        if top.confident || tuner.constraints.isEmpty {
            return ["  recommended  \(setting(top.point)): \(value)" + (tuner.constraints.isEmpty ? "" : ", every constraint met with confidence")]
        }
        if top.feasible {
            let noisy = zip(tuner.constraints, top.verdicts).filter { $0.1 == .withinNoise }.map(\.0.text)
            return [
                "  no point meets every constraint with confidence (each 95% interval inside its bound): falling back to the means",
                "  recommended  \(setting(top.point)): \(value); it meets every constraint on the mean, but \(noisy.joined(separator: ", ")) \(noisy.count == 1 ? "is" : "are") within noise of the bound"
            ]
        }
        if top.violated.isEmpty {
            // Infeasible for its objective alone: every point's is never (or has no value), as
            // the ranking puts a finite objective first.
            return [
                "  no point has a finite \(tuner.objectiveName): it is never (or has no value) at every point evaluated, the constraints aside",
                "  first in order: \(setting(top.point)): \(value)"
            ]
        }
        var lines = [
            "  no point meets every constraint, even on the mean; closest: \(setting(top.point)): \(value), total relative violation \(Format.fixed(top.distance, 3))"
        ]
        if let c = outcome.closest, c.chosen != c.leastViolation, let v = c.violationDifference,
            let least = outcome.ranking.first(where: { $0.point == c.leastViolation })
        {
            let objectiveGap = c.objectiveDifference.map { "; \(tuner.objectiveName) \(objective.difference($0.interval))" } ?? ""
            lines.append(
                "               chosen over \(setting(least.point)) (the least total violation, \(Format.fixed(least.distance, 3))): their violations are within noise replication by replication (paired difference \(Format.fixed(v.interval.mean, 3)), 95% CI [\(Format.fixed(v.interval.low, 3)), \(Format.fixed(v.interval.high, 3))]), so the better objective decides\(objectiveGap)"
            )
        }
        return lines
    }

    /// Why the objective's `*` in the table is not on the recommendation (nil when it is, or the
    /// column is not in the table or has no mark): the table's mark follows its own rule (clearly
    /// better by paired differences among the rows shown), the recommendation also needs every
    /// constraint met.
    func objectiveMarkNote(rows: [Int]) -> String? {
        let scoped = ScopedMetric(tuner.objective, population: tuner.objectivePopulation)
        // The objective's column: a fleet metric's own, or the population's last column.
        guard scoped.population != nil || StudyTable.columns.contains(where: { $0.metric == tuner.objective }), let first = rows.first
        else { return nil }
        let label = StudyTable.label(scoped)
        let metrics = tuner.objectiveTable(outcome.metrics)
        let marks = BestMarks(metrics, metric: tuner.objective, among: rows)
        let marked = marks.marked
        guard !marked.contains(first) else { return nil }
        if marks.losesMore.contains(first) {
            let fewer = Set(rows.filter { metrics.losesClearlyMore(first, than: $0) })
            return
                "\(label) is the objective: the table withholds its * from the recommendation (the first row), which loses clearly more operations than \(BestMarks.list(fewer, metrics.names))\(scoped.population.map { " in population " + $0 } ?? ""); it has the best mean among the points that meet the constraints"
        }
        if marks.loadsMore.contains(first), let focus = metrics.focus {
            let lighter = Set(rows.filter { metrics.loadsFocusClearlyMore(first, than: $0) })
            return
                "\(label) is the objective: the table withholds its * from the recommendation (the first row), which puts clearly more requests per user operation on \(focus.name), the focus, than \(BestMarks.list(lighter, metrics.names)); it has the best mean among the points that meet the constraints"
        }
        guard !marked.isEmpty else { return nil }
        let study = outcome.study
        let reasons = rows.filter { marked.contains($0) }.map { p -> String in
            let name = study.points[p].name
            guard let r = outcome.ranking.first(where: { $0.point == p }) else { return name }
            if !r.feasible { return r.violated.isEmpty ? "\(name): \(noObjective(r))" : "\(name) breaks \(r.violated.joined(separator: ", "))" }
            if !r.confident { return name + " is" + standing(r).dropFirst() }
            return "\(name) is ranked below it"
        }
        return
            "\(label) is the objective: its * is not on the recommendation (the first row) because \(reasons.joined(separator: "; "))"
    }
}
