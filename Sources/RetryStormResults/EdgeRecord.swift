import RetryStormEngine

/// One row of edges.csv: one `calls[]` entry (an edge) of a call graph in one replication of one
/// point, as written. Only call graphs (`services:`) write the file, beside services.csv.
///
/// Every count is of what the caller did on the edge after the warmup (from the start of the first
/// bucket services.csv counts, at the moment it happened), so over the edges into a service each
/// sums to that service's services.csv column (`failed` to its `failed + rejected`); the latencies
/// are the calls', from start to end, over the calls started after the warmup.
public struct EdgeRecord: Sendable, Equatable {
    /// The point's name (`variant`): `base` for `run`, else a variant's or a swept point's name.
    public var variant: String
    /// The replication index (`replication`), 0-based.
    public var replication: Int
    /// The calling service's name (`caller`), as declared under `services:`.
    public var caller: String
    /// The called service's name (`callee`), as declared under `services:`.
    public var callee: String
    /// One value per ``metrics`` column, rounded as written.
    public var values: [Double]

    typealias Column = MetricColumn<EdgeResult>

    package static let keyColumns = ["variant", "replication", "caller", "callee"]

    /// The metric columns, in file order: the calls and their attempts, what became of the
    /// attempts, then the calls' latencies.
    static let metricColumns: [Column] = [
        Column(.calls) { Double($0.counts.calls) },
        Column(.attempts) { Double($0.counts.attempts) },
        Column(.retries) { Double($0.counts.retries) },
        Column(.hedges) { Double($0.counts.hedges) },
        Column(.budgetDenied) { Double($0.counts.budgetDenied) },
        Column(.timedOut) { Double($0.counts.timedOut) },
        Column(.failed) { Double($0.counts.failed) },
        Column(.latencyP50) { $0.latencyP50 },
        Column(.latencyP99) { $0.latencyP99 }
    ]

    /// The metrics, in file order.
    package static let metrics: [Metric] = metricColumns.map(\.metric)
    static let metricIndex: [Metric: Int] = Dictionary(uniqueKeysWithValues: metrics.enumerated().map { ($1, $0) })

    /// Every column of edges.csv, in file order.
    package static let columns: [String] = keyColumns + metrics.map(\.name)

    package init(variant: String, replication: Int, caller: String, callee: String, values: [Double]) {
        self.variant = variant
        self.replication = replication
        self.caller = caller
        self.callee = callee
        self.values = values
    }

    /// The rows of replication `r` of point `variant`, one per edge (none for one hop), in the
    /// scenario's order of services, then of their calls.
    package static func records(_ r: ReplicationResult, variant: String) -> [EdgeRecord] {
        r.edges.map { e in
            EdgeRecord(
                variant: variant, replication: r.replication, caller: e.caller, callee: e.callee,
                values: metricColumns.map { $0.metric.format.rounded($0.value(e)) })
        }
    }

    /// The value of `metric` (nil if it is not a column of edges.csv).
    public func value(_ metric: Metric) -> Double? { Self.metricIndex[metric].map { values[$0] } }

    var fields: [String] {
        [variant, String(replication), caller, callee] + zip(Self.metrics, values).map { $0.format.text($1) }
    }

    /// Keys equal and every value equal, NaN equal to NaN (an undefined latency read back is the same).
    public static func == (a: EdgeRecord, b: EdgeRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && a.caller == b.caller && a.callee == b.callee
            && sameNumbers(a.values, b.values)
    }
}
