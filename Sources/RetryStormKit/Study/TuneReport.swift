import Foundation

/// tune.csv, tune.json and the terminal report of `tune`.
public struct TuneReport {
    public let tuner: Tuner
    public let outcome: Tuner.Outcome

    public init(tuner: Tuner, outcome: Tuner.Outcome) {
        self.tuner = tuner
        self.outcome = outcome
    }

    /// One row per evaluated point in rank order; rank 1 is the recommendation when feasible.
    public var csv: CSVTable {
        let study = outcome.study
        var table = CSVTable(columns: ["rank", "variant"] + study.parameterPaths
                             + ["feasible", "objective", "mean", "ci95_low", "ci95_high", "replications", "violated"])
        for (i, r) in outcome.ranking.enumerated() {
            let p = study.points[r.point]
            table.append([String(i + 1), p.name] + p.parameters + [
                r.feasible ? "true" : "false", (tuner.maximize ? "max:" : "") + tuner.objective,
                Format.fixed(r.objective.mean, 6), Format.fixed(r.objective.low, 6), Format.fixed(r.objective.high, 6),
                String(r.objective.count),
                r.violated.map { $0.replacingOccurrences(of: ",", with: " ").replacingOccurrences(of: " ", with: "") }.joined(separator: ";"),
            ])
        }
        return table
    }

    /// tune.json, the format the sweep heatmaps read (``TuningChoice``): the objective, the
    /// constraints as bounds on means (`!=` has no bound and is left out), the chosen point.
    public var json: String {
        var constraints: [[String: Any]] = []
        for c in tuner.constraints {
            var bound: [String: Any] = ["metric": c.metric]
            switch c.op {
            case .le, .lt: bound["max"] = c.value
            case .ge, .gt: bound["min"] = c.value
            case .eq: bound["min"] = c.value; bound["max"] = c.value
            case .ne: continue
            }
            constraints.append(bound)
        }
        var root: [String: Any] = [
            "objective": ["metric": tuner.objective, "goal": tuner.maximize ? "max" : "min"],
            "constraints": constraints,
        ]
        if let best = outcome.best {
            let p = outcome.study.points[best.point]
            root["chosen"] = ["point": Dictionary(uniqueKeysWithValues: zip(outcome.study.parameterPaths, p.parameters))]
        }
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    public func text(title: String) -> String {
        let study = outcome.study
        let goal = "\(tuner.maximize ? "maximise" : "minimise") \(tuner.objective)"
            + (tuner.constraints.isEmpty ? "" : " subject to \(tuner.constraints.map(\.text).joined(separator: ", "))")
        var lines = ["\(title): \(goal); \(study.points.count) points evaluated, \(study.replications) replication\(study.replications == 1 ? "" : "s") each"]
        func describe(_ r: Tuner.Ranked) -> String {
            let p = study.points[r.point]
            let setting = zip(study.parameterPaths, p.parameters).map { "\($0)=\($1)" }.joined(separator: ", ")
            let ci = r.objective.count > 1 ? " (95% CI \(Format.fixed(r.objective.low, 3))…\(Format.fixed(r.objective.high, 3)))" : ""
            return "\(setting): \(tuner.objective) = \(Format.fixed(r.objective.mean, 3))\(ci)"
        }
        if let best = outcome.best {
            lines.append("  recommended  \(describe(best))")
            let runners = outcome.ranking.dropFirst().prefix(3).filter(\.feasible)
            for (i, r) in runners.enumerated() { lines.append("  runner-up \(i + 1)  \(describe(r))") }
        } else if let closest = outcome.ranking.first {
            lines.append("  no point meets every constraint; closest: \(describe(closest)), breaks \(closest.violated.joined(separator: ", "))")
        }
        let top = outcome.ranking.prefix(8).map(\.point)
        lines.append(StudyTable.render(title: "  top of the ranking:", metrics: outcome.metrics, rows: top))
        return lines.joined(separator: "\n")
    }
}
