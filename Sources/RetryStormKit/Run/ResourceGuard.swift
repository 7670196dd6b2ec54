import RetryStormEngine

/// Refuses, before anything runs, a study that would not fit in this machine's memory (the
/// share ``MachineLimits/usable`` of its real limit) or whose replications could run for an
/// unreasonable number of events, naming the input that drives the estimate
/// (``ResourceDriver``: clients, the load's multiplier, the horizon, attempts, buckets,
/// populations, replications, points) as the key that set it, with its file and line or option,
/// and the knob to turn. `validate` runs the same checks on the same estimates.
///
/// Result and shard directories read by `report`, `chart` and `merge` are counted the same way
/// by ``ResultsBudget``, against the same limit, as they are read.
package enum ResourceGuard {
    /// Events one replication may process unless `--max-events` says otherwise: about one to
    /// two minutes of simulation on one core.
    package static let defaultMaxEvents: Int64 = 1_000_000_000

    /// The bytes a call graph's own tables may take in each of `jobs` replications running at
    /// once (``EngineOptions/graphMemory``): a quarter of what this machine lets the process use,
    /// shared by the jobs. A quarter, because the rest of the replication (the clients' tables,
    /// the recorder, results held) needs room too, and a table that doubles holds its old and new
    /// storage at once; the check runs every 65,536 events, after the growth.
    package static func graphMemory(jobs: Int) -> Int {
        Int(min(9e18, MachineLimits.current.usable / Double(4 * max(1, jobs))))
    }
    /// The most points a study may have: the points themselves are built before anything runs.
    package static let maxPoints = 100_000

    /// Estimates `study` run on `jobs` threads and checks it (see the other overload).
    package static func check(
        _ study: Study, loaded: LoadedScenario, jobs: Int, series: Bool,
        maxEvents: Int64 = defaultMaxEvents
    ) throws(ScenarioError) {
        try check(StudyBudget(study: study, jobs: jobs, series: series, inputs: loaded.inputs), study: study, loaded: loaded, maxEvents: maxEvents)
    }

    /// Throws a ``ScenarioError`` when `budget` exceeds the memory `limits` allow or its busiest
    /// replication may process more than `maxEvents` events.
    package static func check(
        _ budget: StudyBudget, study: Study, loaded: LoadedScenario, limits: MachineLimits = .current,
        maxEvents: Int64 = defaultMaxEvents
    ) throws(ScenarioError) {
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
            // --max-events takes an Int64: past that there is no way to run it anyway.
            let anyway =
                budget.eventsPerReplication < 9e18
                ? " (or pass --max-events \(Format.grouped(budget.eventsPerReplication.rounded(.up))) to run it anyway)" : ""
            let s = study.points[p].scenario
            // The loop is named when its attempts drive the events, not when, say, a load
            // multiplier of 1e300 does.
            if let loop = budget.zeroDelayLoop, budget.eventsDriver == .attempts, budget.zeroDelayDriver == .attempts {
                let field = s.policy.coolOff != nil ? "policy.cool_off" : "policy.max_attempts"
                let knob =
                    s.policy.coolOff != nil ? "lengthen policy.cool_off or add a backoff delay" : "add a backoff delay or lower policy.max_attempts"
                throw ScenarioError(
                    key(field, point: study.points[p], loaded: loaded), field: field,
                    "a replication\(Self.named(study, p)) may process \(events) events, \(limit): \(loop); \(knob)\(anyway)")
            }
            // An edge's loop, named by its own keys.
            if let loop = budget.zeroDelayLoop, case .callAttempts(let edge) = budget.eventsDriver, budget.zeroDelayDriver == budget.eventsDriver {
                let field = edge + ".policy.max_attempts"
                let knob = "add a backoff delay (\(edge).policy.backoff) or lower \(field)"
                throw ScenarioError(
                    key(field, point: study.points[p], loaded: loaded), field: field,
                    "a replication\(Self.named(study, p)) may process \(events) events, \(limit): \(loop); \(knob)\(anyway)")
            }
            let blame = Self.blame(budget.eventsDriver, point: p, study: study, loaded: loaded, events: true)
            throw ScenarioError(
                blame.location, field: blame.field,
                "a replication\(Self.named(study, p)) may process \(events) events, \(limit); \(blame.knob)\(anyway)")
        }
    }

    /// The memory half of ``check(_:study:loaded:limits:maxEvents:)``.
    static func checkMemory(_ budget: StudyBudget, study: Study, loaded: LoadedScenario, limits: MachineLimits) throws(ScenarioError) {
        let have = limits.usable
        guard budget.bytes > have else { return }
        var parts: [String] = []
        if budget.engineBytes >= budget.bytes / 100 {
            parts.append("\(Format.bytes(budget.engineBytes)) for \(budget.parallel) replication\(budget.parallel == 1 ? "" : "s") running at once")
        }
        if budget.resultBytes >= budget.bytes / 100 { parts.append("\(Format.bytes(budget.resultBytes)) of results held") }
        if budget.tableBytes >= budget.bytes / 100 { parts.append("\(Format.bytes(budget.tableBytes)) of tables") }
        if budget.populationTableBytes >= budget.bytes / 100 {
            // The same figure holds a call graph's services.csv and timeseries_services.csv.
            let graph = study.points.contains { $0.scenario.isCallGraph }
            let populations = study.points.contains { !$0.scenario.populations.isEmpty }
            let what = graph && populations ? "population and service tables" : graph ? "service tables" : "population tables"
            parts.append("\(Format.bytes(budget.populationTableBytes)) of \(what)")
        }
        if budget.inputBytes >= budget.bytes / 100 { parts.append("\(Format.bytes(budget.inputBytes)) of input files") }
        var blame: Blame
        let held = budget.resultBytes + budget.tableBytes + budget.populationTableBytes
        if budget.inputBytes >= max(budget.engineBytes, held), let largest = loaded.inputs.records.max(by: { $0.bytes < $1.bytes }) {
            // The profile files themselves: no knob of the simulation makes them smaller.
            blame = Blame(
                largest.key, loaded.location(of: largest.key),
                "give \(largest.key) fewer rows (\(largest.file) holds \(Format.grouped(Int64(largest.bytes))) bytes), or run where more memory is free"
            )
        } else if budget.engineBytes >= held {
            let p = budget.hungriestPoint
            blame = Self.blame(budget.engineDriver, point: p, study: study, loaded: loaded)
            blame.knob += Self.named(study, p) + (budget.parallel > 1 ? ", or run fewer --jobs" : "")
        } else {
            blame = Self.blame(budget.heldDriver, point: budget.heldPoint, study: study, loaded: loaded)
        }
        throw ScenarioError(
            blame.location, field: blame.field,
            "needs about \(Format.bytes(budget.bytes)) (\(parts.joined(separator: ", "))) but \(limits.description) allows \(Format.bytes(have)) (\(Int(MachineLimits.share * 100))% of \(Format.bytes(limits.bytes))); \(blame.knob)"
        )
    }

    /// What a refusal names: the key that drives the estimate (nil for an option that is not a
    /// scenario key), where it was set, and what to do.
    struct Blame {
        var field: String?
        var location: SourceLocation
        var knob: String

        init(_ field: String?, _ location: SourceLocation, _ knob: String) {
            self.field = field
            self.location = location
            self.knob = knob
        }
    }

    /// The key that `driver` stands for at point `p`, with its location and the knob to turn
    /// (for a refusal of `events`, else of memory).
    static func blame(_ driver: ResourceDriver, point p: Int, study: Study, loaded: LoadedScenario, events: Bool = false) -> Blame {
        let point = study.points[p]
        func named(_ field: String, _ knob: String) -> Blame { Blame(field, key(field, point: point, loaded: loaded), knob) }
        switch driver {
        case .clients: return named("clients.count", "lower clients.count")
        case .arrivalRate: return named("clients.rate", "lower clients.rate")
        case .horizon: return named("horizon", "shorten the horizon")
        case .load:
            // The key that sets the multiplier (they exclude one another); a spike that keeps
            // its default multiplier is named by it too, where the spike is.
            let field =
                LoadedScenario.loadKeys.first { point.setAt[$0] != nil }
                ?? loaded.setting(where: LoadedScenario.loadKeys.contains)?.path ?? "load.spike.multiplier"
            return named(field, "lower the load's multiplier (\(field))")
        case .attempts:
            return point.scenario.policy.coolOff != nil
                ? named("policy.cool_off", "lengthen policy.cool_off or lower policy.max_attempts")
                : named("policy.max_attempts", "lower policy.max_attempts or add a backoff delay")
        case .bucket: return named("bucket", "widen the bucket, or run fewer --replications, variants or grid points")
        case .populations: return named("populations", events ? "use fewer populations" : "use fewer populations or widen the bucket")
        case .replications:
            return Blame(
                nil, SourceLocation(origin: .option("--replications \(study.replications)")),
                "run fewer --replications, or widen the bucket")
        case .points:
            return Blame(
                nil, SourceLocation(origin: .file(loaded.path)),
                "run fewer \(study.kind == .compare ? "variants" : "grid points"), or widen the bucket")
        case .callCount(let edge):
            return named(edge + ".count", "lower \(edge).count (requests multiply by each call's count and attempts down the graph)")
        case .callAttempts(let edge):
            // A hedged call's attempts are its copies.
            let sc = point.scenario
            let hedged = sc.services.indices.contains { k in
                sc.services[k].calls.contains { ResourceEstimate.edgeKey(sc, k, $0) == edge && $0.policy.hedging != nil }
            }
            let field = edge + (hedged ? ".policy.hedge.max_attempts" : ".policy.max_attempts")
            return named(field, "lower \(field) (requests multiply by each call's count and attempts down the graph)")
        }
    }

    /// Where `field` was set for `point`: by the point itself (a variant's key, a `--vary` or
    /// `--grid` value), else by the file or an override (`populations` by any of its
    /// populations), else the file.
    static func key(_ field: String, point: Study.Point, loaded: LoadedScenario) -> SourceLocation {
        let population = field == "populations" ? point.setAt.filter { $0.key.hasPrefix("populations.") }.min { $0.key < $1.key }?.value : nil
        if let own = point.setAt[field] ?? population { return own }
        let found = field == "populations" ? loaded.setting(first: true) { $0.hasPrefix("populations.") } : loaded.setting { $0 == field }
        // A spike whose multiplier is the default is named where the spike is.
        let spike = field == "load.spike.multiplier" ? loaded.setting { $0.hasPrefix("load.spike.") } : nil
        // An edge's key left at its default is named where the call is declared (its `to`).
        let parts = field.split(separator: ".")
        let edge = parts.count > 4 && parts[0] == "services" && parts[2] == "calls" ? parts.prefix(4).joined(separator: ".") : nil
        let call = edge.flatMap { e in loaded.setting { $0 == e } }
        return found?.location ?? spike?.location ?? call?.location ?? SourceLocation(origin: .file(loaded.path))
    }

    /// " ('name')" for a point of a study with more than the base, for messages.
    static func named(_ study: Study, _ i: Int) -> String {
        study.points.count > 1 || study.kind != .run ? " ('\(study.points[i].name)')" : ""
    }
}
