import Foundation
import GSLSupport
import RetryStormEngine

/// `tune`: the grid point that minimises (or maximises) an objective metric's mean subject to
/// constraints on other metrics, found so that the answer can be defended in a review:
///
/// 1. The grid is evaluated; points that are the same configuration in effect (``Equivalence``)
///    are run once and listed as aliases.
/// 2. While the leader lies on the edge of the evaluated values of a numeric swept key, that key is
///    extended outward with the grid's own spacing (a log range by its ratio, a linear range or a
///    list by its last step) and the new values evaluated, up to ``maxExtensions`` times a key, or
///    until the key's valid range or a rule across keys (max ≥ base) stops it.
/// 3. Then `refine` rounds evaluate five values between the leader's neighbours on each numeric key.
/// 4. Points are ranked: those meeting every constraint with confidence (each 95% interval inside
///    its bound, ``ConstraintVerdict``) first, by the objective's mean; then those that meet every
///    constraint on the mean only (some interval crosses its bound), by the objective's mean; the
///    rest by how far they miss the constraints (the sum of relative violations,
///    ``Expectation/violation(at:in:)``), then by the objective. When no point meets the
///    constraints even on the mean, a point whose violation is within noise of the least one's,
///    replication by replication (``Closest``), is preferred when its objective is better.
/// 5. The leader is compared with each runner-up by paired differences over the replications they
///    share (common random numbers), and confirmed on fresh replications — seeds not used to choose
///    it — whose values are reported beside the selection values.
///
/// Deterministic for a seed: points are evaluated in a fixed order, ties go to the point evaluated first.
package struct Tuner {
    package var objective: Metric
    /// The population whose objective it is (`populations.NAME.METRIC`), nil for the fleet's.
    package var objectivePopulation: String?
    package var maximize: Bool
    package var constraints: [Expectation]
    package var refine: Int
    /// Extensions per key and direction beyond the grid.
    package var maxExtensions = 4

    package init(objective: Metric, maximize: Bool, constraints: [Expectation], refine: Int, population: String? = nil) {
        self.objective = objective
        self.objectivePopulation = population
        self.maximize = maximize
        self.constraints = constraints
        self.refine = refine
    }

    /// Parses `metric`, `min:metric` or `max:metric` (``Objective``), the metric of the fleet or
    /// `populations.NAME.METRIC`.
    package static func objective(_ text: String, at location: SourceLocation) throws(ScenarioError) -> Objective {
        try Objective.parse(text, at: location)
    }

    /// The objective as written: `tts_p99_s`, `populations.new.tts_p99_s`.
    package var objectiveName: String { ScopedMetric(objective, population: objectivePopulation).description }

    /// The table the objective is judged in: `metrics`, or its population's.
    package func objectiveTable(_ metrics: MetricTable) -> MetricTable { metrics.scoped(objectivePopulation) ?? metrics }

    /// One evaluated point in rank order.
    package struct Ranked: Sendable {
        package var point: Int
        /// Every constraint holds on the value it judges (the mean, or the end it names) and the
        /// objective has a value.
        package var feasible: Bool
        package var objective: ConfidenceInterval
        /// The constraints that do not hold on the value they judge, as written.
        package var violated: [String]
        /// Sum of the relative violations of the constraints (0 when feasible).
        package var distance: Double
        /// Each constraint's verdict with confidence, in the order of ``Tuner/constraints``.
        package var verdicts: [ConstraintVerdict] = []

        /// Feasible, and every constraint met with confidence (its 95% interval inside the bound).
        package var confident: Bool { feasible && verdicts.allSatisfy(\.confident) }
    }

    /// How `closest` was chosen when no point meets every constraint: the point with the least
    /// total violation of the means, or one whose violation is within noise of it — compared
    /// replication by replication, ``PairedDifference`` of the per-replication sum of relative
    /// violations — and whose objective is better.
    package struct Closest: Sendable {
        /// The point with the least total relative violation of the means.
        package var leastViolation: Int
        /// The point chosen (``leastViolation`` unless a point within noise of it has a better objective).
        package var chosen: Int
        /// Per-replication violation, chosen − least (nil when chosen is the least).
        package var violationDifference: PairedDifference?
        /// Objective, chosen − least (nil when chosen is the least).
        package var objectiveDifference: PairedDifference?
    }

    /// A runner-up and its paired difference from the leader on the objective (runner-up − leader).
    package struct RunnerUp: Sendable {
        package var ranked: Ranked
        package var difference: PairedDifference
    }

    /// Values added to a swept key beyond its grid, and why the extension stopped.
    package struct Extension: Sendable {
        package var path: String
        package var added: [String]
        /// Set when the leader still lies on this key's edge: what stopped the extension.
        package var stoppedBy: String?
    }

    /// The leader run again on fresh replications.
    package struct Confirmation: Sendable {
        /// Replication indices used (after those of the selection).
        package var replications: Range<Int>
        /// Every metric at the leader on those replications (one point, named as the leader).
        package var metrics: MetricTable
        /// The runner-up 1 on the same fresh replications, paired with the leader (runner-up − leader).
        package var versusRunnerUp: PairedDifference?
        package var results: [ReplicationResult]
    }

    package struct Outcome: Sendable {
        /// Every evaluated point: the grid first, then extensions and refinements.
        package var study: Study
        package var results: [StudyRunner.TaskResult]
        package var metrics: MetricTable
        package var ranking: [Ranked]
        /// Names of points not run because an evaluated point is the same configuration in effect.
        package var aliases: [Int: [String]]
        package var extensions: [Extension]
        package var runnersUp: [RunnerUp]
        package var confirmation: Confirmation?
        /// Set when no point is feasible: how the closest one was chosen.
        package var closest: Closest?
        /// The recommendation when it meets every constraint, with confidence or, failing that, on the mean.
        package var best: Ranked? { ranking.first.flatMap { $0.feasible ? $0 : nil } }
        /// Whether the recommendation meets the constraints on the mean only: no point meets all of them with confidence.
        package var fellBackToMean: Bool { ranking.first.map { $0.feasible && !$0.confident } ?? false }
        /// The keys on whose edge the final leader still lies, each with what stopped the extension.
        package var edges: [Extension] { extensions.filter { $0.stoppedBy != nil } }
    }

    /// Evaluates the grid, extends it past its edges, refines around the leader, ranks, compares
    /// and confirms.
    /// - Parameter check: called with the study before each round runs, and with the confirmation
    ///   study, to refuse work that would not fit.
    package func run(
        _ loaded: LoadedScenario, grid: [GridSpec], replications: Int, jobs: Int,
        options: EngineOptions, progress: ProgressMode = .none,
        check: (Study) throws(ScenarioError) -> Void = { _ in }
    ) throws(ScenarioError) -> Outcome {
        var study = Study(kind: .tune, points: [], parameterPaths: grid.map(\.path), replications: replications)
        var keys: [String: Int] = [:]
        var aliases: [Int: [String]] = [:]
        var known = Set<String>()
        var results: [StudyRunner.TaskResult] = []
        var evaluated = 0
        var specs = grid
        var frontier = Frontier(keys: grid.count, limit: maxExtensions)
        var extending: (key: Int, side: Int)?
        var refinements = 0
        // Each pass extends a key, refines, or stops: at most this many passes.
        for _ in 0...(refine + 2 * (maxExtensions + 1) * grid.count + 1) {
            var candidates: [Study.Point] = []
            do {
                candidates = try Studies.sweep(loaded, grid: specs, replications: replications, kind: .tune).points
            } catch {
                // Every combination beyond this edge breaks a rule across keys (max ≥ base): stop there.
                guard let (key, side) = extending else { throw error }
                frontier.stop(key, side, "no valid combination beyond it (a rule across keys)", withdraw: true)
            }
            extending = nil
            for point in candidates where !known.contains(point.name) {
                known.insert(point.name)
                let key = Equivalence.key(point, paths: study.parameterPaths)
                if let twin = keys[key] {
                    aliases[twin, default: []].append(point.name)
                } else {
                    keys[key] = study.points.count
                    study.points.append(point)
                }
            }
            if study.points.count > evaluated {
                try check(study)
                var round = study
                round.points = Array(study.points[evaluated...])
                let display = Progress(label: "tune", mode: progress, study: round)
                display.start()
                let tasks = Array((evaluated * replications)..<(study.points.count * replications))
                results += StudyRunner.run(study, tasks: tasks, jobs: jobs, options: options, progress: display)
                display.finish()
                evaluated = study.points.count
            }
            guard let top = try rank(study, results).first else { break }
            if let (next, key, side) = extend(study, leader: top.point, grid: grid, frontier: &frontier) {
                specs = next
                extending = (key, side)
                continue
            }
            guard refinements < refine else { break }
            refinements += 1
            let finer = try refined(study, around: top.point)
            // A finer grid that adds nothing new ends the refinement.
            if try Studies.sweep(loaded, grid: finer, replications: replications, kind: .tune).points.allSatisfy({ known.contains($0.name) }) {
                break
            }
            specs = finer
        }
        let metrics = table(study, results)
        let ranking = try rank(study, results)
        var runnersUp: [RunnerUp] = []
        if let leader = ranking.first {
            for r in ranking.dropFirst().prefix(3) {
                guard let d = objectiveTable(metrics).difference(study.points[r.point].name, minus: study.points[leader.point].name, objective) else {
                    continue
                }
                runnersUp.append(RunnerUp(ranked: r, difference: d))
            }
        }
        let extensions = grid.indices.map { k in
            Extension(
                path: grid[k].path, added: frontier.added[k],
                stoppedBy: ranking.first.flatMap { edgeReason(study, leader: $0.point, key: k, frontier: frontier) })
        }
        var outcome = Outcome(
            study: study, results: results, metrics: metrics, ranking: ranking, aliases: aliases,
            extensions: extensions, runnersUp: runnersUp, confirmation: nil, closest: closest(ordered(study, metrics), study, metrics))
        if let leader = ranking.first {
            outcome.confirmation = try confirm(
                study, leader: leader.point, runnerUp: runnersUp.first?.ranked.point,
                jobs: jobs, options: options, check: check)
        }
        return outcome
    }

    /// How far each swept key has been extended past the grid, per side (0 downward, 1 upward),
    /// and why a side stopped.
    struct Frontier {
        var count: [[Int]]
        var stopped: [[String?]]
        var added: [[String]]
        let limit: Int

        init(keys: Int, limit: Int) {
            count = Array(repeating: [0, 0], count: keys)
            stopped = Array(repeating: [nil, nil], count: keys)
            added = Array(repeating: [], count: keys)
            self.limit = limit
        }

        func open(_ key: Int, _ side: Int) -> Bool { stopped[key][side] == nil && count[key][side] < limit }

        /// Stops a side; `withdraw` takes back the value just added (none of its combinations was valid).
        mutating func stop(_ key: Int, _ side: Int, _ reason: String, withdraw: Bool = false) {
            stopped[key][side] = reason
            if withdraw && !added[key].isEmpty { added[key].removeLast() }
        }
    }

    // MARK: - Ranking

    func table(_ study: Study, _ results: [StudyRunner.TaskResult]) -> MetricTable {
        let rows = StudyJob.records(study: study, results: results, series: false, jobs: 1)
        return MetricTable(study: study, summaries: rows.summaries, populations: rows.populations, services: rows.services)
    }

    /// Points meeting every constraint with confidence first, then those meeting them on the mean
    /// only, each by objective mean (best first); then the others by the sum of their relative
    /// violations, then their objective; with ``closest(_:_:_:)``'s choice first when no point
    /// is feasible. Ties keep evaluation order.
    func rank(_ study: Study, _ results: [StudyRunner.TaskResult]) throws(ScenarioError) -> [Ranked] {
        let metrics = table(study, results)
        var ranking = ordered(study, metrics)
        if let c = closest(ranking, study, metrics), c.chosen != c.leastViolation, let i = ranking.firstIndex(where: { $0.point == c.chosen }) {
            ranking.insert(ranking.remove(at: i), at: 0)
        }
        return ranking
    }

    /// Every point in the order of ``rank(_:_:)`` before the closest is chosen.
    func ordered(_ study: Study, _ metrics: MetricTable) -> [Ranked] {
        var ranked: [Ranked] = []
        for (p, point) in study.points.enumerated() {
            let violated = constraints.filter { !$0.holds(at: point.name, in: metrics) }
            let distance = violated.reduce(0) { $0 + $1.violation(at: point.name, in: metrics) }
            let ci = objectiveTable(metrics).interval(point.name, objective) ?? ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 0)
            ranked.append(
                Ranked(
                    point: p, feasible: violated.isEmpty && ci.mean.isFinite, objective: ci,
                    violated: violated.map(\.text), distance: distance,
                    verdicts: constraints.map { $0.verdict(at: point.name, in: metrics) }))
        }
        let sign = maximize ? -1.0 : 1.0
        return ranked.enumerated().sorted { a, b in
            let x = a.element
            let y = b.element
            if x.feasible != y.feasible { return x.feasible }
            if x.confident != y.confident { return x.confident }
            if !x.feasible && x.distance != y.distance { return x.distance < y.distance }
            let xm = x.objective.mean.isFinite ? sign * x.objective.mean : .infinity
            let ym = y.objective.mean.isFinite ? sign * y.objective.mean : .infinity
            if xm != ym { return xm < ym }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// When no point is feasible: the point with the least total violation of the means
    /// (`ordered`'s first), unless another point's violation is within noise of it replication
    /// by replication (the paired 95% interval of the per-replication sums of relative
    /// violations holds 0) and its objective mean is better; then the best such objective. A
    /// difference of violations that noise can make must not outweigh a real gain on the objective.
    /// Nil when a point is feasible.
    func closest(_ ordered: [Ranked], _ study: Study, _ metrics: MetricTable) -> Closest? {
        guard let least = ordered.first, !least.feasible else { return nil }
        let leastName = study.points[least.point].name
        let sign = maximize ? -1.0 : 1.0
        var chosen = least
        var chosenDifference: PairedDifference?
        for r in ordered.dropFirst() where r.objective.mean.isFinite {
            let name = study.points[r.point].name
            guard let a = perReplicationViolation(name, metrics), let b = perReplicationViolation(leastName, metrics) else { continue }
            let d = PairedDifference(a.values, replications: a.replications, minus: b.values, replications: b.replications)
            guard d.indistinguishable, d.interval.count >= 2 else { continue }
            let current = chosen.objective.mean.isFinite ? sign * chosen.objective.mean : .infinity
            if sign * r.objective.mean < current {
                chosen = r
                chosenDifference = d
            }
        }
        let objectiveDifference =
            chosen.point == least.point ? nil : objectiveTable(metrics).difference(study.points[chosen.point].name, minus: leastName, objective)
        return Closest(
            leastViolation: least.point, chosen: chosen.point, violationDifference: chosenDifference, objectiveDifference: objectiveDifference)
    }

    /// Replication by replication, the sum over the constraints of the relative violation of that
    /// replication's value (``Expectation/violation(of:)``); nil when a metric is missing.
    func perReplicationViolation(_ name: String, _ metrics: MetricTable) -> (values: [Double], replications: [Int])? {
        guard let reference = objectiveTable(metrics).cell(name, objective) else { return nil }
        var sums = Array(repeating: 0.0, count: reference.replications.count)
        for c in constraints {
            guard let cell = c.cell(name, in: metrics), cell.replications == reference.replications else { return nil }
            for (i, x) in cell.values.enumerated() { sums[i] += c.violation(of: x) }
        }
        return (sums, reference.replications)
    }

    // MARK: - Extending past the grid

    /// The numeric values evaluated on key `d`, ascending, with their texts.
    func evaluatedValues(_ study: Study, dimension d: Int) -> [(value: Double, text: String)] {
        guard let field = ScenarioSchema.byPath[study.parameterPaths[d]], GridSpec.numeric(field.kind) else { return [] }
        var seen: [String: Double] = [:]
        for p in study.points {
            let text = p.parameters[d]
            if seen[text] == nil, let v = try? GridSpec.value(text, field.kind) { seen[text] = v }
        }
        return seen.map { ($0.value, $0.key) }.sorted { $0.value < $1.value }
    }

    /// Specs that add one value beyond the edge the leader lies on (the first such key), combined
    /// with the grid's values of the other keys and the leader's; nil when the leader is interior
    /// everywhere or no extension is left.
    func extend(_ study: Study, leader: Int, grid: [GridSpec], frontier: inout Frontier) -> ([GridSpec], Int, Int)? {
        for d in grid.indices {
            let values = evaluatedValues(study, dimension: d)
            guard values.count >= 2, let field = ScenarioSchema.byPath[grid[d].path],
                let mine = try? GridSpec.value(study.points[leader].parameters[d], field.kind)
            else { continue }
            for (side, outer, inner) in [(1, values[values.count - 1], values[values.count - 2]), (0, values[0], values[1])]
            where mine == outer.value && frontier.open(d, side) {
                let step =
                    grid[d].scale == .log && outer.value > 0 && inner.value > 0
                    ? outer.value * (outer.value / inner.value) : outer.value + (outer.value - inner.value)
                var text = GridSpec.render(step, field.kind)
                if case .integer = field.kind, text == outer.text { text = GridSpec.render(outer.value + (side == 1 ? 1 : -1), field.kind) }
                frontier.count[d][side] += 1
                guard step.isFinite, !values.contains(where: { $0.text == text }), (try? field.parse(text)) != nil else {
                    frontier.stop(d, side, "its valid range ends there")
                    continue
                }
                var specs = grid
                for k in grid.indices where k != d {
                    // Parameters hold a list value as its label (sweep.csv); the spec holds the value.
                    let label = study.points[leader].parameters[k]
                    let leaderValue = grid[k].values.first { GridSpec.label($0) == label } ?? label
                    if !specs[k].values.contains(leaderValue) { specs[k].values.append(leaderValue) }
                }
                specs[d] = GridSpec(path: grid[d].path, values: [text], location: grid[d].location, scale: grid[d].scale)
                frontier.added[d].append(text)
                return (specs, d, side)
            }
        }
        return nil
    }

    /// Why the leader still lies on key `key`'s edge after the search (nil if it is interior, the
    /// key is not numeric, or it has one value).
    func edgeReason(_ study: Study, leader: Int, key: Int, frontier: Frontier) -> String? {
        let values = evaluatedValues(study, dimension: key)
        guard values.count >= 2, let field = ScenarioSchema.byPath[study.parameterPaths[key]],
            let mine = try? GridSpec.value(study.points[leader].parameters[key], field.kind)
        else { return nil }
        for (side, outer) in [(1, values[values.count - 1]), (0, values[0])] where mine == outer.value {
            let direction = side == 1 ? "upward" : "downward"
            return "\(frontier.stopped[key][side] ?? "the limit of \(maxExtensions) extensions was reached") (\(direction))"
        }
        return nil
    }

    // MARK: - Refining

    /// Each numeric key's values replaced by five between the leader's neighbours among the values
    /// evaluated on it; other keys fixed at the leader's value.
    func refined(_ study: Study, around leader: Int) throws(ScenarioError) -> [GridSpec] {
        var out: [GridSpec] = []
        for (d, path) in study.parameterPaths.enumerated() {
            let value = study.points[leader].parameters[d]
            let location = SourceLocation(origin: .option("tune refinement"))
            let values = evaluatedValues(study, dimension: d)
            guard let i = values.firstIndex(where: { $0.text == value }), values.count > 1 else {
                out.append(GridSpec(path: path, values: [value], location: location))
                continue
            }
            let lo = values[max(0, i - 1)]
            let hi = values[min(values.count - 1, i + 1)]
            let scale = lo.value > 0 && hi.value / lo.value > 3 ? "log" : "lin"
            let finer = try? GridSpec.parse("\(path)=\(lo.text)...\(hi.text):\(scale):5", at: location)
            out.append(finer ?? GridSpec(path: path, values: [value], location: location))
        }
        return out
    }

    // MARK: - Confirming

    /// Runs the leader (and runner-up 1, for a paired comparison) on the next `replications`
    /// replication indices: seeds that played no part in choosing it.
    func confirm(
        _ study: Study, leader: Int, runnerUp: Int?, jobs: Int, options: EngineOptions,
        check: (Study) throws(ScenarioError) -> Void
    ) throws(ScenarioError) -> Confirmation {
        let r = study.replications
        let fresh = r..<(2 * r)
        var points = [study.points[leader]]
        if let runnerUp { points.append(study.points[runnerUp]) }
        var confirmationStudy = Study(kind: .tune, points: points, parameterPaths: study.parameterPaths, replications: r)
        try check(confirmationStudy)
        confirmationStudy.skipped = []
        let tasks = points.flatMap { p in fresh.map { ReplicationRunner.Task(scenario: p.scenario, replication: $0) } }
        let runs = ReplicationRunner.run(tasks, jobs: jobs, options: options)
        let summaries = runs.enumerated().map { i, result in
            SummaryRecord(result, variant: points[i / r].name, seed: points[i / r].scenario.seed)
        }
        let populations = runs.enumerated().flatMap { i, result in PopulationRecord.records(result, variant: points[i / r].name) }
        let services = runs.enumerated().flatMap { i, result in
            ServiceRecord.records(result, variant: points[i / r].name, warmup: points[i / r].scenario.warmup)
        }
        var metrics = MetricTable(
            names: points.map(\.name), parameters: points.map(\.parameters),
            parameterPaths: study.parameterPaths, summaries: summaries, populations: populations, services: services)
        metrics.focus(on: study.points.first?.scenario.focus)
        let versus = runnerUp.flatMap { objectiveTable(metrics).difference(study.points[$0].name, minus: study.points[leader].name, objective) }
        return Confirmation(replications: fresh, metrics: metrics, versusRunnerUp: versus, results: runs)
    }
}
