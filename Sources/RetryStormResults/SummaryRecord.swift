import RetryStormEngine

/// One row of summary.csv: the summary metrics of one replication of one point, as written.
public struct SummaryRecord: Sendable, Equatable {
    /// The point's name (`variant`): `base` for `run`, else a variant's or a swept point's name.
    public var variant: String
    /// The replication index (`replication`), 0-based.
    public var replication: Int
    /// The point's scenario seed (`seed`): with ``replication`` it fixes every random draw of the replication.
    public var seed: UInt64
    /// The fleet's size, `clients.count` (`clients`), in clients.
    public var clients: Int
    /// One value per ``metrics`` column, rounded as written (six decimals, or whole).
    public var values: [Double]

    typealias Column = MetricColumn<Summary>

    /// The columns before the metrics.
    package static let keyColumns = ["variant", "replication", "seed", "clients"]

    /// The metric columns, in file order: the contract columns of DESIGN.md first, then the
    /// others; each metric's facts are the catalogue's, its computation is here.
    static let metricColumns: [Column] = [
        Column(.operations) { Double($0.operations) },
        Column(.attempts) { Double($0.attempts) },
        Column(.amplification) { $0.amplification },
        Column(.succeeded) { Double($0.succeeded) },
        Column(.gaveUp) { Double($0.gaveUp) },
        Column(.blocked) { Double($0.blocked) },
        Column(.peakOfferedPerSecond) { Double($0.peakOfferedPerSecond) },
        Column(.peakLoadRatio) { $0.peakLoadRatio },
        Column(.ttsMean) { $0.ttsMean },
        Column(.ttsP50) { $0.ttsP50 },
        Column(.ttsP90) { $0.ttsP90 },
        Column(.ttsP99) { $0.ttsP99 },
        Column(.ttsP999) { $0.ttsP999 },
        Column(.ttsMax) { $0.ttsMax },
        Column(.recovery) { $0.recoverySeconds },
        Column(.wastedFraction) { $0.wastedFraction },
        Column(.events) { Double($0.events) },
        Column(.simEnd) { $0.simEndSeconds },
        Column(.unfinished) { Double($0.unfinished) },
        Column(.firstAttempts) { Double($0.firstAttempts) },
        Column(.retries) { Double($0.retries) },
        Column(.failed) { Double($0.failed) },
        Column(.timedOut) { Double($0.timedOut) },
        Column(.rejected) { Double($0.rejected) },
        Column(.offered) { Double($0.offered) },
        Column(.served) { Double($0.served) },
        Column(.wasted) { Double($0.wasted) },
        Column(.expired) { Double($0.expired) },
        Column(.offline) { Double($0.offline) },
        Column(.duplicates) { Double($0.duplicates) },
        Column(.queries) { Double($0.queries) },
        Column(.confirmed) { Double($0.confirmed) },
        Column(.abandoned) { Double($0.abandoned) },
        Column(.budgetDenied) { Double($0.budgetDenied) },
        Column(.heldBack) { Double($0.heldBack) },
        Column(.waitMean) { $0.waitMeanSeconds },
        Column(.queueMean) { $0.meanQueueLength },
        Column(.gaveUpFraction) { $0.gaveUpFraction },
        Column(.blockedFraction) { $0.blockedFraction },
        Column(.incidentTTSP50) { $0.incidentTTSP50 },
        Column(.incidentTTSP99) { $0.incidentTTSP99 },
        Column(.incidentGaveUpFraction) { $0.incidentGaveUpFraction },
        Column(.peakOverload) { $0.peakOverload },
        Column(.recovered) { $0.recovered },
        Column(.recoveryAfterTrigger) { $0.recoveryAfterTriggerSeconds },
        // Added after the contract columns (issue 26), so that every earlier column keeps its place.
        Column(.unfinishedFraction) { $0.unfinishedFraction },
        Column(.ttsSuccessMean) { $0.ttsSuccessMean },
        Column(.ttsSuccessP50) { $0.ttsSuccessP50 },
        Column(.ttsSuccessP90) { $0.ttsSuccessP90 },
        Column(.ttsSuccessP99) { $0.ttsSuccessP99 },
        Column(.ttsSuccessP999) { $0.ttsSuccessP999 },
        Column(.ttsSuccessMax) { $0.ttsSuccessMax },
        Column(.incidentTTSSuccessP50) { $0.incidentTTSSuccessP50 },
        Column(.incidentTTSSuccessP99) { $0.incidentTTSSuccessP99 },
        Column(.incidentLoadRatio) { $0.incidentLoadRatio },
        Column(.retriesRefused) { Double($0.retriesRefused) },
        Column(.retriesRefusedFraction) { $0.retriesRefusedFraction },
        Column(.stuck) { $0.stuck }
    ]

    /// The metrics, in file order: the writer, the reader, the statistics and the docs test all
    /// use this list.
    package static let metrics: [Metric] = metricColumns.map(\.metric)
    /// Every column of summary.csv, in file order.
    package static let columns: [String] = keyColumns + metrics.map(\.name)
    static let metricIndex: [Metric: Int] = Dictionary(uniqueKeysWithValues: metrics.enumerated().map { ($1, $0) })

    package init(variant: String, replication: Int, seed: UInt64, clients: Int, values: [Double]) {
        self.variant = variant
        self.replication = replication
        self.seed = seed
        self.clients = clients
        self.values = values
    }

    /// The row of replication `r`'s result at point `variant`, its values rounded as written.
    package init(_ r: ReplicationResult, variant: String, seed: UInt64) {
        self.init(
            variant: variant, replication: r.replication, seed: seed, clients: r.summary.clients,
            values: Self.metricColumns.map { $0.metric.format.rounded($0.value(r.summary)) })
    }

    /// The value of `metric` (nil if it is not a column of summary.csv).
    public func value(_ metric: Metric) -> Double? { Self.metricIndex[metric].map { values[$0] } }

    /// The row's fields, in column order.
    package var fields: [String] {
        [variant, String(replication), String(seed), String(clients)] + zip(Self.metrics, values).map { $0.format.text($1) }
    }

    /// Keys equal and every value equal, NaN equal to NaN (an undefined metric read back is the same).
    public static func == (a: SummaryRecord, b: SummaryRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && a.seed == b.seed && a.clients == b.clients
            && sameNumbers(a.values, b.values)
    }
}
