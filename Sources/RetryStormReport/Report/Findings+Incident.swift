import GSLSupport
import RetryStormEngine
import RetryStormResults
import SVGCharts

/// The report's words about the incident as it happened (issue 26): when the server recovered,
/// said against the trigger windows read from the data (a recovery before the trigger ended says
/// when, and how far the trigger still was, not "0 s after"); the mean load over the incident
/// next to the one-bucket peak; losses that concentrate in a run's first seconds (policies that
/// start cold); a horizon too short to see the incident and its recovery.
extension Findings {
    /// The findings of this file for a study of several points: the cold start and the horizon.
    static func incidentSentences(_ d: ReportData) -> [String] {
        [stuck(d), coldStart(d), horizon(d)].compactMap { $0 }
    }

    /// Whether any point was stuck at the horizon (``Metric/stuck``), with P(stuck) and its 95%
    /// Wilson interval: "no-backoff was stuck at the horizon in 5 of 5 replications (P(stuck)
    /// 100%, 95% CI [56.6%, 100%]): in the run's last 20 s, after the outage ended, users' goodput
    /// was still under half of what they started (…). None of the others was (P(stuck) at most
    /// 43.4%)." With no
    /// point stuck after a trigger, the bound alone; nil when it was not judged, or without a
    /// trigger and with nothing stuck.
    static func stuck(_ d: ReportData) -> String? {
        let judged = d.order.compactMap { p in d.interval(p, .stuck).flatMap { $0.mean.isNaN ? nil : (p, $0) } }
        guard !judged.isEmpty else { return nil }
        let stuck = judged.filter { $0.1.mean > 0 }
        let window = HumanNumber(.significant(3), trimsTrailingZeros: true).format(Double(d.run.scenario.base.stuckWindow) / 1e9)
        let trigger = d.run.scenario.base.trigger != nil
        guard !stuck.isEmpty || trigger else { return nil }
        // "the outage ended", "the load spike ended": as the recovery sentence names the trigger.
        let ended = ChartContext(run: d.run).trigger.ended
        func bound(_ cis: [ConfidenceInterval]) -> String { NumberFormat.percent(cis.map(\.high).max() ?? .nan) }
        if stuck.isEmpty {
            let replications = judged.map(\.1.count).max() ?? 0
            let who = d.names.count > 1 ? (replications > 1 ? "No replication of any point was" : "No point was") : "The run was not"
            let bounded = replications > 1 ? " (P(stuck) at most \(bound(judged.map(\.1))), 95% Wilson interval)" : ""
            return
                "\(who) stuck at the horizon\(bounded): in the run's last \(window) s, after \(ended), users' goodput was at least half of what they started."
        }
        // A grid (a map's) gets a count, not a list: its picture says where.
        if stuck.count > 4 {
            let most = stuck.filter { $0.1.mean >= 0.5 }.count
            return
                "\(stuck.count) of \(judged.count) points were stuck at the horizon in at least one replication, \(most) of them in most (P(stuck) ≥ 50%)\(d.run.results.isMap ? "; the map draws where" : "")."
        }
        let parts = stuck.map { p, ci in
            let k = Int((ci.mean * Double(ci.count)).rounded())
            let name = d.names.count > 1 ? "\(d.names[p]) was" : "The run was"
            let interval =
                ci.count > 1
                ? " (P(stuck) \(NumberFormat.percent(ci.mean)), 95% CI [\(NumberFormat.percent(ci.low)), \(NumberFormat.percent(ci.high))])" : ""
            return "\(name) stuck at the horizon in \(k) of \(ci.count) replication\(ci.count == 1 ? "" : "s")\(interval)"
        }
        let after = "in the run's last \(window) s," + (trigger ? " after \(ended)," : "")
        let graph = d.run.scenario.base.isCallGraph ? ", or a service's queue was full or its goodput under half of what it was sent" : ""
        var s =
            ReportData.list(parts)
            + ": \(after) users' goodput was still under half of what they started\(graph) (a metastable failure: the retries sustain it)."
        let others = judged.filter { $0.1.mean == 0 }
        if !others.isEmpty && stuck.count < judged.count {
            s += " None of the others was (P(stuck) at most \(bound(others.map(\.1))))."
        }
        return s
    }

    /// "The server recovered 12 s after the trigger ended.", or, when it recovered before the
    /// trigger ended, "The server recovered at 212 s, while the load was still 1.2× its base
    /// (the trigger ended at 260 s)."; nil without a trigger.
    static func recoverySentence(_ d: ReportData) -> String? {
        guard let recovered = d.interval(0, .recovered), !recovered.mean.isNaN,
            let after = d.interval(0, .recoveryAfterTrigger), !after.mean.isNaN
        else { return nil }
        let r = recovered.count
        let k = Int((recovered.mean * Double(r)).rounded())
        let ended = ChartContext(run: d.run).trigger.ended
        let replications = r > 1 ? " in \(k) of \(r) replications" : ""
        if k == 0 && r == 1 { return "The server did not recover before the end of the run." }
        if k == r, let recovery = d.interval(0, .recovery), recovery.mean == 0 {
            // No bucket failed (beyond the rate before the trigger) in any replication.
            return "Clients saw no more failures than before the trigger\(r > 1 ? ", in every replication" : ""): there was nothing to recover from."
        }
        // Every replication recovered before the trigger ended: say when, not "0 s after".
        if k == r, after.mean == 0, let during = recoveredDuring(d, average: r > 1) {
            return "The server recovered\(replications)\(r > 1 ? "," : "") \(during)."
        }
        let when = after.mean.isFinite ? ", \(d.quote(0, .recoveryAfterTrigger)) after \(ended)" : ""
        return "The server recovered\(replications)\(when)."
    }

    /// "at 212 s, while the load was still 1.2× its base (the trigger ended at 260 s)" when the
    /// mean recovery came before the trigger's end; nil otherwise (or without the scenario's trigger).
    static func recoveredDuring(_ d: ReportData, average: Bool = false) -> String? {
        let scenario = d.run.scenario.base
        guard let trigger = scenario.trigger, let recovery = d.interval(0, .recovery)?.mean, recovery.isFinite else { return nil }
        let end = min(trigger.end, scenario.horizon)
        let at = Double(trigger.start) / 1e9 + recovery
        let atNs = Int64((at * 1e9).rounded())
        guard atNs < end else { return nil }
        let number = HumanNumber(.significant(3), trimsTrailingZeros: true)
        var state: [String] = []
        // The trigger windows it recovered in: capacity below nominal, the load above its base, the error window.
        let fraction = scenario.server.profile.fraction(at: atNs)
        if fraction < 1 { state.append("capacity was still \(NumberFormat.percent(fraction)) of nominal") }
        let multiplier = scenario.load.multiplier(at: atNs)
        if multiplier > 1 { state.append("the load was still \(number.format(multiplier))× its base") }
        if let errors = scenario.server.errorWindow, errors.contains(atNs) { state.append("the error window was still on") }
        var s = "at \(number.format(at)) s\(average ? " on average" : "")"
        s += state.isEmpty ? ", before the trigger ended" : ", while \(ReportData.list(state))"
        return s + " (the trigger ended at \(number.format(Double(end) / 1e9)) s)"
    }

    /// Losses are concentrated at the start when, with no warmup, at least half of the operations
    /// a variant gave up (or had blocked) did so in its first ``coldStartShare`` of the horizon,
    /// before any trigger began, and they are at least 0.1% of its operations.
    static let coldStartShare = 0.1

    /// "62.5% of the operations lost were lost in the run's first 29 s, before any trigger: …", or
    /// for several variants "Losses concentrate in the first seconds, before any trigger (fast 93%
    /// in its first 24 s): …"; nil when no variant's losses concentrate at the start.
    static func coldStart(_ d: ReportData) -> String? {
        let scenario = d.run.scenario.base
        guard scenario.warmup == 0 else { return nil }
        var cold: [(name: String, share: Double, seconds: Double)] = []
        for series in d.run.timeSeries {
            let s = d.run.scenario.variants.first { $0.name == series.variant }?.scenario ?? scenario
            // A warmup set with --set (scenario.yaml is the file as given): summary.csv then counts
            // fewer operations than the time series, which keep every bucket.
            let recorded = series.mean(.operations).reduce(0, +)
            if let counted = d.run.metrics.interval(series.variant, .operations)?.mean, counted < recorded - 0.5 { continue }
            guard let share = coldShare(series, scenario: s) else { continue }
            cold.append((series.variant, share.share, share.seconds))
        }
        guard !cold.isEmpty else { return nil }
        let number = HumanNumber(.significant(2), trimsTrailingZeros: true)
        let seconds = cold.map(\.seconds).max() ?? 0
        let advice =
            "policies start cold (a retry budget or a throttle starts empty), and the first seconds are not the steady state; warmup: \(Int(seconds.rounded(.up)))s leaves them out of every metric."
        if d.names.count == 1, let c = cold.first {
            return
                "\(NumberFormat.percent(c.share)) of the operations lost were lost in the run's first \(number.format(c.seconds)) s, before any trigger: "
                + advice
        }
        let parts = cold.prefix(4).map { "\($0.name) \(NumberFormat.percent($0.share)) in its first \(number.format($0.seconds)) s" }
        return "Losses concentrate in the first seconds, before any trigger (\(ReportData.list(Array(parts)))): " + advice
    }

    /// The share of `series`' losses (gave up and blocked) in its first seconds, and those seconds
    /// (the end of the bucket by which that share was reached), when they are concentrated there.
    static func coldShare(_ series: VariantTimeSeries, scenario: Scenario) -> (share: Double, seconds: Double)? {
        let gaveUp = series.mean(.gaveUp)
        let blocked = series.mean(.blocked)
        let operations = series.mean(.operations).reduce(0, +)
        let lost = zip(gaveUp, blocked).map(+)
        let total = lost.reduce(0, +)
        guard total > 0, total >= 0.001 * operations else { return nil }
        let horizon = Double(scenario.horizon) / 1e9
        let start = scenario.trigger.map { Double($0.start) / 1e9 } ?? horizon
        let cut = min(start, coldStartShare * horizon)
        var early = 0.0
        var last = 0.0
        for (t, x) in zip(series.times, lost) where t + series.bucketSeconds <= cut {
            early += x
            if x > 0 { last = t + series.bucketSeconds }
        }
        guard early >= 0.5 * total else { return nil }
        return (early / total, last)
    }

    /// The horizon warning (``Scenario/horizonWarning``) as a finding.
    static func horizon(_ d: ReportData) -> String? {
        d.run.scenario.base.horizonWarning.map { "Warning: \($0)." }
    }
}
