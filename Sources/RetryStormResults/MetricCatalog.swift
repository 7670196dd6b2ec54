
/// The catalogue of known metrics; unknown names get a neutral entry.
public enum MetricCatalog {
    static let known: [MetricInfo] = [
        MetricInfo(name: "clients", label: "clients", unit: "", kind: .count, better: .neither),
        MetricInfo(name: "operations", label: "operations", unit: "", kind: .count, better: .neither),
        MetricInfo(name: "attempts", label: "attempts", unit: "", kind: .count, better: .lower),
        MetricInfo(name: "amplification", label: "amplification", unit: "attempts/op", kind: .ratio, better: .lower),
        MetricInfo(name: "succeeded", label: "succeeded", unit: "operations", kind: .count, better: .higher),
        MetricInfo(name: "gave_up", label: "gave up", unit: "operations", kind: .count, better: .lower),
        MetricInfo(name: "blocked", label: "blocked", unit: "operations", kind: .count, better: .lower),
        MetricInfo(name: "peak_offered_per_s", label: "peak offered load", unit: "req/s", kind: .count, better: .lower),
        MetricInfo(name: "peak_load_ratio", label: "peak load / capacity", unit: "×", kind: .ratio, better: .lower),
        MetricInfo(name: "tts_mean_s", label: "time to success mean", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "tts_p50_s", label: "time to success p50", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "tts_p90_s", label: "time to success p90", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "tts_p99_s", label: "time to success p99", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "tts_p999_s", label: "time to success p99.9", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "tts_max_s", label: "time to success max", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "recovery_s", label: "recovery after outage", unit: "s", kind: .seconds, better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "wasted_fraction", label: "wasted work, share of served", unit: "", kind: .fraction, better: .lower),
        MetricInfo(name: "events", label: "events", unit: "", kind: .count, better: .neither),
        MetricInfo(name: "sim_end_s", label: "simulation end", unit: "s", kind: .seconds, better: .neither),
        MetricInfo(name: "unfinished", label: "unfinished at horizon", unit: "operations", kind: .count, better: .neither),
        MetricInfo(name: "first_attempts", label: "first attempts", unit: "", kind: .count, better: .neither),
        MetricInfo(name: "retries", label: "retries", unit: "", kind: .count, better: .lower),
        MetricInfo(name: "failed", label: "failed attempts", unit: "", kind: .count, better: .lower),
        MetricInfo(name: "timed_out", label: "timed-out attempts", unit: "", kind: .count, better: .lower),
        MetricInfo(name: "rejected", label: "rejected attempts", unit: "", kind: .count, better: .lower),
        MetricInfo(name: "offered", label: "offered attempts", unit: "", kind: .count, better: .neither),
        MetricInfo(name: "served", label: "served requests", unit: "", kind: .count, better: .neither),
        MetricInfo(name: "wasted", label: "wasted requests", unit: "", kind: .count, better: .lower),
        MetricInfo(name: "expired", label: "expired requests", unit: "", kind: .count, better: .neither),
        MetricInfo(name: "gave_up_fraction", label: "gave up, share of operations", unit: "", kind: .fraction, better: .lower),
        MetricInfo(name: "blocked_fraction", label: "blocked, share of operations", unit: "", kind: .fraction, better: .lower),
        MetricInfo(name: "incident_tts_p50_s", label: "time to success p50 in the incident", unit: "s", kind: .seconds,
                   better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "incident_tts_p99_s", label: "time to success p99 in the incident", unit: "s", kind: .seconds,
                   better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "incident_gave_up_fraction", label: "gave up in the incident, share", unit: "", kind: .fraction, better: .lower),
        MetricInfo(name: "peak_overload", label: "peak load / capacity at the time", unit: "×", kind: .ratio, better: .lower),
        MetricInfo(name: "recovered", label: "recovered (share of replications)", unit: "", kind: .fraction, better: .higher),
        MetricInfo(name: "recovery_after_trigger_s", label: "recovery after the trigger ended", unit: "s", kind: .seconds,
                   better: .lower, rewardsGivingUp: true),
        MetricInfo(name: "wait_mean_s", label: "mean wait in the queue", unit: "s", kind: .seconds, better: .lower),
        MetricInfo(name: "queue_mean", label: "mean queue length", unit: "requests", kind: .ratio, better: .neither),
    ]

    /// The entry for `name`; an unknown metric is shown by its name, as a ratio, judged neither way.
    public static func info(_ name: String) -> MetricInfo {
        known.first { $0.name == name }
            ?? MetricInfo(name: name, label: name, unit: name.hasSuffix("_s") ? "s" : "",
                          kind: name.hasSuffix("_s") ? .seconds : .ratio, better: .neither, range: name.hasSuffix("_s") ? nil : -Double.infinity...Double.infinity)
    }

    /// The metrics of the report's summary table, in order.
    package static let summaryRows = [
        "operations", "succeeded", "gave_up", "amplification", "peak_load_ratio", "tts_p50_s", "tts_p99_s",
        "tts_max_s", "recovery_s", "timed_out", "rejected", "wasted_fraction",
    ]
}
