import RetryStormResults
/// The timeseries.csv columns the charts read. Counts are per bucket, except `capacity_per_s`
/// (requests per second, the mean over the bucket) and `queue_len` (requests waiting at the end
/// of the bucket).
public enum TimeSeriesColumn: String, CaseIterable, Sendable {
    case capacityPerSecond = "capacity_per_s"
    case offered
    case firstAttempts = "first_attempts"
    case retries
    case succeeded
    case failed
    case timedOut = "timed_out"
    case rejected
    case queueLength = "queue_len"
    case gaveUp = "gave_up"
    case blocked
    case expired
    case budgetDenied = "budget_denied"
    case heldBack = "held_back"
    case offline

    /// Counts become rates when divided by the bucket width; the others are levels already.
    var isCount: Bool {
        switch self {
        case .capacityPerSecond, .queueLength: false
        default: true
        }
    }
}
