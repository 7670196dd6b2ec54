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

    init(horizon: Int64, bucket: Int64, expectedSuccesses: Int, keepTotals: Bool) {
        self.bucket = bucket
        self.keepTotals = keepTotals
        nextBucketAt = bucket
        buckets = Int((horizon + bucket - 1) / bucket)
        counts = RawBuffer(capacity: buckets * Self.width)
        for _ in 0..<(buckets * Self.width) { counts.append(0) }
        let seconds = Int((horizon + 999_999_999) / 1_000_000_000)
        offeredPerSecond = RawBuffer(capacity: seconds)
        for _ in 0..<seconds { offeredPerSecond.append(0) }
        queueAtEnd = RawBuffer(capacity: buckets)
        for _ in 0..<buckets { queueAtEnd.append(0) }
        timesToSuccess = RawBuffer(capacity: expectedSuccesses)
        totals = RawBuffer(capacity: Self.width)
        for _ in 0..<Self.width { totals.append(0) }
    }

    /// Counts one `c` in the current bucket (the clock's; see ``advance(to:queueLength:)``).
    @inline(__always) func count(_ c: Counter) {
        counts[currentBase &+ c.rawValue] &+= 1
        if keepTotals { totals[c.rawValue] &+= 1 }
    }

    @inline(__always) func offered() {
        count(.offered)
        offeredPerSecond[currentSecond] &+= 1
    }

    /// Moves the clock to `t`, recording the queue length of every bucket that ended before it.
    @inline(__always) mutating func advance(to t: Int64, queueLength: Int) {
        if t >= nextSecondAt {
            currentSecond = Swift.min(Int(t / 1_000_000_000), offeredPerSecond.count - 1)
            nextSecondAt = Int64(currentSecond + 1) * 1_000_000_000
        }
        guard t >= nextBucketAt else { return }
        while t >= nextBucketAt && currentBucket < buckets - 1 {
            queueAtEnd[currentBucket] = Int64(queueLength)
            currentBucket += 1
            nextBucketAt += bucket
        }
        if currentBucket == buckets - 1 { nextBucketAt = .max }
        currentBase = currentBucket &* Self.width
    }

    /// The total of `c` over all buckets (a running total when `keepTotals`).
    func total(_ c: Counter) -> Int64 {
        if keepTotals { return totals[c.rawValue] }
        var s: Int64 = 0
        for b in 0..<buckets { s &+= counts[b &* Self.width &+ c.rawValue] }
        return s
    }

    /// Closes the remaining buckets at the end of the run.
    mutating func finish(queueLength: Int) {
        while currentBucket < buckets {
            queueAtEnd[currentBucket] = Int64(queueLength)
            currentBucket += 1
        }
    }

    @inline(__always) mutating func success(after tts: Int64) {
        timesToSuccess.append(Double(tts) / 1e9)
    }

}
