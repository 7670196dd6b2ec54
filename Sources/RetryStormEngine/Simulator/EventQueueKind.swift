import GSLSupport
import RetryPolicy

/// The structure that holds events scheduled for arbitrary times (retries after backoff).
public enum EventQueueKind: String, Sendable, CaseIterable {
    /// A calendar queue: O(1) to schedule, a small heap per bucket to pop (the default).
    case wheel
    /// One 4-ary min-heap of all of them: O(log n) both ways.
    case heap
}
