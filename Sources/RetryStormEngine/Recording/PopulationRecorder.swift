/// Per-population counts of one replication, per time bucket, beside the fleet's ``Recorder``:
/// kept only when the scenario has populations (else it holds nothing and nothing calls it).
///
/// The times to success stay in the fleet recorder; this keeps each success's population, in the
/// same order, so they can be told apart at the end.
struct PopulationRecorder: ~Copyable {
    enum Counter: Int, CaseIterable {
        /// Operations started, by the bucket they started in.
        case operations
        /// Attempts started (first attempts and retries).
        case attempts
        /// Operations that succeeded (or were confirmed applied), by the bucket they ended in.
        case succeeded
        /// Operations given up, by the bucket they ended in.
        case gaveUp
        /// Operations given up, by the bucket they started in (for the incident metrics).
        case gaveUpByStart
        /// Requests that reached the server's front door.
        case offered
    }

    /// What is counted over the whole run only (no bucket needs it): kept beside the per-bucket
    /// counts so that populations × buckets does not grow with them.
    enum Total: Int, CaseIterable {
        /// Operations stopped needing attention.
        case blocked
        /// Attempts after the first.
        case retries
        /// Retries the retry budget refused.
        case budgetDenied
        /// Retries any guard refused (``Recorder/retriesRefused``).
        case retriesRefused
        /// Times the policy held an attempt back before sending it.
        case heldBack
        /// Attempts answered with an error after service, abandoned at the timeout, refused by
        /// the server unserved (shed, rate limited), failed for lack of network, abandoned by an
        /// app restart.
        case failed, timedOut, rejected, offline, abandoned
        /// Writes applied again, status queries sent, operations a query found applied.
        case duplicates, queries, confirmed
    }

    static let width = Counter.allCases.count
    let populations: Int
    let buckets: Int
    /// [population][bucket][counter].
    var counts: RawBuffer<Int64>
    /// The population of each success recorded by the fleet recorder, in its order.
    var successPopulation: RawBuffer<UInt8>
    /// [population][total]: the run totals.
    var totals: RawBuffer<Int64>

    /// - Parameter populations: 0 when the scenario has none (nothing is kept).
    init(populations: Int, buckets: Int, expectedSuccesses: Int) {
        self.populations = populations
        self.buckets = buckets
        let n = populations * buckets * Self.width
        counts = RawBuffer(capacity: n)
        for _ in 0..<n { counts.append(0) }
        successPopulation = RawBuffer(capacity: populations > 0 ? expectedSuccesses : 0)
        let t = populations * Total.allCases.count
        totals = RawBuffer(capacity: t)
        for _ in 0..<t { totals.append(0) }
    }

    /// A recorder with `other`'s counts and totals, and no successes' populations (see
    /// ``Recorder/init(copying:)``).
    init(copying other: borrowing PopulationRecorder) {
        populations = other.populations
        buckets = other.buckets
        counts = RawBuffer(copying: other.counts)
        successPopulation = RawBuffer(capacity: 16)
        totals = RawBuffer(copying: other.totals)
    }

    @inline(__always) mutating func count(_ c: Total, population: UInt8) {
        totals[Int(population) &* Total.allCases.count &+ c.rawValue] &+= 1
    }

    func total(_ c: Total, population: Int) -> Int64 { totals[population &* Total.allCases.count &+ c.rawValue] }

    @inline(__always) mutating func count(_ c: Counter, population: UInt8, bucket: Int) {
        counts[(Int(population) &* buckets &+ bucket) &* Self.width &+ c.rawValue] &+= 1
    }

    @inline(__always) func count(_ c: Counter, population: Int, bucket: Int) -> Int64 {
        counts[(population &* buckets &+ bucket) &* Self.width &+ c.rawValue]
    }

}
