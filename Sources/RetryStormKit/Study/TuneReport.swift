import Foundation
import GSLSupport

/// tune.csv, tune.json and the terminal report of `tune`.
public struct TuneReport {
    public let tuner: Tuner
    public let outcome: Tuner.Outcome
    /// The release gates, judged at the recommendation and recorded in tune.json.
    public let gates: [Expectation]

    public init(tuner: Tuner, outcome: Tuner.Outcome, gates: [Expectation] = []) {
        self.tuner = tuner
        self.outcome = outcome
        self.gates = gates
    }

    var leaderName: String? { outcome.ranking.first.map { outcome.study.points[$0.point].name } }

    /// tune.csv: one row per evaluated point in rank order (rank 1 is the recommendation when
    /// feasible): the objective's interval, the paired difference from rank 1 (none for rank 1),
    /// the interval on fresh replications (rank 1 and runner-up 1), how far it misses the
    /// constraints, and the points not run because they are the same configuration.
    public var records: [TuneRecord] {
        let study = outcome.study
        return outcome.ranking.enumerated().map { i, r in
            let p = study.points[r.point]
            let diff = i == 0 ? nil : leaderName.flatMap { outcome.metrics.difference(p.name, minus: $0, tuner.objective) }
            let confirmed = outcome.confirmation?.metrics.interval(p.name, tuner.objective)
            return TuneRecord(
                rank: i + 1, variant: p.name, parameters: p.parameters, feasible: r.feasible,
                objective: Objective(tuner.objective, maximize: tuner.maximize), mean: r.objective.mean, low: r.objective.low,
                high: r.objective.high, replications: r.objective.count,
                violated: r.violated.map { $0.replacingOccurrences(of: ",", with: " ").replacingOccurrences(of: " ", with: "") }.joined(
                    separator: ";"),
                violation: r.distance, difference: diff.map { [$0.interval.mean, $0.interval.low, $0.interval.high] },
                confirmed: confirmed.map { [$0.mean, $0.low, $0.high] },
                aliases: (outcome.aliases[r.point] ?? []).joined(separator: ";")
            ).asWritten
        }
    }

    // MARK: - tune.json

    public var file: TuneFile {
        let study = outcome.study
        func point(_ p: Int) -> [String: String] {
            Dictionary(uniqueKeysWithValues: zip(study.parameterPaths, study.points[p].parameters))
        }
        var bounds: [TuneFile.Bound] = []
        for c in tuner.constraints {
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
            let confirmed = outcome.confirmation?.metrics.interval(name, tuner.objective)
            let verdict = { (c: Expectation) -> TuneFile.Verdict in
                let value = c.judged(name, in: outcome.metrics) ?? .nan
                let fresh = outcome.confirmation.flatMap { c.judged(name, in: $0.metrics) }
                return TuneFile.Verdict(
                    expectation: c.text, value: value, met: c.holds(at: name, in: outcome.metrics),
                    confirmed_value: fresh, confirmed_met: outcome.confirmation.map { c.holds(at: name, in: $0.metrics) })
            }
            recommendation = TuneFile.Recommendation(
                variant: name, point: point(top.point), feasible: top.feasible, violation: top.distance, objective: .init(top.objective),
                confirmed: confirmed.map(TuneFile.Interval.init), confirmed_replications: outcome.confirmation.map { Array($0.replications) },
                constraints: tuner.constraints.map(verdict), gates: gates.isEmpty ? nil : gates.map(verdict))
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
            objective: .init(metric: tuner.objective.name, goal: tuner.maximize ? "max" : "min"), constraints: bounds,
            chosen: outcome.best.map { .init(variant: study.points[$0.point].name, point: point($0.point)) },
            recommendation: recommendation, runners_up: runners,
            extensions: outcome.extensions.map { .init(path: $0.path, added: $0.added, still_on_edge: $0.stoppedBy) },
            aliases: aliases, evaluated: study.points.count, replications: study.replications)
    }

    /// tune.json's text.
    public var json: String { TuneFile.json(file) }

    // MARK: - The terminal report

    /// The lines that say where the recommendation may not be the optimum: a key on whose edge it still lies.
    public var edgeWarnings: [String] {
        outcome.edges.map { "warning: the recommendation lies on the edge of the values evaluated for \($0.path): \($0.stoppedBy ?? "")" }
    }

    public func text(title: String) -> String {
        let study = outcome.study
        let goal =
            "\(tuner.maximize ? "maximise" : "minimise") \(tuner.objective.name)"
            + (tuner.constraints.isEmpty ? "" : " subject to \(tuner.constraints.map(\.text).joined(separator: ", "))")
        let aliasCount = outcome.aliases.values.reduce(0) { $0 + $1.count }
        var lines = [
            "\(title): \(goal)",
            "  \(study.points.count) points evaluated, \(study.replications) replication\(study.replications == 1 ? "" : "s") each"
                + (aliasCount > 0
                    ? "; \(aliasCount) more were the same configuration as one of them (a max delay the schedule never reaches, or an unused setting), not run again"
                    : "")
        ]
        for e in outcome.extensions where !e.added.isEmpty {
            lines.append("  \(e.path) extended past the grid: \(e.added.joined(separator: ", "))")
        }
        func setting(_ p: Int) -> String {
            zip(study.parameterPaths, study.points[p].parameters).map { "\($0)=\($1)" }.joined(separator: ", ")
        }
        // The objective and each constraint in the report's format over every point, so a value
        // reads here as in report.html.
        let objective = ColumnFormat(metric: tuner.objective, table: outcome.metrics)
        func interval(_ ci: ConfidenceInterval) -> String { objective.quote(ci) }
        if let top = outcome.ranking.first {
            let name = study.points[top.point].name
            lines.append(
                top.feasible
                    ? "  recommended  \(setting(top.point)): \(tuner.objective.name) = \(interval(top.objective))"
                    : "  no point meets every constraint; closest (smallest total relative violation, \(Format.fixed(top.distance, 3))): \(setting(top.point)): \(tuner.objective.name) = \(interval(top.objective))"
            )
            if let c = outcome.confirmation, let ci = c.metrics.interval(name, tuner.objective) {
                lines.append(
                    "               confirmed on \(ci.count) fresh replication\(ci.count == 1 ? "" : "s") (\(c.replications.lowerBound)–\(c.replications.upperBound - 1)), not used to choose it: \(interval(ci))"
                )
            }
            for c in tuner.constraints {
                let f = ColumnFormat(metric: c.metric, table: outcome.metrics)
                let value = c.judged(name, in: outcome.metrics) ?? .nan
                let fresh = outcome.confirmation.flatMap { c.judged(name, in: $0.metrics) }
                let met = c.holds(at: name, in: outcome.metrics)
                let freshMet = outcome.confirmation.map { c.holds(at: name, in: $0.metrics) }
                lines.append(
                    "  constraint   \(c.text): \(f.text(value)) \(met ? "met" : "NOT met")"
                        + (fresh.map { "; on the fresh replications \(f.text($0)) \(freshMet == true ? "met" : "NOT met")" } ?? ""))
            }
        }
        for (i, r) in outcome.runnersUp.enumerated() {
            let d = r.difference.interval
            let verdict =
                r.difference.indistinguishable
                ? "indistinguishable from the recommendation"
                : ((d.mean > 0) != tuner.maximize ? "worse than the recommendation" : "better than the recommendation")
            lines.append(
                "  runner-up \(i + 1)  \(setting(r.ranked.point)): \(tuner.objective.name) = \(interval(r.ranked.objective))\(r.ranked.feasible ? "" : ", breaks \(r.ranked.violated.joined(separator: ", "))")"
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
        lines.append(StudyTable.render(title: "  top of the ranking:", metrics: outcome.metrics, rows: top))
        return lines.joined(separator: "\n")
    }
}
