import RetryPolicy

/// The arrival rate over time, as a multiplier of the clients' own rate: piecewise-linear between
/// points, the first point's value before it and the last point's after it (1 throughout when
/// there is none). Two points at one time make a step.
///
/// Arrivals under a profile are the clients' homogeneous process run on *operational time*
/// Λ(t) = ∫₀ᵗ m(u) du: an inhomogeneous Poisson process of intensity λ·m(t) is exactly a
/// homogeneous one of rate λ whose arrival instants sᵢ are mapped back through t = Λ⁻¹(sᵢ) (the
/// time-change theorem; Çinlar, "Introduction to Stochastic Processes", 1975, §4.7; Lewis &
/// Shedler, "Simulation of nonhomogeneous Poisson processes by thinning", 1979, give thinning as
/// the alternative). No bucket approximation: Λ and its inverse are exact on each linear piece.
public struct LoadProfile: Sendable, Hashable {
    /// One point of the profile: the multiplier at one instant.
    public struct Point: Sendable, Hashable {
        /// The instant, nanoseconds from the run's t = 0.
        public var time: Nanoseconds
        /// The arrival rate at ``time`` as a multiple of the clients' own rate: finite and ≥ 0, 1 is the base.
        public var multiplier: Double

        /// The multiplier `multiplier` at `time`; nothing is checked here (the scenario loader checks).
        public init(time: Nanoseconds, multiplier: Double) {
            self.time = time
            self.multiplier = multiplier
        }
    }

    /// The points in time order (a time appears at most twice: a step).
    public let points: [Point]
    /// Λ at each point, seconds of operational time.
    private let cumulative: [Double]
    /// Whether the multiplier is 1 throughout (arrivals then take the homogeneous path, with
    /// exactly the arithmetic of a run without a profile).
    public let isFlat: Bool
    /// The largest multiplier (1 for a flat profile).
    public let peak: Double

    /// A profile through `points`; the caller guarantees non-decreasing times and finite
    /// multipliers ≥ 0 (the scenario loader checks them).
    ///
    /// `points` is kept as given, sharing its storage (a profile read from a file shares the
    /// file's parsed rows with every point of a study). ``isFlat`` and ``peak`` are found here,
    /// once: each replication and each point's resource estimate asks, and a replayed profile
    /// may have ten million points.
    public init(points: [Point]) {
        self.points = points
        var cumulative: [Double] = []
        cumulative.reserveCapacity(points.count)
        var total = 0.0
        var flat = true
        var peak = -Double.infinity
        for (i, p) in points.enumerated() {
            if i == 0 {
                total = p.multiplier * Double(p.time) / 1e9
            } else {
                let q = points[i - 1]
                total += (q.multiplier + p.multiplier) / 2 * Double(p.time - q.time) / 1e9
            }
            cumulative.append(total)
            flat = flat && p.multiplier == 1
            peak = max(peak, p.multiplier)
        }
        self.cumulative = cumulative
        isFlat = flat
        self.peak = points.isEmpty ? 1 : peak
    }

    /// No change over time: the clients' own rate throughout.
    public static let flat = LoadProfile(points: [])

    /// A step to `multiplier` at `at` for `duration`, and back to 1.
    public static func spike(at: Nanoseconds, duration: Nanoseconds, multiplier: Double) -> LoadProfile {
        let end = Time.adding(at, duration)
        return LoadProfile(points: [
            Point(time: at, multiplier: 1), Point(time: at, multiplier: multiplier),
            Point(time: end, multiplier: multiplier), Point(time: end, multiplier: 1)
        ])
    }

    /// The multiplier at `t` (after a step, at the step's time).
    public func multiplier(at t: Nanoseconds) -> Double {
        guard let first = points.first else { return 1 }
        let i = lastPoint(atOrBefore: t)
        guard i >= 0 else { return first.multiplier }
        guard i + 1 < points.count else { return points[i].multiplier }
        let a = points[i]
        let b = points[i + 1]
        return a.multiplier + (b.multiplier - a.multiplier) * Double(t - a.time) / Double(b.time - a.time)
    }

    /// Λ(t) = ∫₀ᵗ multiplier, seconds.
    package func integral(to t: Nanoseconds) -> Double {
        guard let first = points.first else { return Double(t) / 1e9 }
        let i = lastPoint(atOrBefore: t)
        guard i >= 0 else { return first.multiplier * Double(t) / 1e9 }
        let a = points[i]
        let x = Double(t - a.time) / 1e9
        guard i + 1 < points.count else { return cumulative[i] + a.multiplier * x }
        let b = points[i + 1]
        let r = Double(b.time - a.time) / 1e9
        return cumulative[i] + a.multiplier * x + (b.multiplier - a.multiplier) * x * x / (2 * r)
    }

    /// ∫ multiplier over [a, b], seconds.
    package func integral(from a: Nanoseconds, to b: Nanoseconds) -> Double {
        b > a ? integral(to: b) - integral(to: a) : 0
    }

    /// Λ⁻¹(s): the first time at which Λ reaches `s` seconds; `Int64.max` if it never does (the
    /// multiplier ends at 0 before that).
    package func time(atIntegral s: Double) -> Nanoseconds {
        guard let first = points.first else { return Time.nanoseconds(seconds: s) }
        guard s > 0 else { return 0 }
        // The first point whose Λ reaches s: s lies on the piece that ends there.
        var lo = 0
        var hi = cumulative.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] < s { lo = mid + 1 } else { hi = mid }
        }
        if lo == 0 {
            // Before the first point, at its multiplier.
            return first.multiplier > 0 ? min(first.time, Time.nanoseconds(seconds: s / first.multiplier)) : first.time
        }
        let a = points[lo - 1]
        let area = s - cumulative[lo - 1]
        guard lo < points.count else {
            // After the last point.
            return a.multiplier > 0 ? Time.adding(a.time, Time.nanoseconds(seconds: area / a.multiplier)) : .max
        }
        let b = points[lo]
        let r = Double(b.time - a.time) / 1e9
        // m(x) = m₀ + g·x on the piece; area = m₀·x + g·x²/2; the stable root x = 2A / (m₀ + √(m₀² + 2gA)).
        let g = (b.multiplier - a.multiplier) / r
        let root = (max(0, a.multiplier * a.multiplier + 2 * g * area)).squareRoot()
        let denominator = a.multiplier + root
        let x = denominator > 0 ? min(r, 2 * area / denominator) : r
        return min(b.time, Time.adding(a.time, Time.nanoseconds(seconds: x)))
    }

    /// The span in which the multiplier is above 1: from the moment it first rises above 1 to the
    /// moment it last comes back to 1 or below (`Int64.max` if it stays above). nil if it never
    /// exceeds 1. A load spike is a trigger like a capacity drop: this is its window.
    package var elevated: (start: Nanoseconds, end: Nanoseconds)? {
        guard let first = points.first, let last = points.last, points.contains(where: { $0.multiplier > 1 }) else { return nil }
        var start: Nanoseconds = 0
        if first.multiplier <= 1 {
            for (a, b) in zip(points, points.dropFirst()) where b.multiplier > 1 {
                start = Self.crossing(a, b, level: 1)
                break
            }
        }
        var end: Nanoseconds = .max
        if last.multiplier <= 1 {
            for (a, b) in zip(points, points.dropFirst()).reversed() where a.multiplier > 1 {
                end = Self.crossing(a, b, level: 1)
                break
            }
        }
        return (start, end)
    }

    /// Where the line from `a` to `b` crosses `level` (which lies between their multipliers).
    static func crossing(_ a: Point, _ b: Point, level: Double) -> Nanoseconds {
        guard b.time > a.time, a.multiplier != b.multiplier else { return b.time }
        let share = (level - a.multiplier) / (b.multiplier - a.multiplier)
        return a.time + Int64((Double(b.time - a.time) * min(1, max(0, share))).rounded())
    }

    /// The last point at or before `t` (−1 if none).
    private func lastPoint(atOrBefore t: Nanoseconds) -> Int {
        var lo = 0
        var hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points[mid].time <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }
}
