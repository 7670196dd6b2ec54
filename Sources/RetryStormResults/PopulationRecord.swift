import RetryStormEngine

/// One row of populations.csv: one population's results in one replication of one point, as
/// written. Only scenarios with populations write the file.
public struct PopulationRecord: Sendable, Equatable {
    /// The point's name (`variant`): `base` for `run`, else a variant's or a swept point's name.
    public var variant: String
    /// The replication index (`replication`), 0-based.
    public var replication: Int
    /// The population's name (`population`), as declared under `populations:`.
    public var population: String
    /// The population's own client count (`clients`), not the fleet's.
    public var clients: Int
    /// One value per ``metrics`` column, rounded as written.
    public var values: [Double]

    typealias Column = MetricColumn<PopulationResult>

    package static let keyColumns = ["variant", "replication", "population", "clients"]

    /// The metric columns, in file order (summary.csv's metrics, per population).
    static let metricColumns: [Column] = [
        Column(.operations) { Double($0.operations) },
        Column(.succeeded) { Double($0.succeeded) },
        Column(.gaveUp) { Double($0.gaveUp) },
        Column(.gaveUpFraction) { $0.gaveUpFraction },
        Column(.attempts) { Double($0.attempts) },
        Column(.amplification) { $0.amplification },
        Column(.ttsP50) { $0.ttsP50 },
        Column(.ttsP99) { $0.ttsP99 },
        Column(.incidentTTSP50) { $0.incidentTTSP50 },
        Column(.incidentTTSP99) { $0.incidentTTSP99 },
        Column(.incidentGaveUpFraction) { $0.incidentGaveUpFraction },
        Column(.ttsSuccessP50) { $0.ttsSuccessP50 },
        Column(.ttsSuccessP99) { $0.ttsSuccessP99 },
        Column(.incidentTTSSuccessP50) { $0.incidentTTSSuccessP50 },
        Column(.incidentTTSSuccessP99) { $0.incidentTTSSuccessP99 },
        // Appended (issue 26): the rest of summary.csv's metrics that mean something per
        // population, the guards' refusals among them; every earlier column keeps its place.
        Column(.blocked) { Double($0.blocked) },
        Column(.blockedFraction) { $0.blockedFraction },
        Column(.unfinished) { Double($0.unfinished) },
        Column(.unfinishedFraction) { $0.unfinishedFraction },
        Column(.firstAttempts) { Double($0.firstAttempts) },
        Column(.retries) { Double($0.retries) },
        Column(.offered) { Double($0.offeredTotal) },
        Column(.budgetDenied) { Double($0.budgetDenied) },
        Column(.heldBack) { Double($0.heldBack) },
        Column(.retriesRefused) { Double($0.retriesRefused) },
        Column(.retriesRefusedFraction) { $0.retriesRefusedFraction },
        Column(.ttsMean) { $0.ttsMean },
        Column(.ttsP90) { $0.ttsP90 },
        Column(.ttsP999) { $0.ttsP999 },
        Column(.ttsMax) { $0.ttsMax },
        Column(.ttsSuccessMean) { $0.ttsSuccessMean },
        Column(.ttsSuccessP90) { $0.ttsSuccessP90 },
        Column(.ttsSuccessP999) { $0.ttsSuccessP999 },
        Column(.ttsSuccessMax) { $0.ttsSuccessMax },
        Column(.failed) { Double($0.failed) },
        Column(.timedOut) { Double($0.timedOut) },
        Column(.rejected) { Double($0.rejected) },
        Column(.offline) { Double($0.offline) },
        Column(.abandoned) { Double($0.abandoned) },
        Column(.duplicates) { Double($0.duplicates) },
        Column(.queries) { Double($0.queries) },
        Column(.confirmed) { Double($0.confirmed) },
        Column(.stuck) { $0.stuck }
    ]

    /// The metrics, in file order.
    package static let metrics: [Metric] = metricColumns.map(\.metric)
    static let metricIndex: [Metric: Int] = Dictionary(uniqueKeysWithValues: metrics.enumerated().map { ($1, $0) })

    /// Every column of populations.csv, in file order.
    package static let columns: [String] = keyColumns + metrics.map(\.name)

    package init(variant: String, replication: Int, population: String, clients: Int, values: [Double]) {
        self.variant = variant
        self.replication = replication
        self.population = population
        self.clients = clients
        self.values = values
    }

    /// The rows of replication `r` of point `variant`, one per population (none without populations).
    package static func records(_ r: ReplicationResult, variant: String) -> [PopulationRecord] {
        r.populations.map { p in
            PopulationRecord(
                variant: variant, replication: r.replication, population: p.name, clients: p.clients,
                values: metricColumns.map { $0.metric.format.rounded($0.value(p)) })
        }
    }

    /// The value of `metric` (nil if it is not a column of populations.csv).
    public func value(_ metric: Metric) -> Double? { Self.metricIndex[metric].map { values[$0] } }

    var fields: [String] {
        [variant, String(replication), population, String(clients)] + zip(Self.metrics, values).map { $0.format.text($1) }
    }

    /// Keys equal and every value equal, NaN equal to NaN (an undefined metric read back is the same).
    public static func == (a: PopulationRecord, b: PopulationRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && a.population == b.population && a.clients == b.clients
            && sameNumbers(a.values, b.values)
    }
}
