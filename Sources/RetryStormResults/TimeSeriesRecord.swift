import RetryStormEngine

/// The rows of timeseries.csv of one replication of one point: one value per bucket in each column,
/// as written.
public struct TimeSeriesRecord: Sendable, Equatable {
    public var variant: String
    public var replication: Int
    /// One array per ``columns`` entry, one value per bucket.
    public var values: [[Double]]

    /// A column after `variant` and `replication`: its name, format, and where its values come from.
    public struct Column: Sendable {
        public let name: String
        public let format: ValueFormat
        let values: @Sendable (ReplicationResult) -> [Double]

        static func counter(_ c: Counter) -> Column {
            Column(name: c.column, format: .whole) { r in (0..<r.buckets).map { Double(r.count(c, bucket: $0)) } }
        }
    }

    public static let keyColumns = ["variant", "replication"]

    /// The columns, in file order: the contract columns of DESIGN.md first.
    public static let columns: [Column] = [
        Column(name: "t_s", format: .fixed(3)) { r in (0..<r.buckets).map { Double(Int64($0) * r.bucket) / 1e9 } },
        Column(name: "capacity_per_s", format: .fixed(3)) { $0.capacityPerSecond },
    ] + [Counter.offered, .firstAttempts, .retries, .served, .succeeded, .failed, .timedOut, .rejected, .wasted].map(Column.counter)
        + [Column(name: "queue_len", format: .whole) { $0.queueAtEnd.map(Double.init) }]
        + [Counter.gaveUp, .blocked, .expired, .operations, .offline, .duplicates, .queries, .confirmed, .abandoned,
           .budgetDenied, .heldBack].map(Column.counter)

    public static let columnNames: [String] = keyColumns + columns.map(\.name)
    static let columnIndex: [String: Int] = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0) })

    public init(variant: String, replication: Int, values: [[Double]]) {
        self.variant = variant
        self.replication = replication
        self.values = values
    }

    /// Replication `r` of point `variant`, its values rounded as written.
    public init(_ r: ReplicationResult, variant: String) {
        self.init(variant: variant, replication: r.replication,
                  values: Self.columns.map { c in c.values(r).map { c.format.rounded($0) } })
    }

    public var buckets: Int { values.first?.count ?? 0 }

    /// The values of column `name` (nil if there is no such column).
    public func column(_ name: String) -> [Double]? { Self.columnIndex[name].map { values[$0] } }

    /// Appends the record's rows to `table`.
    func append(to table: inout CSVTable) {
        let key = [variant, String(replication)]
        for b in 0..<buckets {
            table.append(key + zip(Self.columns, values).map { $0.format.text($1[b]) })
        }
    }

    public static func == (a: TimeSeriesRecord, b: TimeSeriesRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && a.values.count == b.values.count
            && zip(a.values, b.values).allSatisfy { sameNumbers($0, $1) }
    }
}
