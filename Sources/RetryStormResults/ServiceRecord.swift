import RetryStormEngine

/// One row of services.csv: one service of a call graph in one replication of one point, as
/// written. Only call graphs (`services:`) write the file; a one-hop run's directory stays as it was.
///
/// Every count is over the buckets after the warmup, as summary.csv's totals are, and by when it
/// happened: a request is counted in the bucket it arrived in, an outcome in the bucket it came.
/// At the first service the counts are the clients' (``calls`` are the user operations); at another
/// they are its callers' calls and attempts, their outcomes as the callers saw them.
public struct ServiceRecord: Sendable, Equatable {
    /// The point's name (`variant`): `base` for `run`, else a variant's or a swept point's name.
    public var variant: String
    /// The replication index (`replication`), 0-based.
    public var replication: Int
    /// The service's name (`service`), as declared under `services:`.
    public var service: String
    /// One value per ``metrics`` column, rounded as written.
    public var values: [Double]

    /// What a row's columns are computed from: one service's result and, for the ratios per user
    /// operation, the replication's user operations, both from bucket ``from`` on.
    struct Counts: Sendable {
        let service: ServiceResult
        /// The first bucket counted: the warmup's are left out.
        let from: Int
        /// The user operations over the same buckets: the first service's calls.
        let operations: Double
        /// The incident window's buckets (nil without a trigger) and the user operations started in them.
        let incident: Range<Int>?
        let incidentOperations: Double

        func total(_ c: Counter) -> Double { Double(service.total(c, from: from)) }
        var attempts: Double { total(.firstAttempts) + total(.retries) }

        /// `a / b`, `nan` when `b` is 0: as summary.csv's `amplification` without operations.
        static func ratio(_ a: Double, _ b: Double) -> Double { b > 0 ? a / b : .nan }
    }

    typealias Column = MetricColumn<Counts>

    package static let keyColumns = ["variant", "replication", "service"]

    /// The metric columns, in file order: what reached the service and how it ended, then the
    /// calls made to it, then the ratios that say where a storm lands, then (appended, so that no
    /// column moves) its requests' latencies.
    static let metricColumns: [Column] = [
        Column(.requests) { $0.total(.offered) },
        Column(.served) { $0.total(.served) },
        Column(.succeeded) { $0.total(.succeeded) },
        Column(.failed) { $0.total(.failed) },
        Column(.rejected) { $0.total(.rejected) },
        Column(.timedOut) { $0.total(.timedOut) },
        Column(.wasted) { $0.total(.wasted) },
        Column(.expired) { $0.total(.expired) },
        Column(.calls) { $0.total(.operations) },
        Column(.attempts) { $0.attempts },
        Column(.retries) { $0.total(.retries) },
        Column(.callsFailed) { $0.total(.gaveUp) + $0.total(.blocked) },
        Column(.budgetDenied) { $0.total(.budgetDenied) },
        Column(.heldBack) { $0.total(.heldBack) },
        Column(.requestsPerOperation) { Counts.ratio($0.total(.offered), $0.operations) },
        Column(.incidentRequestsPerOperation) { c in
            c.incident.map { Counts.ratio(Double(c.service.total(.offered, in: $0)), c.incidentOperations) } ?? .nan
        },
        Column(.attemptsPerCall) { Counts.ratio($0.attempts, $0.total(.operations)) },
        Column(.peakLoadRatio) { Double($0.service.peakPerSecond) / $0.service.capacity },
        Column(.recovery) { $0.service.recovery.seconds },
        Column(.recovered) { $0.service.recovery.recovered },
        Column(.latencyP50) { $0.service.latencyP50 },
        Column(.latencyP99) { $0.service.latencyP99 },
        Column(.stuck) { $0.service.stuck }
    ]

    /// The metrics, in file order.
    package static let metrics: [Metric] = metricColumns.map(\.metric)
    static let metricIndex: [Metric: Int] = Dictionary(uniqueKeysWithValues: metrics.enumerated().map { ($1, $0) })

    /// Every column of services.csv, in file order.
    package static let columns: [String] = keyColumns + metrics.map(\.name)

    package init(variant: String, replication: Int, service: String, values: [Double]) {
        self.variant = variant
        self.replication = replication
        self.service = service
        self.values = values
    }

    /// The rows of replication `r` of point `variant`, one per service (none for one hop), leaving
    /// out the buckets that start before `warmup` (nanoseconds), as the summary does.
    package static func records(_ r: ReplicationResult, variant: String, warmup: Int64) -> [ServiceRecord] {
        guard let first = r.services.first else { return [] }
        // ResultAssembler's rule: a warmup is rounded up to whole buckets.
        let from = min(r.buckets, Int((warmup + r.bucket - 1) / r.bucket))
        let operations = Double(first.total(.operations, from: from))
        let incidentOperations = r.incident.map { Double(first.total(.operations, in: $0)) } ?? 0
        return r.services.map { s in
            let counts = Counts(
                service: s, from: from, operations: operations, incident: r.incident, incidentOperations: incidentOperations)
            return ServiceRecord(
                variant: variant, replication: r.replication, service: s.name,
                values: metricColumns.map { $0.metric.format.rounded($0.value(counts)) })
        }
    }

    /// The value of `metric` (nil if it is not a column of services.csv).
    public func value(_ metric: Metric) -> Double? { Self.metricIndex[metric].map { values[$0] } }

    var fields: [String] {
        [variant, String(replication), service] + zip(Self.metrics, values).map { $0.format.text($1) }
    }

    /// Keys equal and every value equal, NaN equal to NaN (an undefined ratio read back is the same).
    public static func == (a: ServiceRecord, b: ServiceRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && a.service == b.service && sameNumbers(a.values, b.values)
    }
}
