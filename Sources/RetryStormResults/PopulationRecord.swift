import RetryStormEngine

/// One row of populations.csv: one population's results in one replication of one point, as
/// written. Only scenarios with populations write the file.
public struct PopulationRecord: Sendable, Equatable {
    public var variant: String
    public var replication: Int
    public var population: String
    public var clients: Int
    /// One value per ``metrics`` column, rounded as written.
    public var values: [Double]

    /// A metric column: its name, format, and where its value comes from.
    public struct Metric: Sendable {
        public let name: String
        public let format: ValueFormat
        let value: @Sendable (PopulationResult) -> Double
    }

    public static let keyColumns = ["variant", "replication", "population", "clients"]

    /// The metric columns, in file order (the names and meanings of summary.csv's, per population).
    public static let metrics: [Metric] = [
        .init(name: "operations", format: .whole) { Double($0.operations) },
        .init(name: "succeeded", format: .whole) { Double($0.succeeded) },
        .init(name: "gave_up", format: .whole) { Double($0.gaveUp) },
        .init(name: "gave_up_fraction", format: .fixed(6)) { $0.gaveUpFraction },
        .init(name: "attempts", format: .whole) { Double($0.attempts) },
        .init(name: "amplification", format: .fixed(6)) { $0.amplification },
        .init(name: "tts_p50_s", format: .fixed(6)) { $0.ttsP50 },
        .init(name: "tts_p99_s", format: .fixed(6)) { $0.ttsP99 },
        .init(name: "incident_tts_p50_s", format: .fixed(6)) { $0.incidentTTSP50 },
        .init(name: "incident_tts_p99_s", format: .fixed(6)) { $0.incidentTTSP99 },
        .init(name: "incident_gave_up_fraction", format: .fixed(6)) { $0.incidentGaveUpFraction },
    ]

    /// Every column of populations.csv, in file order.
    public static let columns: [String] = keyColumns + metrics.map(\.name)

    public init(variant: String, replication: Int, population: String, clients: Int, values: [Double]) {
        self.variant = variant
        self.replication = replication
        self.population = population
        self.clients = clients
        self.values = values
    }

    /// The rows of replication `r` of point `variant`, one per population (none without populations).
    public static func records(_ r: ReplicationResult, variant: String) -> [PopulationRecord] {
        r.populations.map { p in
            PopulationRecord(variant: variant, replication: r.replication, population: p.name, clients: p.clients,
                             values: metrics.map { $0.format.rounded($0.value(p)) })
        }
    }

    /// The value of metric `name` (nil if there is no such column).
    public func value(_ name: String) -> Double? {
        Self.metrics.firstIndex { $0.name == name }.map { values[$0] }
    }

    var fields: [String] {
        [variant, String(replication), population, String(clients)] + zip(Self.metrics, values).map { $0.format.text($1) }
    }

    public static func == (a: PopulationRecord, b: PopulationRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && a.population == b.population && a.clients == b.clients
            && sameNumbers(a.values, b.values)
    }
}
