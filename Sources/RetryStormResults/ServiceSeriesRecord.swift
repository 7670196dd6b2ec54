import RetryStormEngine

/// The rows of timeseries_services.csv of one service of a call graph in one replication of one
/// point (long format: a row per bucket), as written. Every bucket, the warmup's included, as
/// timeseries.csv keeps them.
public struct ServiceSeriesRecord: Sendable, Equatable {
    /// The point's name (`variant`): `base` for `run`, else a variant's or a swept point's name.
    public var variant: String
    /// The replication index (`replication`), 0-based.
    public var replication: Int
    /// The service's name (`service`), as declared under `services:`.
    public var service: String
    /// One array per ``columns`` entry, one value per bucket.
    public var values: [[Double]]

    package static let keyColumns = ["variant", "replication", "service"]

    /// The columns after the keys, in file order, each with timeseries.csv's meaning for this
    /// service: the bucket's start, the requests that reached it, those it served, its mean
    /// capacity, its queue at the bucket's end, its callers' attempts that timed out and their retries.
    package static let columns: [TimeSeriesColumn] = [.time, .offered, .served, .capacityPerSecond, .queueLength, .timedOut, .retries]

    package static let columnNames: [String] = keyColumns + columns.map(\.name)

    static let columnIndex: [TimeSeriesColumn: Int] = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })

    package init(variant: String, replication: Int, service: String, values: [[Double]]) {
        self.variant = variant
        self.replication = replication
        self.service = service
        self.values = values
    }

    /// The records of replication `r` of point `variant`, one per service (none for one hop), their
    /// values rounded as written.
    package static func records(_ r: ReplicationResult, variant: String) -> [ServiceSeriesRecord] {
        r.services.map { s in
            ServiceSeriesRecord(
                variant: variant, replication: r.replication, service: s.name,
                values: columns.map { c in c.values(s, bucket: r.bucket).map { c.format.rounded($0) } })
        }
    }

    /// The number of time buckets (rows of the record), the length of every column; 0 without columns.
    public var buckets: Int { values.first?.count ?? 0 }

    /// The values of `column`, one per bucket; nil for a column the file does not have.
    public func column(_ column: TimeSeriesColumn) -> [Double]? {
        Self.columnIndex[column].map { $0 < values.count ? values[$0] : [] }
    }

    /// Appends the record's rows to `table`.
    func append(to table: inout CSVTable) {
        TimeSeriesRecord.append(key: [variant, String(replication), service], columns: Self.columns, values: values, to: &table)
    }

    /// Keys equal and every column equal value by value, NaN equal to NaN.
    public static func == (a: ServiceSeriesRecord, b: ServiceSeriesRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && a.service == b.service && sameColumns(a.values, b.values)
    }
}
