import RetryPolicy

/// Counts what happens, per time bucket and per second, and collects times-to-success.
///
/// Counting is an index computation and an add: the engine calls it on every event.
struct Recorder: ~Copyable {
    let bucket: Int64
    let buckets: Int
    static let width = Counter.allCases.count
    /// `buckets × width` counts, bucket-major.
    var counts: RawBuffer<Int64>
    /// Attempts that reached the server, per whole second (for the peak per-second load).
    var offeredPerSecond: RawBuffer<Int64>
    /// Queue length at the end of each bucket.
    var queueAtEnd: RawBuffer<Int64>
    /// Times-to-success, seconds, in completion order.
    var timesToSuccess: RawBuffer<Double>
    /// The bucket each of those operations started in, in the same order (for the incident metrics).
    var successStartBuckets: RawBuffer<UInt32>
    /// Running totals over all buckets, for invariant checks.
    var totals: RawBuffer<Int64>
    /// The bucket the clock is in; buckets before it have their queue length recorded.
    var currentBucket = 0
    /// Where the current bucket's counts start in `counts`.
    var currentBase = 0
    /// The second the clock is in (an index into `offeredPerSecond`).
    var currentSecond = 0
    /// When the next bucket and the next second begin: crossing is a comparison, not a division.
    var nextBucketAt: Int64
    var nextSecondAt: Int64 = 1_000_000_000
    /// Keep running totals (only invariant checks read them during a run).
    let keepTotals: Bool
    /// Retries a guard refused: the retry budget (``Counter/budgetDenied``), and a breaker that
    /// fails fast, the adaptive throttle or a concurrency limit that fails instead of waiting,
    /// when what they refuse is a retry (not a first attempt). A run total, not a bucket's:
    /// nothing charts it over time.
    var retriesRefused: Int64 = 0
    /// Calls to this service that ended because the request making them was cancelled by its own
    /// caller (`calls[].cancellation: propagate`): neither succeeded nor failed; their attempts
    /// out are `abandoned`. A run total (every call, the warmup's too), as the graph's
    /// conservation laws count calls; nothing charts it, and a counter per bucket would cost
    /// every run, cancellation or not, a column of memory.
    var callsCancelled: Int64 = 0
    /// The start of the first bucket after the `warmup` (0 without one): what happens before it,
    /// or to operations that started before it, is left out of the run totals kept outside the
    /// buckets (``retriesRefused``, the populations' totals), as the assembler leaves out the
    /// warmup's buckets.
    var warmupEnd: Int64 = 0

    init(horizon: Int64, bucket: Int64, expectedSuccesses: Int, keepTotals: Bool) {
        self.bucket = bucket
        self.keepTotals = keepTotals
        buckets = Int((horizon + bucket - 1) / bucket)
        nextBucketAt = buckets > 1 ? bucket : .max
        counts = RawBuffer(capacity: buckets * Self.width)
        for _ in 0..<(buckets * Self.width) { counts.append(0) }
        let seconds = Int((horizon + 999_999_999) / 1_000_000_000)
        offeredPerSecond = RawBuffer(capacity: seconds)
        for _ in 0..<seconds { offeredPerSecond.append(0) }
        queueAtEnd = RawBuffer(capacity: buckets)
        for _ in 0..<buckets { queueAtEnd.append(0) }
        timesToSuccess = RawBuffer(capacity: expectedSuccesses)
        successStartBuckets = RawBuffer(capacity: expectedSuccesses)
        totals = RawBuffer(capacity: Self.width)
        for _ in 0..<Self.width { totals.append(0) }
    }

    /// A recorder with `other`'s counts, totals and place in time, but none of its times to
    /// success (a snapshot's): a rare-event branch reads counts only (its stuck verdict), and a
    /// long splitting run would otherwise copy every success it has had at every snapshot.
    init(copying other: borrowing Recorder) {
        bucket = other.bucket
        buckets = other.buckets
        counts = RawBuffer(copying: other.counts)
        offeredPerSecond = RawBuffer(copying: other.offeredPerSecond)
        queueAtEnd = RawBuffer(copying: other.queueAtEnd)
        timesToSuccess = RawBuffer(capacity: 16)
        successStartBuckets = RawBuffer(capacity: 16)
        totals = RawBuffer(copying: other.totals)
        currentBucket = other.currentBucket
        currentBase = other.currentBase
        currentSecond = other.currentSecond
        nextBucketAt = other.nextBucketAt
        nextSecondAt = other.nextSecondAt
        keepTotals = other.keepTotals
        retriesRefused = other.retriesRefused
        callsCancelled = other.callsCancelled
        warmupEnd = other.warmupEnd
    }

    /// Forgets the times to success collected so far (a splitting run's, which never reports them).
    mutating func forgetSuccessTimes() {
        timesToSuccess.removeAll()
        successStartBuckets.removeAll()
    }

    /// Counts one `c` in the current bucket (the clock's): for the server, which always acts at the clock.
    @inline(__always) mutating func count(_ c: Counter) {
        counts[currentBase &+ c.rawValue] &+= 1
        if keepTotals { totals[c.rawValue] &+= 1 }
    }

    @inline(__always) mutating func offered() {
        count(.offered)
        offeredPerSecond[currentSecond] &+= 1
    }

    /// Moves the clock to `t`, which must not be before the current bucket's end has been closed:
    /// call ``closeBucket(queueLength:)`` for every bucket that ends at or before `t` first.
    @inline(__always) mutating func advance(to t: Int64) {
        if t >= nextSecondAt {
            currentSecond = Swift.min(Int(t / 1_000_000_000), offeredPerSecond.count - 1)
            nextSecondAt = Int64(currentSecond + 1) * 1_000_000_000
        }
    }

    /// Whether the current bucket ends at or before `t` (and is not the last one, which never closes early).
    @inline(__always) func bucketEnds(by t: Int64) -> Bool { t >= nextBucketAt }

    /// Ends the current bucket with `queueLength` requests waiting (the queue just before the
    /// bucket's end) and moves to the next.
    mutating func closeBucket(queueLength: Int) {
        queueAtEnd[currentBucket] = Int64(queueLength)
        currentBucket += 1
        nextBucketAt = currentBucket >= buckets - 1 ? .max : nextBucketAt + bucket
        currentBase = currentBucket &* Self.width
    }

    /// The bucket holding time `t` (clamped to the last).
    @inline(__always) func bucketIndex(_ t: Int64) -> Int { Swift.min(Int(t / bucket), buckets - 1) }

    /// Counts one `c` at time `t` (before the horizon), in `t`'s bucket wherever the clock is: for
    /// what a model settles ahead of time, and for counts filed by when the operation started.
    @inline(__always) mutating func count(_ c: Counter, at t: Int64) {
        counts[bucketIndex(t) &* Self.width &+ c.rawValue] &+= 1
        if keepTotals { totals[c.rawValue] &+= 1 }
    }

    /// The moment `t`, at the clock (in the current bucket, whose earlier buckets are closed).
    @inline(__always) func moment(now t: Int64) -> Moment { Moment(time: t, base: currentBase) }

    /// The moment `t` ≥ the clock, in whatever bucket holds it: for outcomes the engine settles
    /// ahead of time, counted into the bucket they happen in.
    @inline(__always) func moment(at t: Int64) -> Moment { Moment(time: t, base: bucketIndex(t) &* Self.width) }

    /// Counts one `c` at `m` (at or after the clock, before the horizon), in `m`'s bucket.
    @inline(__always) mutating func count(_ c: Counter, _ m: Moment) {
        counts[m.base &+ c.rawValue] &+= 1
        if keepTotals { totals[c.rawValue] &+= 1 }
    }

    /// The total of `c` over all buckets (a running total when `keepTotals`).
    func total(_ c: Counter) -> Int64 {
        if keepTotals { return totals[c.rawValue] }
        var s: Int64 = 0
        for b in 0..<buckets { s &+= counts[b &* Self.width &+ c.rawValue] }
        return s
    }

    /// Buckets not closed yet (the run stopped before their end).
    var openBuckets: Int { buckets - currentBucket }

    /// An operation that started at `createdAt` succeeded at `now`.
    @inline(__always) mutating func success(createdAt: Int64, now: Int64) {
        timesToSuccess.append(Double(now &- createdAt) / 1e9)
        successStartBuckets.append(UInt32(truncatingIfNeeded: bucketIndex(createdAt)))
    }

}
