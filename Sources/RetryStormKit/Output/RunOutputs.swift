import RetryStormEngine

/// The contract CSVs of DESIGN.md: timeseries.csv and summary.csv, one row per (variant,
/// replication, bucket) and per (variant, replication).
public enum RunOutputs {
    /// Contract columns first, then extra columns (documented in the README).
    public static let timeseriesColumns = [
        "variant", "replication", "t_s", "capacity_per_s", "offered", "first_attempts", "retries", "served",
        "succeeded", "failed", "timed_out", "rejected", "wasted", "queue_len", "gave_up",
        "blocked", "expired", "operations", "offline", "duplicates", "queries", "confirmed", "abandoned",
        "budget_denied", "held_back",
    ]

    public static let summaryColumns = [
        "variant", "replication", "seed", "clients", "operations", "attempts", "amplification", "succeeded",
        "gave_up", "blocked", "peak_offered_per_s", "peak_load_ratio", "tts_mean_s", "tts_p50_s", "tts_p90_s",
        "tts_p99_s", "tts_p999_s", "tts_max_s", "recovery_s", "wasted_fraction", "events", "sim_end_s",
        "unfinished", "first_attempts", "retries", "failed", "timed_out", "rejected", "offered", "served",
        "wasted", "expired", "offline", "duplicates", "queries", "confirmed", "abandoned", "budget_denied", "held_back",
        "wait_mean_s", "queue_mean", "gave_up_fraction", "blocked_fraction", "incident_tts_p50_s", "incident_tts_p99_s",
        "incident_gave_up_fraction", "peak_overload", "recovered", "recovery_after_trigger_s",
    ]

    /// Counters of the time series, after the fixed columns, in column order.
    static let seriesCounters: [Counter] = [
        .offered, .firstAttempts, .retries, .served, .succeeded, .failed, .timedOut, .rejected, .wasted,
    ]
    static let trailingCounters: [Counter] = [.gaveUp, .blocked, .expired, .operations, .offline, .duplicates, .queries, .confirmed, .abandoned, .budgetDenied, .heldBack]

    public static func appendTimeseries(_ r: ReplicationResult, variant: String, to table: inout CSVTable) {
        for b in 0..<r.buckets {
            var row = [variant, String(r.replication), Format.fixed(Double(Int64(b) * r.bucket) / 1e9, 3),
                       Format.fixed(r.capacityPerSecond[b], 3)]
            for c in seriesCounters { row.append(String(r.count(c, bucket: b))) }
            row.append(String(r.queueAtEnd[b]))
            for c in trailingCounters { row.append(String(r.count(c, bucket: b))) }
            table.append(row)
        }
    }

    /// The distribution of time-to-success: 1001 quantiles (0, 0.001, …, 1) per (variant, replication).
    public static let ttsQuantileColumns = ["variant", "replication", "quantile", "tts_s"]

    public static func appendTTSQuantiles(_ r: ReplicationResult, variant: String, to table: inout CSVTable) {
        for (i, q) in r.ttsQuantiles.enumerated() {
            table.append([variant, String(r.replication), Format.fixed(Double(i) / 1000, 3), Format.fixed(q, 6)])
        }
    }

    public static func appendSummary(_ r: ReplicationResult, variant: String, seed: UInt64, to table: inout CSVTable) {
        let s = r.summary
        let t = { (x: Double) in Format.fixed(x, 6) }
        table.append([
            variant, String(r.replication), String(seed), String(s.clients), String(s.operations), String(s.attempts),
            t(s.amplification), String(s.succeeded), String(s.gaveUp), String(s.blocked),
            String(s.peakOfferedPerSecond), t(s.peakLoadRatio), t(s.ttsMean), t(s.ttsP50), t(s.ttsP90),
            t(s.ttsP99), t(s.ttsP999), t(s.ttsMax), t(s.recoverySeconds), t(s.wastedFraction), String(s.events),
            t(s.simEndSeconds), String(s.unfinished), String(s.firstAttempts), String(s.retries), String(s.failed),
            String(s.timedOut), String(s.rejected), String(s.offered), String(s.served), String(s.wasted),
            String(s.expired), String(s.offline), String(s.duplicates), String(s.queries), String(s.confirmed),
            String(s.abandoned), String(s.budgetDenied), String(s.heldBack), t(s.waitMeanSeconds), t(s.meanQueueLength),
            t(s.gaveUpFraction), t(s.blockedFraction), t(s.incidentTTSP50), t(s.incidentTTSP99), t(s.incidentGaveUpFraction),
            t(s.peakOverload), String(Int(s.recovered)), t(s.recoveryAfterTriggerSeconds),
        ])
    }
}
