import RetryStormEngine

/// Refuses, before anything runs, a study that would not fit in this machine's memory or whose
/// replications could run for an unreasonable number of events, naming the knob to turn.
public enum ResourceGuard {
    /// The share of the real memory limit a study may plan to use (``MachineLimits/share``).
    static let share = MachineLimits.share
    /// Events one replication may process unless `--max-events` says otherwise: about one to
    /// two minutes of simulation on one core.
    public static let defaultMaxEvents: Int64 = 1_000_000_000
    /// The most points a study may have: the points themselves are built before anything runs.
    public static let maxPoints = 100_000

    /// Estimates `study` run on `jobs` threads and checks it (see the other overload).
    public static func check(_ study: Study, loaded: LoadedScenario, jobs: Int, series: Bool,
                             maxEvents: Int64 = defaultMaxEvents) throws(ScenarioError) {
        try check(StudyBudget(study: study, jobs: jobs, series: series), study: study, loaded: loaded, maxEvents: maxEvents)
    }

    /// Throws a ``ScenarioError`` when `budget` exceeds the memory `limits` allow or its busiest
    /// replication may process more than `maxEvents` events.
    public static func check(_ budget: StudyBudget, study: Study, loaded: LoadedScenario, limits: MachineLimits = .current,
                             maxEvents: Int64 = defaultMaxEvents) throws(ScenarioError) {
        // A retry loop is best named by its loop, whatever memory its events would also take.
        let loop = budget.zeroDelayLoop != nil || study.points[budget.busiestPoint].scenario.policy.coolOff != nil
        if !loop { try checkMemory(budget, study: study, loaded: loaded, limits: limits) }
        try checkEvents(budget, study: study, loaded: loaded, maxEvents: maxEvents)
        if loop { try checkMemory(budget, study: study, loaded: loaded, limits: limits) }
    }

    /// The events half of ``check(_:study:loaded:limits:maxEvents:)``.
    static func checkEvents(_ budget: StudyBudget, study: Study, loaded: LoadedScenario, maxEvents: Int64) throws(ScenarioError) {
        if budget.eventsPerReplication > Double(maxEvents) {
            let p = budget.busiestPoint
            let events = Format.grouped(budget.eventsPerReplication)
            let limit = "more than --max-events \(Format.grouped(maxEvents))"
            let s = study.points[p].scenario
            if let loop = budget.zeroDelayLoop {
                let field = s.policy.coolOff != nil ? "policy.cool_off" : "policy.max_attempts"
                let knob = s.policy.coolOff != nil ? "lengthen policy.cool_off or add a backoff delay" : "add a backoff delay or lower policy.max_attempts"
                throw ScenarioError(loaded.location(of: field), field: field,
                    "a replication\(Self.named(study, p)) may process \(events) events, \(limit): \(loop); \(knob) (or pass --max-events \(Format.grouped(budget.eventsPerReplication.rounded(.up))) to run it anyway)")
            }
            let field = s.policy.coolOff != nil ? "policy.cool_off" : "clients.count"
            let knob = s.policy.coolOff != nil ? "lengthen policy.cool_off, lower policy.max_attempts or the horizon"
                : "lower clients.count, the horizon or policy.max_attempts"
            throw ScenarioError(loaded.location(of: field), field: field,
                "a replication\(Self.named(study, p)) may process \(events) events, \(limit); \(knob) (or pass --max-events \(Format.grouped(budget.eventsPerReplication.rounded(.up))) to run it anyway)")
        }
    }

    /// The memory half of ``check(_:study:loaded:limits:maxEvents:)``.
    static func checkMemory(_ budget: StudyBudget, study: Study, loaded: LoadedScenario, limits: MachineLimits) throws(ScenarioError) {
        let have = limits.bytes * share
        guard budget.bytes > have else { return }
        var parts: [String] = []
        if budget.engineBytes >= budget.bytes / 100 {
            parts.append("\(Format.bytes(budget.engineBytes)) for \(budget.parallel) replication\(budget.parallel == 1 ? "" : "s") running at once")
        }
        if budget.resultBytes >= budget.bytes / 100 { parts.append("\(Format.bytes(budget.resultBytes)) of results held") }
        if budget.tableBytes >= budget.bytes / 100 { parts.append("\(Format.bytes(budget.tableBytes)) of tables") }
        let fix: String
        let field: String
        if budget.engineBytes >= budget.resultBytes + budget.tableBytes {
            field = "clients.count"
            fix = "lower clients.count or the horizon\(Self.named(study, budget.hungriestPoint))" + (budget.parallel > 1 ? ", or run fewer --jobs" : "")
        } else {
            field = "bucket"
            fix = "run fewer --replications, variants or grid points, or widen the bucket"
        }
        throw ScenarioError(loaded.location(of: field), field: field,
            "needs about \(Format.bytes(budget.bytes)) (\(parts.joined(separator: ", "))) but \(limits.description) allows \(Format.bytes(have)) (80% of \(Format.bytes(limits.bytes))); \(fix)")
    }

    /// " ('name')" for a point of a study with more than the base, for messages.
    static func named(_ study: Study, _ i: Int) -> String {
        study.points.count > 1 || study.kind != .run ? " ('\(study.points[i].name)')" : ""
    }
}
