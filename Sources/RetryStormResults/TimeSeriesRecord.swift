import RetryStormEngine

/// The rows of timeseries.csv of one replication of one point: one value per bucket in each column,
/// as written.
public struct TimeSeriesRecord: Sendable, Equatable {
    /// The point's name (`variant`): `base` for `run`, else a variant's or a swept point's name.
    public var variant: String
    /// The replication index (`replication`), 0-based.
    public var replication: Int
    /// One array per ``columns`` entry, one value per bucket.
    public var values: [[Double]]

    package static let keyColumns = ["variant", "replication"]

    /// The columns after the keys, in file order (``TimeSeriesColumn``).
    package static let columns: [TimeSeriesColumn] = TimeSeriesColumn.allCases

    package static let columnNames: [String] = keyColumns + columns.map(\.name)

    package init(variant: String, replication: Int, values: [[Double]]) {
        self.variant = variant
        self.replication = replication
        self.values = values
    }

    /// Replication `r` of point `variant`, its values rounded as written.
    package init(_ r: ReplicationResult, variant: String) {
        self.init(
            variant: variant, replication: r.replication,
            values: Self.columns.map { c in c.values(r).map { c.format.rounded($0) } })
    }

    /// The number of time buckets (rows of the file), the length of every column; 0 without columns.
    public var buckets: Int { values.first?.count ?? 0 }

    /// The values of `column`, one per bucket (none in a record built without that column).
    public func column(_ column: TimeSeriesColumn) -> [Double] {
        let i = Self.columnIndex[column]!
        return i < values.count ? values[i] : []
    }

    static let columnIndex: [TimeSeriesColumn: Int] = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })

    /// Appends the record's rows to `table`.
    func append(to table: inout CSVTable) {
        Self.append(key: [variant, String(replication)], columns: Self.columns, values: values, to: &table)
    }

    /// Appends a row per bucket: `key`, then each of `columns` (`values` holds one array per
    /// column) in its format.
    static func append(key: [String], columns: [TimeSeriesColumn], values: [[Double]], to table: inout CSVTable) {
        for b in 0..<(values.first?.count ?? 0) {
            table.append(key + zip(columns, values).map { $0.format.text($1[b]) })
        }
    }

    /// Keys equal and every column equal value by value, NaN equal to NaN.
    public static func == (a: TimeSeriesRecord, b: TimeSeriesRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && sameColumns(a.values, b.values)
    }
}
