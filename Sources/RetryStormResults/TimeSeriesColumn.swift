import RetryStormEngine

/// A column of timeseries.csv after `variant` and `replication`, in file order (the contract
/// columns of DESIGN.md first): its name, declared once here, its number format and, for a count,
/// the engine's ``Counter`` it writes. The engine counts; the names are the results' business.
///
/// Counts are per bucket, except `capacity_per_s` (requests per second, the mean over the bucket)
/// and `queue_len` (requests waiting at the end of the bucket); `t_s` is the bucket's start.
public enum TimeSeriesColumn: String, CaseIterable, Sendable {
    case time = "t_s"
    case capacityPerSecond = "capacity_per_s"
    case offered
    case firstAttempts = "first_attempts"
    case retries
    case served
    case succeeded
    case failed
    case timedOut = "timed_out"
    case rejected
    case wasted
    case queueLength = "queue_len"
    case gaveUp = "gave_up"
    case blocked
    case expired
    case operations
    case offline
    case duplicates
    case queries
    case confirmed
    case abandoned
    case budgetDenied = "budget_denied"
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
        if let counter { return (0..<r.buckets).map { Double(r.count(counter, bucket: $0)) } }
        switch self {
        case .time: return (0..<r.buckets).map { Double(Int64($0) * r.bucket) / 1e9 }
        case .capacityPerSecond: return r.capacityPerSecond
        default: return r.queueAtEnd.map(Double.init)
        }
    }
}
