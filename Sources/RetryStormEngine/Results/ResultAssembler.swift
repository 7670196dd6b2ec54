import GSLSupport
import RetryPolicy

/// Turns what a finished replication recorded into its ``ReplicationResult``: the time series
/// with each bucket's mean capacity, the ``Summary`` (totals, time-to-success percentiles, peak
/// load, recovery, the incident's metrics) and each population's ``PopulationResult``.
///
/// Runs once per replication, after the event loop has stopped (``Simulation/result(_:replication:)``
/// hands it what only the loop knows); nothing here is on the hot path. It reads the recorders and
/// leaves them as they were, but for the times to success, which it sorts in place once each
/// population's and the incident's have been picked out in the order they were recorded.
struct ResultAssembler {
    let scenario: Scenario
    let replication: Int
    /// When the run ended, nanoseconds: when nothing was left to happen, or the horizon.
    let end: Int64
    /// Events the loop handled, attempt outcomes settled ahead included.
    let events: Int64
    /// The server's ∫ queue length dt up to ``end``, request·seconds, and the requests it admitted.
    let waitingArea: Double
    let admitted: Int64
    /// A broken conservation law, when the run checked them.
    let violation: String?
    /// The run stopped at ``EngineOptions/maxEvents`` before its horizon.
    let eventLimitReached: Bool
    /// A service of the call graph other than the first was still saturated at the horizon
    /// (``Recovery/saturated``): the run has not recovered, whatever its clients saw.
    var saturatedDownstream = false
    /// A service of the call graph is stuck at the horizon (1), none is (0), or the run ends too
    /// soon after its trigger to tell (NaN): the run is stuck if its users are or a service is.
    var stuckDownstream = 0.0

    var horizon: Int64 { scenario.horizon }

    /// `server`'s mean capacity over each bucket, requests per second.
    static func capacityPerBucket(_ server: Scenario.Server, buckets nb: Int, bucket: Int64, horizon: Int64) -> [Double] {
        (0..<nb).map { b -> Double in
            let a = Int64(b) * bucket
            let e = min(a + bucket, horizon)
            return e > a ? server.capacity * server.profile.integral(from: a, to: e) / (Double(e - a) / 1e9) : server.capacity
        }
    }

    /// The most requests that reached the server in one whole second after the `warmup`.
    static func peakPerSecond(_ recorder: borrowing Recorder, warmup: Int64) -> Int64 {
        var peak: Int64 = 0
        let firstSecond = Int((warmup + 999_999_999) / 1_000_000_000)
        for i in 0..<recorder.offeredPerSecond.count where i >= firstSecond { peak = max(peak, recorder.offeredPerSecond[i]) }
        return peak
    }

    /// The replication's outputs.
    /// - Parameter populations: each population's client range (empty without populations).
    func result(
        _ recorder: borrowing Recorder, _ populationRecorder: borrowing PopulationRecorder,
        populations: [PopulationParameters]
    ) -> ReplicationResult {
        let width = Counter.allCases.count
        let nb = recorder.buckets
        var counts = [Int64](repeating: 0, count: nb * width)
        for i in 0..<(nb * width) { counts[i] = recorder.counts[i] }
        let queue = (0..<nb).map { recorder.queueAtEnd[$0] }
        let capacity = Self.capacityPerBucket(scenario.server, buckets: nb, bucket: recorder.bucket, horizon: horizon)
        // The warmup's buckets (those that start before it) are left out of every summary metric.
        let warm = scenario.firstBucketAfterWarmup(of: nb)
        let peak = Self.peakPerSecond(recorder, warmup: scenario.warmup)

        // The incident's successes are picked out before the sort reorders them.
        let trigger = scenario.trigger
        var recovery = Recovery(
            counts: counts, queueAtEnd: queue, queueLimit: scenario.server.queueLimit, bucket: recorder.bucket,
            trigger: trigger, warm: warm, window: scenario.recoveryWindow)
        // A service behind the first still saturated at the horizon: the storm is not over.
        if saturatedDownstream { recovery = recovery.never }
        let incident = trigger.map { trigger in
            Incident(
                start: max(trigger.start, Int64(warm) * recorder.bucket), end: min(trigger.end, horizon),
                healthy: recovery.healthyBucket, count: recorder.buckets, width: recorder.bucket)
        }
        var incidentTimes: [Double] = []
        // Operations started in the incident window: the survival view's denominator there.
        let incidentStarted = incident.map { w in
            w.buckets.reduce(0) { $0 + Int(recorder.counts[$1 &* width &+ Counter.operations.rawValue]) }
        }
        if let incident {
            for i in 0..<recorder.timesToSuccess.count where incident.buckets.contains(Int(recorder.successStartBuckets[i])) {
                incidentTimes.append(recorder.timesToSuccess[i])
            }
            incidentTimes.withUnsafeMutableBufferPointer { Statistics.sort($0) }
        }
        // Per population, from the times to success in the order they were recorded.
        let byPopulation = populationResults(recorder, populationRecorder, populations: populations, incident: incident, from: warm)
        // After a warmup, only the operations that started after it, moved to the front (the
        // buffer is sorted in place below either way).
        var kept = recorder.timesToSuccess.count
        if warm > 0 {
            kept = 0
            for i in 0..<recorder.timesToSuccess.count where Int(recorder.successStartBuckets[i]) >= warm {
                recorder.timesToSuccess.base[kept] = recorder.timesToSuccess[i]
                kept += 1
            }
        }
        let tts = UnsafeMutableBufferPointer(start: recorder.timesToSuccess.base, count: kept)
        Statistics.sort(tts)
        let sorted = UnsafeBufferPointer(tts)
        let quantiles = sorted.isEmpty ? [] : (0...1000).map { Statistics.quantile(sorted: sorted, Double($0) / 1000) }

        func total(_ c: Counter) -> Int64 {
            guard warm > 0 else { return recorder.total(c) }
            var s: Int64 = 0
            for b in warm..<nb { s &+= recorder.counts[b &* width &+ c.rawValue] }
            return s
        }
        // How the operations ended: after a warmup, those that started after it (by start bucket).
        let gaveUp = warm > 0 ? total(.gaveUpByStart) : total(.gaveUp)
        let blocked = warm > 0 ? total(.blockedByStart) : total(.blocked)
        let confirmed = warm > 0 ? total(.confirmedByStart) : total(.confirmed)
        let succeeded = warm > 0 ? Int64(sorted.count) - confirmed : total(.succeeded)
        let attempts = total(.firstAttempts) + total(.retries)
        let ops = total(.operations)
        let all = Int(ops)
        let finished = succeeded + confirmed + gaveUp + blocked
        var summary = Summary(
            clients: scenario.clients.count,
            operations: ops,
            attempts: attempts,
            firstAttempts: total(.firstAttempts),
            retries: total(.retries),
            amplification: ops > 0 ? Double(attempts) / Double(ops) : .nan,
            succeeded: succeeded,
            gaveUp: gaveUp,
            blocked: blocked,
            unfinished: ops - finished,
            failed: total(.failed),
            timedOut: total(.timedOut),
            rejected: total(.rejected),
            offered: total(.offered),
            served: total(.served),
            wasted: total(.wasted),
            expired: total(.expired),
            offline: total(.offline),
            duplicates: total(.duplicates),
            queries: total(.queries),
            confirmed: confirmed,
            abandoned: total(.abandoned),
            budgetDenied: total(.budgetDenied),
            heldBack: total(.heldBack),
            waitMeanSeconds: admitted > 0 ? waitingArea / Double(admitted) : .nan,
            peakOfferedPerSecond: peak,
            peakLoadRatio: Double(peak) / scenario.server.capacity,
            ttsMean: Statistics.survivalMean(sorted, total: all),
            ttsP50: Statistics.survivalQuantile(sorted: sorted, total: all, 0.5),
            ttsP90: Statistics.survivalQuantile(sorted: sorted, total: all, 0.9),
            ttsP99: Statistics.survivalQuantile(sorted: sorted, total: all, 0.99),
            ttsP999: Statistics.survivalQuantile(sorted: sorted, total: all, 0.999),
            ttsMax: Statistics.survivalQuantile(sorted: sorted, total: all, 1),
            ttsSuccessMean: Statistics.mean(sorted),
            ttsSuccessP50: Statistics.quantile(sorted: sorted, 0.5),
            ttsSuccessP90: Statistics.quantile(sorted: sorted, 0.9),
            ttsSuccessP99: Statistics.quantile(sorted: sorted, 0.99),
            ttsSuccessP999: Statistics.quantile(sorted: sorted, 0.999),
            ttsSuccessMax: sorted.last ?? .nan,
            recoverySeconds: recovery.seconds,
            wastedFraction: total(.served) > 0 ? Double(total(.wasted)) / Double(total(.served)) : 0,
            events: events,
            simEndSeconds: Double(end) / 1e9,
            meanQueueLength: waitingArea / (Double(horizon) / 1e9),
            gaveUpFraction: Double(gaveUp) / Double(ops),
            blockedFraction: Double(blocked) / Double(ops),
            unfinishedFraction: Double(ops - finished) / Double(ops),
            incidentTTSP50: incidentStarted.map { Statistics.survivalQuantile(sorted: incidentTimes, total: $0, 0.5) } ?? .nan,
            incidentTTSP99: incidentStarted.map { Statistics.survivalQuantile(sorted: incidentTimes, total: $0, 0.99) } ?? .nan,
            incidentTTSSuccessP50: Statistics.quantile(sorted: incidentTimes, 0.5),
            incidentTTSSuccessP99: Statistics.quantile(sorted: incidentTimes, 0.99),
            incidentGaveUpFraction: incident.map { w in
                let gaveUp = w.buckets.reduce(Int64(0)) { $0 + recorder.counts[$1 &* width &+ Counter.gaveUpByStart.rawValue] }
                return Double(gaveUp) / Double(incidentStarted ?? 0)
            } ?? .nan,
            peakOverload: peakOverload(recorder, capacity, from: warm),
            recovered: recovery.recovered,
            recoveryAfterTriggerSeconds: trigger.map { trigger in
                guard recovery.seconds.isFinite else { return .infinity }
                let healthyAt = Double(trigger.start) / 1e9 + recovery.seconds
                return max(0, healthyAt - Double(min(trigger.end, horizon)) / 1e9)
            } ?? .nan,
            incidentLoadRatio: incident.map { incidentLoad(recorder, capacity, $0) } ?? .nan)
        summary.retriesRefused = recorder.retriesRefused
        let users = Stuck.users(counts: counts, tail: scenario.stuckTail(of: nb))
        summary.stuck = users.isNaN ? users : max(users, stuckDownstream)
        var result = ReplicationResult(
            replication: replication, bucket: recorder.bucket, counts: counts, queueAtEnd: queue,
            capacityPerSecond: capacity, summary: summary, ttsQuantiles: quantiles, invariantViolation: violation,
            eventLimitReached: eventLimitReached)
        result.populations = byPopulation
        result.incident = incident?.buckets
        return result
    }

    /// See ``Summary/incidentLoadRatio``: the attempts that reached the server in the incident's
    /// buckets over the capacity those buckets had (capacity per second × the bucket's seconds).
    func incidentLoad(_ recorder: borrowing Recorder, _ capacity: [Double], _ incident: Incident) -> Double {
        var offered = 0.0
        var available = 0.0
        for b in incident.buckets {
            let a = Int64(b) * recorder.bucket
            let seconds = Double(min(a + recorder.bucket, horizon) - a) / 1e9
            offered += Double(recorder.counts[b &* Counter.allCases.count &+ Counter.offered.rawValue])
            available += capacity[b] * seconds
        }
        return available > 0 ? offered / available : .nan
    }

    /// See ``Summary/peakOverload``: offered attempts per second of each bucket over its mean
    /// capacity, from bucket `from` (after the warmup).
    func peakOverload(_ recorder: borrowing Recorder, _ capacity: [Double], from warm: Int = 0) -> Double {
        var peak = Double.nan
        for b in warm..<max(warm, recorder.buckets) {
            let a = Int64(b) * recorder.bucket
            let seconds = Double(min(a + recorder.bucket, horizon) - a) / 1e9
            guard capacity[b] > 0, seconds > 0 else { continue }
            let load = Double(recorder.counts[b &* Counter.allCases.count &+ Counter.offered.rawValue]) / seconds / capacity[b]
            if !(load <= peak) { peak = load }
        }
        return peak
    }

    /// Each population's results, from the counts and the times to success in the order they were
    /// recorded (before the fleet's are sorted). Empty without populations.
    /// - Parameters:
    ///   - incident: the incident's buckets, when there is a trigger.
    ///   - warm: the first bucket after the warmup: the operations that started before it, and
    ///     the attempts in earlier buckets, are left out (as the fleet's summary leaves them out).
    func populationResults(
        _ recorder: borrowing Recorder, _ populationRecorder: borrowing PopulationRecorder,
        populations: [PopulationParameters], incident: Incident?, from warm: Int = 0
    ) -> [PopulationResult] {
        guard !populations.isEmpty else { return [] }
        var times = [[Double]](repeating: [], count: populations.count)
        var incidentTimes = [[Double]](repeating: [], count: populations.count)
        for i in 0..<recorder.timesToSuccess.count {
            let k = Int(populationRecorder.successPopulation[i])
            if Int(recorder.successStartBuckets[i]) >= warm { times[k].append(recorder.timesToSuccess[i]) }
            if let incident, incident.buckets.contains(Int(recorder.successStartBuckets[i])) {
                incidentTimes[k].append(recorder.timesToSuccess[i])
            }
        }
        var out: [PopulationResult] = []
        for k in scenario.populations.indices {
            var totals = [Int64](repeating: 0, count: PopulationRecorder.width)
            var offered = [Int64](repeating: 0, count: populationRecorder.buckets)
            var incidentStarted: Int64 = 0
            var incidentGaveUp: Int64 = 0
            for b in 0..<populationRecorder.buckets {
                if b >= warm {
                    for c in PopulationRecorder.Counter.allCases { totals[c.rawValue] += populationRecorder.count(c, population: k, bucket: b) }
                }
                offered[b] = populationRecorder.count(.offered, population: k, bucket: b)
                if let incident, incident.buckets.contains(b) {
                    incidentStarted += populationRecorder.count(.operations, population: k, bucket: b)
                    incidentGaveUp += populationRecorder.count(.gaveUpByStart, population: k, bucket: b)
                }
            }
            Statistics.sort(&times[k])
            Statistics.sort(&incidentTimes[k])
            let operations = Int(totals[PopulationRecorder.Counter.operations.rawValue])
            // After a warmup, how the operations that started after it ended (by start bucket).
            let succeeded = warm > 0 ? Int64(times[k].count) : totals[PopulationRecorder.Counter.succeeded.rawValue]
            let gaveUp = totals[(warm > 0 ? PopulationRecorder.Counter.gaveUpByStart : .gaveUp).rawValue]
            var result = PopulationResult(
                name: scenario.populations[k].name, clients: populations[k].clients,
                operations: totals[PopulationRecorder.Counter.operations.rawValue],
                succeeded: succeeded,
                gaveUp: gaveUp,
                attempts: totals[PopulationRecorder.Counter.attempts.rawValue],
                ttsP50: Statistics.survivalQuantile(sorted: times[k], total: operations, 0.5),
                ttsP99: Statistics.survivalQuantile(sorted: times[k], total: operations, 0.99),
                ttsSuccessP50: Statistics.quantile(sorted: times[k], 0.5),
                ttsSuccessP99: Statistics.quantile(sorted: times[k], 0.99),
                incidentTTSP50: incident != nil
                    ? Statistics.survivalQuantile(sorted: incidentTimes[k], total: Int(incidentStarted), 0.5) : .nan,
                incidentTTSP99: incident != nil
                    ? Statistics.survivalQuantile(sorted: incidentTimes[k], total: Int(incidentStarted), 0.99) : .nan,
                incidentTTSSuccessP50: Statistics.quantile(sorted: incidentTimes[k], 0.5),
                incidentTTSSuccessP99: Statistics.quantile(sorted: incidentTimes[k], 0.99),
                incidentGaveUpFraction: incident != nil ? Double(incidentGaveUp) / Double(incidentStarted) : .nan,
                offered: offered)
            func total(_ c: PopulationRecorder.Total) -> Int64 { populationRecorder.total(c, population: k) }
            result.blocked = total(.blocked)
            result.unfinished = result.operations - result.succeeded - result.gaveUp - result.blocked
            result.offeredTotal = offered[min(warm, offered.count)...].reduce(0, +)
            result.stuck =
                scenario.stuckTail(of: populationRecorder.buckets).map { tail in
                    var started: Int64 = 0
                    var succeeded: Int64 = 0
                    for b in tail {
                        started += populationRecorder.count(.operations, population: k, bucket: b)
                        succeeded += populationRecorder.count(.succeeded, population: k, bucket: b)
                    }
                    return Stuck.users(started: started, succeeded: succeeded)
                } ?? .nan
            result.retries = total(.retries)
            result.budgetDenied = total(.budgetDenied)
            result.retriesRefused = total(.retriesRefused)
            result.heldBack = total(.heldBack)
            result.failed = total(.failed)
            result.timedOut = total(.timedOut)
            result.rejected = total(.rejected)
            result.offline = total(.offline)
            result.abandoned = total(.abandoned)
            result.duplicates = total(.duplicates)
            result.queries = total(.queries)
            result.confirmed = total(.confirmed)
            result.ttsMean = times[k].withUnsafeBufferPointer { Statistics.survivalMean($0, total: operations) }
            result.ttsP90 = Statistics.survivalQuantile(sorted: times[k], total: operations, 0.9)
            result.ttsP999 = Statistics.survivalQuantile(sorted: times[k], total: operations, 0.999)
            result.ttsMax = Statistics.survivalQuantile(sorted: times[k], total: operations, 1)
            result.ttsSuccessMean = Statistics.mean(times[k])
            result.ttsSuccessP90 = Statistics.quantile(sorted: times[k], 0.9)
            result.ttsSuccessP999 = Statistics.quantile(sorted: times[k], 0.999)
            result.ttsSuccessMax = times[k].last ?? .nan
            out.append(result)
        }
        return out
    }
}
