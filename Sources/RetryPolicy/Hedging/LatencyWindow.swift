/// The latencies seen over the last ``window``, for a hedging delay that is a percentile of them
/// (``Hedging/Delay/percentile(_:window:)``, Finagle's backup requests). Keep one per host with
/// ``HostGuard``, ``record(_:now:)`` the copies' latencies (see ``Hedging/Delay/percentile(_:window:)``
/// for which) and ask ``quantile(_:now:)`` for the delay.
///
/// Latencies are binned, 16 bins per doubling from 1,024 ns up (each bin 1/16 of its lower
/// edge wide, so a quantile is exact to within 6.25%, reported at the bin's middle), over
/// ``slices`` slices of the window that expire one at a time: what is counted is always between
/// `window − window/slices` and `window` old. A quantile is recomputed after 32 new latencies
/// or a slice's expiry, and not reported before ``minimumCount(_:)`` latencies are in the window.
///
/// Deterministic and a plain value; its counts are allocated once, in `init`.
public struct LatencyWindow: Sendable, Hashable {
    /// How far back latencies count, nanoseconds.
    public let window: Nanoseconds
    /// The window's slices, each `window / slices` long.
    public static let slices = 8
    /// Bins: 16 per doubling from 2^10 ns to 2^40 ns (about 18 minutes); longer latencies share the last.
    @usableFromInline static let bins = 16 * 30
    /// Counts per slice (`slices × bins`), then their sum per bin.
    @usableFromInline var counts: [UInt32]
    @usableFromInline var totals: [UInt32]
    /// Latencies in the window.
    public private(set) var count = 0
    @usableFromInline var slice = 0
    @usableFromInline var sliceEnds: Nanoseconds
    @usableFromInline var cached: Nanoseconds?
    @usableFromInline var cachedQuantile = -1.0
    @usableFromInline var sinceComputed = 0

    /// An empty window of `window` nanoseconds (at least `slices`), starting at `now`.
    public init(window: Nanoseconds, now: Nanoseconds = 0) {
        self.window = Swift.max(Nanoseconds(Self.slices), window)
        counts = [UInt32](repeating: 0, count: Self.slices * Self.bins)
        totals = [UInt32](repeating: 0, count: Self.bins)
        sliceEnds = Time.adding(now, self.window / Nanoseconds(Self.slices))
    }

    /// Counts one latency (nanoseconds) seen at `now` (no earlier than the last call's).
    public mutating func record(_ latency: Nanoseconds, now: Nanoseconds) {
        expire(now)
        let b = Self.bin(latency)
        counts[slice * Self.bins + b] &+= 1
        totals[b] &+= 1
        count += 1
        sinceComputed += 1
    }

    /// The `q` quantile (0 < q < 1) of the latencies in the window at `now`, nanoseconds; nil
    /// while fewer than ``minimumCount(_:)`` are there.
    public mutating func quantile(_ q: Double, now: Nanoseconds) -> Nanoseconds? {
        expire(now)
        if q != cachedQuantile || sinceComputed >= 32 || (cached == nil && sinceComputed > 0) {
            cached = compute(q)
            cachedQuantile = q
            sinceComputed = 0
        }
        return cached
    }

    /// The latencies a `q` quantile needs before it is reported: enough that one in `1 − q` of
    /// them lies above it, and never fewer than 10.
    public static func minimumCount(_ q: Double) -> Int {
        // Less a hair, so that 1 / (1 − 0.95) = 20.000000000000004 is 20.
        Swift.max(10, Int((1 / Swift.max(1e-6, 1 - q) - 1e-9).rounded(.up)))
    }

    private func compute(_ q: Double) -> Nanoseconds? {
        guard count >= Self.minimumCount(q) else { return nil }
        let rank = UInt64((q * Double(count)).rounded(.up))
        var seen: UInt64 = 0
        for b in 0..<Self.bins {
            seen += UInt64(totals[b])
            if seen >= rank { return Self.middle(b) }
        }
        return Self.middle(Self.bins - 1)
    }

    /// Drops the slices that have left the window by `now`.
    private mutating func expire(_ now: Nanoseconds) {
        guard now >= sliceEnds else { return }
        let length = window / Nanoseconds(Self.slices)
        var expired = 0
        while now >= sliceEnds && expired < Self.slices {
            slice = (slice + 1) % Self.slices
            let base = slice * Self.bins
            for b in 0..<Self.bins where counts[base + b] != 0 {
                totals[b] &-= counts[base + b]
                count -= Int(counts[base + b])
                counts[base + b] = 0
            }
            sliceEnds = Time.adding(sliceEnds, length)
            expired += 1
        }
        // A gap longer than the window emptied it all: start the slices again from `now`.
        if now >= sliceEnds { sliceEnds = Time.adding(now, length) }
        sinceComputed = Swift.max(sinceComputed, 32)
    }

    /// The bin of `ns`: the doubling it is in above 2^10, and its next four bits.
    @usableFromInline static func bin(_ ns: Nanoseconds) -> Int {
        guard ns >= 1024 else { return 0 }
        let top = 63 - ns.leadingZeroBitCount
        let fraction = Int((ns >> (top - 4)) & 15)
        return Swift.min(bins - 1, (top - 10) * 16 + fraction)
    }

    /// Bin `b`'s middle, nanoseconds.
    @usableFromInline static func middle(_ b: Int) -> Nanoseconds {
        let top = b / 16 + 10
        let fraction = b % 16
        // The bin spans [(16 + f), (17 + f)) · 2^(top − 4); its middle is (33 + 2f) · 2^(top − 5).
        return Nanoseconds(33 + 2 * fraction) << (top - 5)
    }
}
