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

    init(horizon: Int64, bucket: Int64, expectedSuccesses: Int) {
        self.bucket = bucket
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

    @inline(__always) func bucketIndex(_ t: Int64) -> Int { Swift.min(Int(t / bucket), buckets - 1) }

    @inline(__always) func count(_ c: Counter, at t: Int64) {
        counts[bucketIndex(t) &* Self.width &+ c.rawValue] &+= 1
        totals[c.rawValue] &+= 1
    }

    @inline(__always) func offered(at t: Int64) {
        count(.offered, at: t)
        offeredPerSecond[Swift.min(Int(t / 1_000_000_000), offeredPerSecond.count - 1)] &+= 1
    }

    /// Records the queue length for every bucket that ended before `t`.
    @inline(__always) mutating func advance(to t: Int64, queueLength: Int) {
        let b = bucketIndex(t)
        while currentBucket < b {
            queueAtEnd[currentBucket] = Int64(queueLength)
            currentBucket += 1
        }
    }

    /// The running total of `c` over all buckets.
    @inline(__always) func total(_ c: Counter) -> Int64 { totals[c.rawValue] }

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
