import Foundation
import GSLSupport

/// tune.csv, tune.json and the terminal report of `tune`.
public struct TuneReport {
    public let tuner: Tuner
    public let outcome: Tuner.Outcome

    public init(tuner: Tuner, outcome: Tuner.Outcome) {
        self.tuner = tuner
        self.outcome = outcome
    }

    var leaderName: String? { outcome.ranking.first.map { outcome.study.points[$0.point].name } }

    /// One row per evaluated point in rank order (rank 1 is the recommendation when feasible):
    /// the objective's interval, the paired difference from rank 1 (empty for rank 1), the
    /// interval on fresh replications (rank 1 and runner-up 1), how far it misses the constraints,
    /// and the points not run because they are the same configuration.
    public var csv: CSVTable {
        let study = outcome.study
        var table = CSVTable(columns: ["rank", "variant"] + study.parameterPaths
                             + ["feasible", "objective", "mean", "ci95_low", "ci95_high", "replications", "violated", "violation",
                                "diff_mean", "diff_ci95_low", "diff_ci95_high", "confirmed_mean", "confirmed_ci95_low",
                                "confirmed_ci95_high", "aliases"])
        let f = { (x: Double) in Format.fixed(x, 6) }
        for (i, r) in outcome.ranking.enumerated() {
            let p = study.points[r.point]
            let diff = i == 0 ? nil : leaderName.flatMap { outcome.metrics.difference(p.name, minus: $0, tuner.objective) }
            let confirmed = outcome.confirmation?.metrics.interval(p.name, tuner.objective)
            table.append([String(i + 1), p.name] + p.parameters + [
                r.feasible ? "true" : "false", (tuner.maximize ? "max:" : "") + tuner.objective,
                f(r.objective.mean), f(r.objective.low), f(r.objective.high), String(r.objective.count),
                r.violated.map { $0.replacingOccurrences(of: ",", with: " ").replacingOccurrences(of: " ", with: "") }.joined(separator: ";"),
                f(r.distance),
                diff.map { f($0.interval.mean) } ?? "", diff.map { f($0.interval.low) } ?? "", diff.map { f($0.interval.high) } ?? "",
                confirmed.map { f($0.mean) } ?? "", confirmed.map { f($0.low) } ?? "", confirmed.map { f($0.high) } ?? "",
                (outcome.aliases[r.point] ?? []).joined(separator: ";"),
            ])
        }
        return table
    }

    // MARK: - tune.json

    /// tune.json: the objective, the constraints as bounds (the format the sweep heatmaps read,
    /// ``TuningChoice``), the chosen point, and the evidence behind it.
    struct File: Codable {
        struct Objective: Codable { var metric: String; var goal: String? }
        struct Bound: Codable { var metric: String; var statistic: String?; var min: Double?; var max: Double? }
        struct Chosen: Codable { var variant: String?; var point: [String: String] }
        struct Interval: Codable {
            var mean: Double
            var ci95_low: Double
            var ci95_high: Double
            var replications: Int

            init(_ ci: ConfidenceInterval) {
                mean = ci.mean
                ci95_low = ci.low
                ci95_high = ci.high
                replications = ci.count
            }
        }
        struct Difference: Codable {
            var interval: Interval
            var indistinguishable: Bool
        }
        struct Verdict: Codable { var expectation: String; var value: Double; var met: Bool; var confirmed_value: Double?; var confirmed_met: Bool? }
        struct Recommendation: Codable {
            var variant: String
            var point: [String: String]
            var feasible: Bool
            var violation: Double
            var objective: Interval
            var confirmed: Interval?
            var confirmed_replications: [Int]?
            var constraints: [Verdict]
        }
        struct RunnerUp: Codable {
            var variant: String
            var point: [String: String]
            var feasible: Bool
            var objective: Interval
            var difference_from_recommended: Difference
            var confirmed_difference: Difference?
        }
        struct Extension: Codable { var path: String; var added: [String]; var still_on_edge: String? }
        struct Alias: Codable { var variant: String; var same_as: String }

        var objective: Objective
        var constraints: [Bound]
        var chosen: Chosen?
        // Optional for tune.json files written before they existed.
        var recommendation: Recommendation?
        var runners_up: [RunnerUp]?
        var extensions: [Extension]?
        var aliases: [Alias]?
        var evaluated: Int?
        var replications: Int?
    }

    var file: File {
        let study = outcome.study
        func point(_ p: Int) -> [String: String] {
            Dictionary(uniqueKeysWithValues: zip(study.parameterPaths, study.points[p].parameters))
        }
        var bounds: [File.Bound] = []
        for c in tuner.constraints {
            let statistic = c.statistic == .mean ? nil : c.statistic.rawValue
            switch c.op {
            case .le, .lt: bounds.append(.init(metric: c.metric, statistic: statistic, min: nil, max: c.value))
            case .ge, .gt: bounds.append(.init(metric: c.metric, statistic: statistic, min: c.value, max: nil))
            case .eq: bounds.append(.init(metric: c.metric, statistic: statistic, min: c.value, max: c.value))
            case .ne: continue
            }
        }
        var recommendation: File.Recommendation?
        if let top = outcome.ranking.first {
            let name = study.points[top.point].name
            let confirmed = outcome.confirmation?.metrics.interval(name, tuner.objective)
            let verdicts = tuner.constraints.map { c -> File.Verdict in
                let value = c.judged(name, in: outcome.metrics) ?? .nan
                let fresh = outcome.confirmation.flatMap { c.judged(name, in: $0.metrics) }
                return File.Verdict(expectation: c.text, value: value, met: c.holds(at: name, in: outcome.metrics),
                                    confirmed_value: fresh, confirmed_met: outcome.confirmation.map { c.holds(at: name, in: $0.metrics) })
            }
            recommendation = File.Recommendation(
                variant: name, point: point(top.point), feasible: top.feasible, violation: top.distance, objective: .init(top.objective),
                confirmed: confirmed.map(File.Interval.init), confirmed_replications: outcome.confirmation.map { Array($0.replications) },
                constraints: verdicts)
        }
        let runners = outcome.runnersUp.enumerated().map { i, r -> File.RunnerUp in
            let fresh = i == 0 ? outcome.confirmation?.versusRunnerUp : nil
            return File.RunnerUp(variant: study.points[r.ranked.point].name, point: point(r.ranked.point), feasible: r.ranked.feasible,
                                 objective: .init(r.ranked.objective),
                                 difference_from_recommended: .init(interval: .init(r.difference.interval), indistinguishable: r.difference.indistinguishable),
                                 confirmed_difference: fresh.map { .init(interval: .init($0.interval), indistinguishable: $0.indistinguishable) })
        }
        let aliases = outcome.aliases.sorted { $0.key < $1.key }.flatMap { p, names in
            names.map { File.Alias(variant: $0, same_as: study.points[p].name) }
        }
        return File(
            objective: .init(metric: tuner.objective, goal: tuner.maximize ? "max" : "min"), constraints: bounds,
            chosen: outcome.best.map { .init(variant: study.points[$0.point].name, point: point($0.point)) },
            recommendation: recommendation, runners_up: runners,
            extensions: outcome.extensions.map { .init(path: $0.path, added: $0.added, still_on_edge: $0.stoppedBy) },
            aliases: aliases, evaluated: study.points.count, replications: study.replications)
    }

    /// tune.json's text: sorted keys, numbers as Swift prints them (`nan`, `inf` as strings).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        // Encoding plain values with the strategy above cannot fail.
        let data = (try? encoder.encode(file)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: - The terminal report

    /// The lines that say where the recommendation may not be the optimum: a key on whose edge it still lies.
    public var edgeWarnings: [String] {
        outcome.edges.map { "warning: the recommendation lies on the edge of the values evaluated for \($0.path): \($0.stoppedBy ?? "")" }
    }

    public func text(title: String) -> String {
        let study = outcome.study
        let goal = "\(tuner.maximize ? "maximise" : "minimise") \(tuner.objective)"
            + (tuner.constraints.isEmpty ? "" : " subject to \(tuner.constraints.map(\.text).joined(separator: ", "))")
        let aliasCount = outcome.aliases.values.reduce(0) { $0 + $1.count }
        var lines = ["\(title): \(goal)",
                     "  \(study.points.count) points evaluated, \(study.replications) replication\(study.replications == 1 ? "" : "s") each"
                        + (aliasCount > 0 ? "; \(aliasCount) more were the same configuration as one of them (a max delay the schedule never reaches, or an unused setting), not run again" : "")]
        for e in outcome.extensions where !e.added.isEmpty {
            lines.append("  \(e.path) extended past the grid: \(e.added.joined(separator: ", "))")
        }
        func setting(_ p: Int) -> String {
            zip(study.parameterPaths, study.points[p].parameters).map { "\($0)=\($1)" }.joined(separator: ", ")
        }
        func interval(_ ci: ConfidenceInterval) -> String {
            Format.fixed(ci.mean, 3) + (ci.count > 1 ? " (95% CI \(Format.fixed(ci.low, 3))…\(Format.fixed(ci.high, 3)))" : "")
        }
        if let top = outcome.ranking.first {
            let name = study.points[top.point].name
            lines.append(top.feasible
                ? "  recommended  \(setting(top.point)): \(tuner.objective) = \(interval(top.objective))"
                : "  no point meets every constraint; closest (smallest total relative violation, \(Format.fixed(top.distance, 3))): \(setting(top.point)): \(tuner.objective) = \(interval(top.objective))")
            if let c = outcome.confirmation, let ci = c.metrics.interval(name, tuner.objective) {
                lines.append("               confirmed on \(ci.count) fresh replication\(ci.count == 1 ? "" : "s") (\(c.replications.lowerBound)–\(c.replications.upperBound - 1)), not used to choose it: \(interval(ci))")
            }
            for c in tuner.constraints {
                let value = c.judged(name, in: outcome.metrics) ?? .nan
                let fresh = outcome.confirmation.flatMap { c.judged(name, in: $0.metrics) }
                let met = c.holds(at: name, in: outcome.metrics)
                let freshMet = outcome.confirmation.map { c.holds(at: name, in: $0.metrics) }
                lines.append("  constraint   \(c.text): \(Format.fixed(value, 3)) \(met ? "met" : "NOT met")"
                             + (fresh.map { "; on the fresh replications \(Format.fixed($0, 3)) \(freshMet == true ? "met" : "NOT met")" } ?? ""))
            }
        }
        for (i, r) in outcome.runnersUp.enumerated() {
            let d = r.difference.interval
            let sign = d.mean >= 0 ? "+" : ""
            let verdict = r.difference.indistinguishable ? "indistinguishable from the recommendation"
                : ((d.mean > 0) != tuner.maximize ? "worse than the recommendation" : "better than the recommendation")
            lines.append("  runner-up \(i + 1)  \(setting(r.ranked.point)): \(tuner.objective) = \(interval(r.ranked.objective))\(r.ranked.feasible ? "" : ", breaks \(r.ranked.violated.joined(separator: ", "))")")
            lines.append("               paired difference \(sign)\(Format.fixed(d.mean, 3))"
                         + (d.count > 1 ? " (95% CI \(Format.fixed(d.low, 3))…\(Format.fixed(d.high, 3)))" : "") + ": \(verdict)")
            if i == 0, let fresh = outcome.confirmation?.versusRunnerUp {
                let f = fresh.interval
                lines.append("               on the fresh replications \(f.mean >= 0 ? "+" : "")\(Format.fixed(f.mean, 3))"
                             + (f.count > 1 ? " (95% CI \(Format.fixed(f.low, 3))…\(Format.fixed(f.high, 3)))" : "")
                             + (fresh.indistinguishable ? ": indistinguishable" : ""))
            }
        }
        for w in edgeWarnings { lines.append("  " + w) }
        let top = outcome.ranking.prefix(8).map(\.point)
        lines.append(StudyTable.render(title: "  top of the ranking:", metrics: outcome.metrics, rows: top))
        return lines.joined(separator: "\n")
    }
}
