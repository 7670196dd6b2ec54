import Foundation
import GSLSupport
import RetryStormEngine

/// `tune`: the grid point that minimises (or maximises) an objective metric's mean subject to
/// constraints on other metrics' means, then a finer grid around it, `refine` times.
/// Deterministic for a seed: points are evaluated in a fixed order with their own replications,
/// and ties go to the point evaluated first.
public struct Tuner {
    public var objective: String
    public var maximize: Bool
    public var constraints: [Expectation]
    public var refine: Int

    public init(objective: String, maximize: Bool, constraints: [Expectation], refine: Int) {
        self.objective = objective
        self.maximize = maximize
        self.constraints = constraints
        self.refine = refine
    }

    /// Parses `metric`, `min:metric` or `max:metric`.
    public static func objective(_ text: String, at location: SourceLocation) throws(ScenarioError) -> (String, Bool) {
        var metric = text.trimmingWhitespace()
        var maximize = false
        if metric.hasPrefix("max:") { maximize = true; metric.removeFirst(4) }
        else if metric.hasPrefix("min:") { metric.removeFirst(4) }
        guard MetricTable.metrics.contains(metric) else {
            let hint = Suggest.nearest(metric, in: MetricTable.metrics).map { " Did you mean '\($0)'?" } ?? ""
            throw ScenarioError(location, field: "objective", "'\(metric)' is not a metric (summary.csv column).\(hint)")
        }
        return (metric, maximize)
    }

    /// One evaluated point in rank order.
    public struct Ranked: Sendable {
        public var point: Int
        public var feasible: Bool
        public var objective: ConfidenceInterval
        public var violated: [String]
    }

    public struct Outcome: Sendable {
        /// Every evaluated point: the grid first, then each refinement's new points.
        public var study: Study
        public var results: [StudyRunner.TaskResult]
        public var metrics: MetricTable
        public var ranking: [Ranked]
        public var best: Ranked? { ranking.first.flatMap { $0.feasible ? $0 : nil } }
    }

    /// Evaluates the grid, then refines around the best point.
    /// - Parameter check: called with the study before each round runs (the grid, then the grid
    ///   and every refinement so far), to refuse work that would not fit.
    public func run(_ loaded: LoadedScenario, grid: [GridSpec], replications: Int, jobs: Int,
                    options: EngineOptions, progress: ProgressMode = .none,
                    check: (Study) throws(ScenarioError) -> Void = { _ in }) throws(ScenarioError) -> Outcome {
        var study = try Studies.sweep(loaded, grid: grid, replications: replications, kind: .tune)
        var results: [StudyRunner.TaskResult] = []
        var evaluated = 0
        var specs = grid
        for round in 0...refine {
            try check(study)
            let newTasks = Array((evaluated * replications)..<(study.points.count * replications))
            var roundStudy = study
            roundStudy.points = Array(study.points[evaluated...])
            let display = Progress(label: "tune", mode: progress, study: roundStudy)
            display.start()
            results += StudyRunner.run(study, tasks: newTasks, jobs: jobs, options: options, progress: display)
            display.finish()
            evaluated = study.points.count
            let ranking = try rank(study, results)
            guard round < refine, let top = ranking.first else { break }
            // A finer grid around the leader, on every numeric parameter with a neighbour.
            specs = try refined(specs, around: study.points[top.point].parameters)
            let known = Set(study.points.map(\.name))
            let finer = try Studies.sweep(loaded, grid: specs, replications: replications, kind: .tune)
            let fresh = finer.points.filter { !known.contains($0.name) }
            if fresh.isEmpty { break }
            study.points += fresh
        }
        let metrics = try table(study, results)
        return Outcome(study: study, results: results, metrics: metrics, ranking: try rank(study, results))
    }

    func table(_ study: Study, _ results: [StudyRunner.TaskResult]) throws(ScenarioError) -> MetricTable {
        let summary = StudyTables.summary(study: study, results: results)
        do {
            return try MetricTable(study: study, summary: try CSVFile(text: summary.contents, path: "summary.csv"))
        } catch {
            throw ScenarioError(SourceLocation(origin: .defaultValue), "internal: \(error.message)")
        }
    }

    /// Feasible points first, by objective mean (best first), then infeasible ones by how many
    /// constraints they break and their objective. Ties keep evaluation order.
    func rank(_ study: Study, _ results: [StudyRunner.TaskResult]) throws(ScenarioError) -> [Ranked] {
        let metrics = try table(study, results)
        var ranked: [Ranked] = []
        for (p, point) in study.points.enumerated() {
            let violated = constraints.filter { !$0.holds(at: point.name, in: metrics) }.map(\.text)
            let ci = metrics.interval(point.name, objective) ?? ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 0)
            ranked.append(Ranked(point: p, feasible: violated.isEmpty && ci.mean.isFinite, objective: ci, violated: violated))
        }
        let sign = maximize ? -1.0 : 1.0
        return ranked.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            if x.feasible != y.feasible { return x.feasible }
            if x.violated.count != y.violated.count { return x.violated.count < y.violated.count }
            let xm = x.objective.mean.isFinite ? sign * x.objective.mean : .infinity
            let ym = y.objective.mean.isFinite ? sign * y.objective.mean : .infinity
            if xm != ym { return xm < ym }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Each numeric parameter's values replaced by five between the leader's neighbours.
    func refined(_ specs: [GridSpec], around values: [String]) throws(ScenarioError) -> [GridSpec] {
        var out: [GridSpec] = []
        for (spec, value) in zip(specs, values) {
            guard let i = spec.values.firstIndex(of: value), spec.values.count > 1,
                  let field = ScenarioSchema.byPath[spec.path], Self.isNumeric(field.kind) else {
                out.append(GridSpec(path: spec.path, values: [value], location: spec.location))
                continue
            }
            let lo = spec.values[max(0, i - 1)], hi = spec.values[min(spec.values.count - 1, i + 1)]
            let scale = (try? Self.ratio(lo, hi, field)) ?? 1 > 3 ? "log" : "lin"
            let range = "\(spec.path)=\(lo)...\(hi):\(scale):5"
            let finer = (try? GridSpec.parse(range, at: spec.location)) ?? GridSpec(path: spec.path, values: [value], location: spec.location)
            out.append(finer)
        }
        return out
    }

    static func isNumeric(_ kind: FieldKind) -> Bool {
        switch kind {
        case .duration, .rate, .number, .fraction, .integer: true
        default: false
        }
    }

    static func ratio(_ lo: String, _ hi: String, _ field: Field) throws -> Double {
        func number(_ v: FieldValue) -> Double {
            switch v {
            case .integer(let i): Double(i ?? 0)
            case .number(let d): d
            case .duration(let ns): Double(ns ?? 0)
            default: 0
            }
        }
        let a = number(try field.parse(lo)), b = number(try field.parse(hi))
        return a > 0 ? b / a : 1
    }
}
