import RetryStormEngine

/// One row of summary.csv: the summary metrics of one replication of one point, as written.
public struct SummaryRecord: Sendable, Equatable {
    public var variant: String
    public var replication: Int
    public var seed: UInt64
    public var clients: Int
    /// One value per ``metrics`` column, rounded as written (six decimals, or whole).
    public var values: [Double]

    /// A metric column: its name, format, and where its value comes from in a replication's summary.
    public struct Metric: Sendable {
        public let name: String
        public let format: ValueFormat
        let value: @Sendable (Summary) -> Double
    }

    /// The columns before the metrics.
    public static let keyColumns = ["variant", "replication", "seed", "clients"]

    /// The metric columns, in file order: the contract columns of DESIGN.md first, then the others.
    /// Declared once: the writer, the reader, the statistics and the docs test all use this list.
    public static let metrics: [Metric] = [
        .init(name: "operations", format: .whole) { Double($0.operations) },
        .init(name: "attempts", format: .whole) { Double($0.attempts) },
        .init(name: "amplification", format: .fixed(6)) { $0.amplification },
        .init(name: "succeeded", format: .whole) { Double($0.succeeded) },
        .init(name: "gave_up", format: .whole) { Double($0.gaveUp) },
        .init(name: "blocked", format: .whole) { Double($0.blocked) },
        .init(name: "peak_offered_per_s", format: .whole) { Double($0.peakOfferedPerSecond) },
        .init(name: "peak_load_ratio", format: .fixed(6)) { $0.peakLoadRatio },
        .init(name: "tts_mean_s", format: .fixed(6)) { $0.ttsMean },
        .init(name: "tts_p50_s", format: .fixed(6)) { $0.ttsP50 },
        .init(name: "tts_p90_s", format: .fixed(6)) { $0.ttsP90 },
        .init(name: "tts_p99_s", format: .fixed(6)) { $0.ttsP99 },
        .init(name: "tts_p999_s", format: .fixed(6)) { $0.ttsP999 },
        .init(name: "tts_max_s", format: .fixed(6)) { $0.ttsMax },
        .init(name: "recovery_s", format: .fixed(6)) { $0.recoverySeconds },
        .init(name: "wasted_fraction", format: .fixed(6)) { $0.wastedFraction },
        .init(name: "events", format: .whole) { Double($0.events) },
        .init(name: "sim_end_s", format: .fixed(6)) { $0.simEndSeconds },
        .init(name: "unfinished", format: .whole) { Double($0.unfinished) },
        .init(name: "first_attempts", format: .whole) { Double($0.firstAttempts) },
        .init(name: "retries", format: .whole) { Double($0.retries) },
        .init(name: "failed", format: .whole) { Double($0.failed) },
        .init(name: "timed_out", format: .whole) { Double($0.timedOut) },
        .init(name: "rejected", format: .whole) { Double($0.rejected) },
        .init(name: "offered", format: .whole) { Double($0.offered) },
        .init(name: "served", format: .whole) { Double($0.served) },
        .init(name: "wasted", format: .whole) { Double($0.wasted) },
        .init(name: "expired", format: .whole) { Double($0.expired) },
        .init(name: "offline", format: .whole) { Double($0.offline) },
        .init(name: "duplicates", format: .whole) { Double($0.duplicates) },
        .init(name: "queries", format: .whole) { Double($0.queries) },
        .init(name: "confirmed", format: .whole) { Double($0.confirmed) },
        .init(name: "abandoned", format: .whole) { Double($0.abandoned) },
        .init(name: "budget_denied", format: .whole) { Double($0.budgetDenied) },
        .init(name: "held_back", format: .whole) { Double($0.heldBack) },
        .init(name: "wait_mean_s", format: .fixed(6)) { $0.waitMeanSeconds },
        .init(name: "queue_mean", format: .fixed(6)) { $0.meanQueueLength },
        .init(name: "gave_up_fraction", format: .fixed(6)) { $0.gaveUpFraction },
        .init(name: "blocked_fraction", format: .fixed(6)) { $0.blockedFraction },
        .init(name: "incident_tts_p50_s", format: .fixed(6)) { $0.incidentTTSP50 },
        .init(name: "incident_tts_p99_s", format: .fixed(6)) { $0.incidentTTSP99 },
        .init(name: "incident_gave_up_fraction", format: .fixed(6)) { $0.incidentGaveUpFraction },
        .init(name: "peak_overload", format: .fixed(6)) { $0.peakOverload },
        .init(name: "recovered", format: .whole) { $0.recovered },
        .init(name: "recovery_after_trigger_s", format: .fixed(6)) { $0.recoveryAfterTriggerSeconds },
    ]

    /// Every column of summary.csv, in file order.
    public static let columns: [String] = keyColumns + metrics.map(\.name)
    /// The metric names, in file order.
    public static let metricNames: [String] = metrics.map(\.name)
    static let metricIndex: [String: Int] = Dictionary(uniqueKeysWithValues: metrics.enumerated().map { ($1.name, $0) })

    public init(variant: String, replication: Int, seed: UInt64, clients: Int, values: [Double]) {
        self.variant = variant
        self.replication = replication
        self.seed = seed
        self.clients = clients
        self.values = values
    }

    /// The row of replication `r`'s result at point `variant`, its values rounded as written.
    public init(_ r: ReplicationResult, variant: String, seed: UInt64) {
        self.init(variant: variant, replication: r.replication, seed: seed, clients: r.summary.clients,
                  values: Self.metrics.map { $0.format.rounded($0.value(r.summary)) })
    }

    /// The value of metric `name` (nil if there is no such column).
    public func value(_ name: String) -> Double? { Self.metricIndex[name].map { values[$0] } }

    /// The row's fields, in column order.
    package var fields: [String] {
        [variant, String(replication), String(seed), String(clients)] + zip(Self.metrics, values).map { $0.format.text($1) }
    }

    public static func == (a: SummaryRecord, b: SummaryRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && a.seed == b.seed && a.clients == b.clients
            && sameNumbers(a.values, b.values)
    }
}
