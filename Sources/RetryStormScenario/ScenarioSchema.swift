import RetryPolicy
import RetryStormVocabulary

/// Every key of the scenario format. Sections are split by file (`ScenarioSchema+Clients.swift`,
/// `+Load.swift`, `+Server.swift`, `+Policy.swift`); this file holds the top-level keys and the lookups.
package enum ScenarioSchema {
    package static let fields: [Field] = topLevel + clients + load + server + policy

    package static let byPath: [String: Field] = Dictionary(uniqueKeysWithValues: fields.map { ($0.path, $0) })

    /// Paths of mappings that hold fields (`clients`, `server.queue`, …).
    static let sections: Set<String> = {
        var s = Set<String>()
        for f in fields {
            var parts = f.path.split(separator: ".").dropLast()
            while !parts.isEmpty {
                s.insert(parts.joined(separator: "."))
                parts = parts.dropLast()
            }
        }
        return s
    }()

    /// Whether `path` is a population's or a service's key (or declaration), not one of the
    /// scenario's own.
    static func isScoped(_ path: String) -> Bool { path.hasPrefix(populationPrefix) || path.hasPrefix(servicePrefix) }

    /// The longest horizon, which is the longest duration of every key (``InputBounds``).
    static let maxHorizon: Nanoseconds = InputBounds.maxDuration

    /// The largest count of any key (clients, queue places, tokens, requests in flight).
    static let maxCount = InputBounds.maxCount

    static let topLevel: [Field] = [
        Field("name", .text, "", "A label for outputs; defaults to the file's name without extension.") { d, v in d.name = v.string },
        Field("description", .text, "", "Free text: the question the scenario answers.") { d, v in d.description = v.string },
        Field(
            "seed", .integer(min: 0, max: Int.max), "1",
            "The scenario seed. With the replication index it seeds every random stream; `--seed` overrides it."
        ) { d, v in
            d.seed = UInt64(v.int)
        },
        Field(
            "horizon", .duration(min: 1_000_000, max: maxHorizon, allowsNone: false), "600s",
            "Hard stop of simulated time: the run ends here whatever is still pending."
        ) { d, v in d.horizon = v.nanoseconds ?? 0 },
        Field(
            "bucket", .duration(min: 1_000_000, max: maxHorizon, allowsNone: false), "1s",
            "Width of one time-series bucket (one row of timeseries.csv per bucket)."
        ) { d, v in d.bucket = v.nanoseconds ?? 0 },
        Field(
            "warmup", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "Time at the start left out of every summary metric: what happened in it and the operations that started in it (budgets and throttles start empty; the time series keep it). 0s: nothing left out."
        ) { d, v in d.warmup = v.nanoseconds ?? 0 },
        Field(
            "recovery_window", .duration(min: 1_000_000, max: maxHorizon, allowsNone: false), "10s",
            "How long failures above the pre-trigger baseline must last to hold the recovery back (a stray failure does not), and how much of the run's end, after the trigger, is read for saturation: a queue full throughout, or goodput short of what arrives. Rounded up to whole buckets."
        ) { d, v in d.recoveryWindow = v.nanoseconds ?? 0 },
        Field(
            "stuck_window", .duration(min: 1_000_000, max: maxHorizon, allowsNone: false), "20s",
            "How much of the run's end is read to judge whether it is stuck (`stuck` in summary.csv): it must lie wholly after the trigger's end, and the run is stuck when the operations that succeed in it fall short of half of those started (a service: its queue full throughout, or its goodput under half of what its callers send). A run that ends sooner after its trigger is not judged (`nan`). Rounded up to whole buckets."
        ) { d, v in d.stuckWindow = v.nanoseconds ?? 0 },
        Field(
            "focus", .text, "",
            "A call graph's focus: the service whose load the table, the best marks, the findings and the charts weigh beside the users' outcomes. Empty: where the storm lands, the service whose offered load over its capacity peaks highest. One per study: `--focus` overrides it; variants, `--vary` and `--grid` cannot set it."
        ) { d, v in d.focus = v.string }
    ]
}
