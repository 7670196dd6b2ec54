import RetryStormEngine

/// The rows of timeseries_populations.csv of one population in one replication of one point:
/// the requests of that population that reached the server, per bucket (long format).
public struct PopulationSeriesRecord: Sendable, Equatable {
    /// The point's name (`variant`): `base` for `run`, else a variant's or a swept point's name.
    public var variant: String
    /// The replication index (`replication`), 0-based.
    public var replication: Int
    /// The population's name (`population`), as declared under `populations:`.
    public var population: String
    /// The start of each bucket, seconds.
    public var times: [Double]
    /// The population's attempts that reached the server in each bucket (`offered`, rejected ones included),
    /// one per ``times`` entry; the warmup's buckets included.
    public var offered: [Double]

    package static let columns = ["variant", "replication", "population", TimeSeriesColumn.time.name, TimeSeriesColumn.offered.name]
    static let timeFormat = TimeSeriesColumn.time.format

    package init(variant: String, replication: Int, population: String, times: [Double], offered: [Double]) {
        self.variant = variant
        self.replication = replication
        self.population = population
        self.times = times
        self.offered = offered
    }

    /// The records of replication `r` of point `variant`, one per population.
    package static func records(_ r: ReplicationResult, variant: String) -> [PopulationSeriesRecord] {
        r.populations.map { p in
            PopulationSeriesRecord(
                variant: variant, replication: r.replication, population: p.name,
                times: (0..<p.offered.count).map { timeFormat.rounded(Double(Int64($0) * r.bucket) / 1e9) },
                offered: p.offered.map(Double.init))
        }
    }

    func append(to table: inout CSVTable) {
        let key = [variant, String(replication), population]
        for (t, o) in zip(times, offered) {
            table.append(key + [Self.timeFormat.text(t), TimeSeriesColumn.offered.format.text(o)])
        }
    }
}
