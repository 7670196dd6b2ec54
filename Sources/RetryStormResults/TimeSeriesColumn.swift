import RetryStormEngine

/// A column of timeseries.csv after `variant` and `replication`, in file order (the contract
/// columns of DESIGN.md first): its name, declared once here, its number format and, for a count,
/// the engine's ``Counter`` it writes. The engine counts; the names are the results' business.
///
/// Counts are per bucket, except `capacity_per_s` (requests per second, the mean over the bucket)
/// and `queue_len` (requests waiting at the end of the bucket); `t_s` is the bucket's start.
public enum TimeSeriesColumn: String, CaseIterable, Sendable {
    /// `t_s`: the bucket's start, seconds from t = 0, written with three decimals.
    case time = "t_s"
    /// `capacity_per_s`: the server's mean capacity over the bucket, requests per second (three decimals).
    case capacityPerSecond = "capacity_per_s"
    /// `offered`: attempts that reached the server in the bucket, the rejected ones included.
    case offered
    /// `first_attempts`: first attempts clients sent in the bucket.
    case firstAttempts = "first_attempts"
    /// `retries`: attempts after the first that clients sent in the bucket.
    case retries
    /// `served`: requests the server finished serving in the bucket, wanted or not.
    case served
    /// `succeeded`: attempts answered with success in the bucket (= operations that succeeded).
    case succeeded
    /// `failed`: attempts answered with an error after service in the bucket.
    case failed
    /// `timed_out`: attempts their client abandoned at the timeout in the bucket.
    case timedOut = "timed_out"
    /// `rejected`: attempts the server refused without serving (full queue) in the bucket.
    case rejected
    /// `wasted`: requests served in the bucket after their client had abandoned them.
    case wasted
    /// `queue_len`: requests waiting, not in service, at the bucket's end (a level, not a count per bucket).
    case queueLength = "queue_len"
    /// `gave_up`: operations stopped in the bucket because the policy's limits ran out.
    case gaveUp = "gave_up"
    /// `blocked`: operations stopped in the bucket on a failure that needs attention.
    case blocked
    /// `expired`: requests dropped unserved at the queue's head in the bucket, their deadline passed.
    case expired
    /// `operations`: operations started in the bucket.
    case operations
    /// `offline`: attempts that failed on the client in the bucket for lack of network (`clients.offline`).
    case offline
    /// `duplicates`: writes the server applied again in the bucket for an operation already applied.
    case duplicates
    /// `queries`: status queries sent in the bucket to reconcile ambiguous failures, in requests.
    case queries
    /// `confirmed`: operations a status query found applied in the bucket.
    case confirmed
    /// `abandoned`: attempts in flight their client abandoned in the bucket: at an app restart
    /// (`clients.restart`), or a hedged copy another copy outran.
    case abandoned
    /// `budget_denied`: retries the retry budget refused in the bucket (each ends its operation as gave up).
    case budgetDenied = "budget_denied"
    /// `held_back`: times in the bucket the policy held an attempt back before sending it.
    case heldBack = "held_back"

    /// The CSV column.
    public var name: String { rawValue }

    /// The engine's counter a count column writes (nil for `t_s`, `capacity_per_s` and `queue_len`).
    package var counter: Counter? {
        switch self {
        case .time, .capacityPerSecond, .queueLength: nil
        case .offered: .offered
        case .firstAttempts: .firstAttempts
        case .retries: .retries
        case .served: .served
        case .succeeded: .succeeded
        case .failed: .failed
        case .timedOut: .timedOut
        case .rejected: .rejected
        case .wasted: .wasted
        case .gaveUp: .gaveUp
        case .blocked: .blocked
        case .expired: .expired
        case .operations: .operations
        case .offline: .offline
        case .duplicates: .duplicates
        case .queries: .queries
        case .confirmed: .confirmed
        case .abandoned: .abandoned
        case .budgetDenied: .budgetDenied
        case .heldBack: .heldBack
        }
    }

    /// Counts become rates when divided by the bucket width; the others are levels (or times) already.
    package var isCount: Bool { counter != nil }

    /// How the column writes its numbers: seconds and capacity with 3 decimals, counts whole.
    package var format: ValueFormat {
        switch self {
        case .time, .capacityPerSecond: .fixed(3)
        default: .whole
        }
    }

    /// The values of replication `r`, one per bucket, unrounded.
    func values(_ r: ReplicationResult) -> [Double] {
        values(counts: r.counts, queueAtEnd: r.queueAtEnd, capacityPerSecond: r.capacityPerSecond, bucket: r.bucket)
    }

    /// The values of service `s` of a call graph, in buckets of `bucket` nanoseconds, unrounded.
    func values(_ s: ServiceResult, bucket: Int64) -> [Double] {
        values(counts: s.counts, queueAtEnd: s.queueAtEnd, capacityPerSecond: s.capacityPerSecond, bucket: bucket)
    }

    /// One value per bucket from a recorder's arrays as the engine hands them over (a replication's
    /// or a service's: `counts` per bucket per ``Counter``), unrounded.
    func values(counts: [Int64], queueAtEnd: [Int64], capacityPerSecond: [Double], bucket: Int64) -> [Double] {
        let buckets = queueAtEnd.count
        if let counter {
            let width = Counter.allCases.count
            return (0..<buckets).map { Double(counts[$0 * width + counter.rawValue]) }
        }
        switch self {
        case .time: return (0..<buckets).map { Double(Int64($0) * bucket) / 1e9 }
        case .capacityPerSecond: return capacityPerSecond
        default: return queueAtEnd.map(Double.init)
        }
    }
}
