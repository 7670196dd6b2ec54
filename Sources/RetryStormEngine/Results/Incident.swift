import RetryPolicy

/// The incident window of a replication: from the first trigger (a capacity drop, a brownout, the
/// first dip, a rise of the load above its base) to the later of the recovery and the trigger's end, in whole buckets; to the horizon
/// if it never recovered. Metrics over the operations started in it do not depend on how much quiet
/// time is simulated after it.
package struct Incident: Sendable, Hashable {
    /// First and one-past-last bucket of the window.
    package var buckets: Range<Int>

    /// The window for a run whose trigger starts at `start` and ends at `end` (ns), whose first
    /// healthy bucket is `healthy` (nil: never healthy again), with `count` buckets of `width` ns.
    package init(start: Int64, end: Int64, healthy: Int?, count: Int, width: Int64) {
        let first = min(count, Int(start / max(1, width)))
        // The trigger's last bucket is part of it: the bucket that holds `end - 1`.
        let triggerEnd = min(count, Int((max(start, end) - 1) / max(1, width)) + 1)
        let last = healthy.map { max($0, triggerEnd) } ?? count
        buckets = first..<max(first, min(count, last))
    }
}
