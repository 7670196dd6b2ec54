import RetryPolicy

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Server capacity over time, as a fraction of nominal: a sequence of segments, each constant,
/// linear or exponential between two fractions, then nominal (1.0) forever.
///
/// Service progresses at the current capacity: a worker that starts a request of `w` units at `t`
/// finishes at the `T` where the capacity integral Λ(T) − Λ(t) equals `w · workers`. So a request
/// in service slows down when capacity drops and speeds up as it recovers, and the number of
/// requests served by any time never exceeds Λ of that time (the invariant the tests check).
public struct CapacityProfile: Sendable, Hashable {
    /// One piece of the profile, over [start, end).
    public struct Segment: Sendable, Hashable {
        /// When the segment begins, nanoseconds from the run's t = 0 (inclusive).
        public var start: Nanoseconds
        /// When it ends, nanoseconds from t = 0 (exclusive); the profile drops a segment with `end <= start`.
        public var end: Nanoseconds
        /// The fraction of nominal at `start` and just before `end`.
        public var from: Double
        /// The fraction of nominal it moves towards, reached at `end` (ignored by ``Shape/constant``).
        public var to: Double
        /// How the fraction moves from ``from`` to ``to`` over the segment.
        public var shape: Shape

        /// A segment over [`start`, `end`) moving from `from` to `to` of nominal capacity along `shape`.
        public init(start: Nanoseconds, end: Nanoseconds, from: Double, to: Double, shape: Shape) {
            self.start = start
            self.end = end
            self.from = from
            self.to = to
            self.shape = shape
        }
    }

    /// How a segment moves from `from` to `to`.
    public enum Shape: String, Sendable, Hashable, CaseIterable {
        /// `from` throughout (`to` is ignored).
        case constant
        /// A straight line.
        case linear
        /// Fast at first, then slower, like a capacitor charging: f(Δ) = from + (to − from) ·
        /// (1 − e^(−kΔ/R)) / (1 − e^(−k)) with k = 5, so it reaches `to` exactly at the end.
        case exponential
    }

    /// Segments in time order, non-overlapping; gaps and everything after the last are nominal.
    public private(set) var segments: [Segment]
    /// The time capacity is back at nominal for good (0 for a flat profile).
    package var recoveredAt: Nanoseconds { segments.last?.end ?? 0 }
    /// The time of the first disturbance (nil for a flat profile).
    package var disturbedAt: Nanoseconds? { segments.first?.start }

    static let exponentialRate = 5.0

    /// A profile from segments; the caller guarantees order, non-overlap and fractions ≥ 0.
    /// Empty segments are left out (the array is kept as given, its storage shared, when there
    /// are none).
    public init(segments: [Segment]) {
        self.segments = segments.contains { $0.end <= $0.start } ? segments.filter { $0.end > $0.start } : segments
    }

    /// Nominal capacity throughout.
    public static let constant = CapacityProfile(segments: [])

    /// Capacity drops to `fraction` of nominal at `at` for `duration`, then returns to nominal over
    /// `ramp` following `recovery` (`constant` means an instant return).
    public static func outage(
        at: Nanoseconds, duration: Nanoseconds, fraction: Double,
        recovery: Shape, ramp: Nanoseconds
    ) -> CapacityProfile {
        var segs = [Segment(start: at, end: Time.adding(at, duration), from: fraction, to: fraction, shape: .constant)]
        if recovery != .constant && ramp > 0 {
            let s = Time.adding(at, duration)
            segs.append(Segment(start: s, end: Time.adding(s, ramp), from: fraction, to: 1, shape: recovery))
        }
        return CapacityProfile(segments: segs)
    }

    /// Capacity replayed from points (time, fraction of nominal): linear between points, the
    /// first fraction before the first point and the last one after the last, until `end`.
    /// Pieces at nominal throughout are left out and level pieces are constant, so points in the
    /// shape of an outage give exactly that outage's profile.
    ///
    /// `points` may be a lazy view (a file's rows scaled to fractions), and the segments are
    /// counted before they are made: ten million rows are neither copied into an array of their
    /// own first nor make an array that grows by doubling (655 MiB less at the peak of
    /// `retrystorm validate` of a scenario with a 10,000,000-row capacity file).
    package static func replay<Points: BidirectionalCollection>(_ points: Points, until end: Nanoseconds) -> CapacityProfile
    where Points.Element == (time: Nanoseconds, fraction: Double) {
        func pieces(_ body: (Nanoseconds, Nanoseconds, Double, Double) -> Void) {
            func piece(_ a: Nanoseconds, _ b: Nanoseconds, _ from: Double, _ to: Double) {
                if b > a && !(from == 1 && to == 1) { body(a, b, from, to) }
            }
            if let first = points.first { piece(0, first.time, first.fraction, first.fraction) }
            for (p, q) in zip(points, points.dropFirst()) { piece(p.time, q.time, p.fraction, q.fraction) }
            if let last = points.last { piece(last.time, end, last.fraction, last.fraction) }
        }
        var count = 0
        pieces { _, _, _, _ in count += 1 }
        var segments: [Segment] = []
        segments.reserveCapacity(count)
        pieces { a, b, from, to in
            segments.append(Segment(start: a, end: b, from: from, to: to, shape: from == to ? .constant : .linear))
        }
        return CapacityProfile(segments: segments)
    }

    /// The fraction of nominal capacity at `t`.
    public func fraction(at t: Nanoseconds) -> Double {
        let i = firstSegment(endingAfter: t)
        if i < segments.count, t >= segments[i].start {
            return Self.value(segments[i], Double(t - segments[i].start) / 1e9)
        }
        return 1
    }

    /// The first segment that ends after `t` (`segments.count` if none): the earlier ones are
    /// past. Segments are in order and do not overlap, so their ends ascend.
    /// - Complexity: O(log n) for n segments (a replayed capacity file may have many).
    @inline(__always) func firstSegment(endingAfter t: Nanoseconds) -> Int {
        var lo = 0
        var hi = segments.count
        while lo < hi {
            let mid = (lo &+ hi) / 2
            if segments[mid].end <= t { lo = mid &+ 1 } else { hi = mid }
        }
        return lo
    }

    /// ∫ fraction dt over [a, b], in nominal-seconds (multiply by nominal capacity for requests).
    package func integral(from a: Nanoseconds, to b: Nanoseconds) -> Double {
        guard b > a else { return 0 }
        var total = 0.0
        var t = a
        for i in firstSegment(endingAfter: t)..<segments.count {
            let s = segments[i]
            if s.start >= b { break }
            if s.start > t {
                total += Double(s.start - t) / 1e9
                t = s.start
            }
            let e = min(b, s.end)
            total += Self.area(s, Double(t - s.start) / 1e9, Double(e - s.start) / 1e9)
            t = e
            if t >= b { break }
        }
        if t < b { total += Double(b - t) / 1e9 }
        return total
    }

    /// The first time `T ≥ t` with ∫ₜᵀ fraction = `work` nominal-seconds; `Int64.max` if capacity
    /// never supplies that much (a permanent outage).
    package func finishTime(from t: Nanoseconds, work: Double) -> Nanoseconds {
        var remaining = work
        var now = t
        for i in firstSegment(endingAfter: now)..<segments.count {
            let s = segments[i]
            if s.start > now {
                // A nominal gap before this segment.
                let gap = Double(s.start - now) / 1e9
                if remaining <= gap { return Time.adding(now, Time.nanoseconds(seconds: remaining)) }
                remaining -= gap
                now = s.start
            }
            let lo = Double(now - s.start) / 1e9
            let hi = Double(s.end - s.start) / 1e9
            let available = Self.area(s, lo, hi)
            if remaining <= available {
                let x = Self.solve(s, from: lo, area: remaining, upper: hi)
                return max(now, min(s.end, s.start &+ Time.nanoseconds(seconds: x)))
            }
            remaining -= available
            now = s.end
        }
        return Time.adding(now, Time.nanoseconds(seconds: remaining))
    }

    // MARK: - One segment, in seconds from its start

    static func value(_ s: Segment, _ x: Double) -> Double {
        switch s.shape {
        case .constant: return s.from
        case .linear:
            let r = Double(s.end - s.start) / 1e9
            return s.from + (s.to - s.from) * x / r
        case .exponential:
            let r = Double(s.end - s.start) / 1e9
            let k = exponentialRate
            return s.from + (s.to - s.from) * (1 - exp(-k * x / r)) / (1 - exp(-k))
        }
    }

    /// ∫ over [x0, x1] seconds from the segment's start.
    static func area(_ s: Segment, _ x0: Double, _ x1: Double) -> Double {
        primitive(s, x1) - primitive(s, x0)
    }

    static func primitive(_ s: Segment, _ x: Double) -> Double {
        switch s.shape {
        case .constant: return s.from * x
        case .linear:
            let r = Double(s.end - s.start) / 1e9
            return s.from * x + (s.to - s.from) * x * x / (2 * r)
        case .exponential:
            let r = Double(s.end - s.start) / 1e9
            let k = exponentialRate
            return s.from * x + (s.to - s.from) / (1 - exp(-k)) * (x - r / k * (1 - exp(-k * x / r)))
        }
    }

    /// The x in [x0, upper] with area(x0, x) = a, for 0 ≤ a ≤ area(x0, upper).
    static func solve(_ s: Segment, from x0: Double, area a: Double, upper: Double) -> Double {
        switch s.shape {
        case .constant:
            return s.from > 0 ? x0 + a / s.from : upper
        case .linear:
            // f(x) = f0 + g·(x − x0); area = f0·d + g·d²/2; the stable root d = 2a / (f0 + √(f0² + 2ga)).
            let r = Double(s.end - s.start) / 1e9
            let g = (s.to - s.from) / r
            let f0 = value(s, x0)
            let disc = max(0, f0 * f0 + 2 * g * a)
            let denom = f0 + disc.squareRoot()
            return denom > 0 ? min(upper, x0 + 2 * a / denom) : upper
        case .exponential:
            // Monotone area: bisection to below a nanosecond, then done (about 40 steps).
            var lo = x0
            var hi = upper
            let target = primitive(s, x0) + a
            while hi - lo > 1e-10 {
                let mid = (lo + hi) / 2
                if primitive(s, mid) < target { lo = mid } else { hi = mid }
            }
            return hi
        }
    }
}
