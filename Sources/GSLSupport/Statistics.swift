import CGSL

/// Descriptive statistics and confidence intervals, computed by GSL (`gsl_stats_*`, `gsl_cdf_*`).
public enum Statistics {
    /// The arithmetic mean (`gsl_stats_mean`); NaN for an empty sample.
    public static func mean(_ xs: [Double]) -> Double {
        guard !xs.isEmpty else { return .nan }
        return xs.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
    }

    /// The sample standard deviation with n − 1 in the denominator (`gsl_stats_sd`); NaN below two values.
    public static func standardDeviation(_ xs: [Double]) -> Double {
        guard xs.count >= 2 else { return .nan }
        return xs.withUnsafeBufferPointer { gsl_stats_sd($0.baseAddress, 1, $0.count) }
    }

    /// The `f`-quantile of ascending data (`gsl_stats_quantile_from_sorted_data`): linear
    /// interpolation between order statistics at index f·(n − 1). NaN for an empty sample.
    public static func quantile(sorted xs: [Double], _ f: Double) -> Double {
        guard !xs.isEmpty else { return .nan }
        return xs.withUnsafeBufferPointer { gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, f) }
    }

    /// The two-sided 95% Student-t interval for the mean: mean ± t(0.975, n − 1) · sd / √n
    /// (`gsl_cdf_tdist_Pinv`). With one value the interval is that value (no spread can be estimated).
    /// Infinite values (a system that never recovered) make the mean infinite, not NaN: GSL's
    /// running mean would give ∞ − ∞.
    public static func confidenceInterval95(_ xs: [Double]) -> ConfidenceInterval {
        if xs.contains(where: { $0.isInfinite }) && !xs.contains(where: \.isNaN) {
            let up = xs.contains(.infinity)
            let down = xs.contains(-.infinity)
            let m: Double = up && down ? .nan : (up ? .infinity : -.infinity)
            return ConfidenceInterval(mean: m, low: m, high: m, count: xs.count)
        }
        let m = mean(xs)
        guard xs.count >= 2, m.isFinite else { return ConfidenceInterval(mean: m, low: m, high: m, count: xs.count) }
        let t = gsl_cdf_tdist_Pinv(0.975, Double(xs.count - 1))
        let half = t * standardDeviation(xs) / Double(xs.count).squareRoot()
        return ConfidenceInterval(mean: m, low: m - half, high: m + half, count: xs.count)
    }

    /// Student's t 97.5% quantile (`gsl_cdf_tdist_Pinv`): a 95% interval's half-width in standard
    /// errors of a mean of `degreesOfFreedom` + 1 values.
    public static func studentT975(degreesOfFreedom: Int) -> Double {
        _ = gslErrorHandlerOff
        return gsl_cdf_tdist_Pinv(0.975, Double(degreesOfFreedom))
    }

    /// The two-sided 95% Wilson score interval of a proportion: `successes` of `count` trials
    /// (Wilson 1927; Newcombe 1998, method 3). Unlike the Student-t interval of 0/1 values, it
    /// is never a point at 0 or 1 (0 of 5 is [0, 0.434]) and stays inside [0, 1]. The mean is
    /// the observed proportion; NaN for no trials. z is `gsl_cdf_ugaussian_Pinv(0.975)`.
    public static func wilsonInterval95(successes: Int, count: Int) -> ConfidenceInterval {
        guard count > 0 else { return ConfidenceInterval(mean: .nan, low: .nan, high: .nan, count: 0) }
        let n = Double(count)
        let p = Double(successes) / n
        let z = gsl_cdf_ugaussian_Pinv(0.975)
        let z2 = z * z
        let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
        // At p = 0 or 1 one end is the proportion itself; rounding would leave it a hair off.
        let low = successes == 0 ? 0 : max(0, centre - half)
        let high = successes == count ? 1 : min(1, centre + half)
        return ConfidenceInterval(mean: p, low: low, high: high, count: count)
    }

    /// P(X ≤ k) for X Poisson with mean `mean` (`gsl_cdf_poisson_P`): the probability that an
    /// Erlang(k + 1) time of rate r exceeds t, with mean = r·t. 0 for k < 0.
    public static func poissonCDF(_ k: Int, mean: Double) -> Double {
        _ = gslErrorHandlerOff
        guard k >= 0 else { return 0 }
        return gsl_cdf_poisson_P(UInt32(clamping: k), mean)
    }

    /// The arithmetic mean of a buffer (`gsl_stats_mean`); NaN when empty.
    public static func mean(_ xs: UnsafeBufferPointer<Double>) -> Double {
        xs.isEmpty ? .nan : gsl_stats_mean(xs.baseAddress, 1, xs.count)
    }

    /// The `f`-quantile of an ascending buffer (`gsl_stats_quantile_from_sorted_data`); NaN when empty.
    public static func quantile(sorted xs: UnsafeBufferPointer<Double>, _ f: Double) -> Double {
        xs.isEmpty ? .nan : gsl_stats_quantile_from_sorted_data(xs.baseAddress, 1, xs.count, f)
    }

    /// The `f`-quantile of `total` values of which `xs` (ascending, finite) are the smallest and the
    /// other `total − xs.count` are +∞: the survival view of a time to success, where an operation
    /// that never succeeded has taken "forever". The interpolation is
    /// `gsl_stats_quantile_from_sorted_data`'s over all `total` values — with h = f·(total − 1),
    /// i = ⌊h⌋ and δ = h − i, the value is x[i] when δ = 0 or i = total − 1, else
    /// (1 − δ)·x[i] + δ·x[i+1] — except that an infinite order statistic with a non-zero weight
    /// gives +∞ (IEEE would give NaN for 0·∞, and ∞ for a positive weight).
    ///
    /// So the result is finite exactly when the order statistics it weighs are successes: with 9
    /// successes among 10, p50 (h = 4.5) and p80 are finite, p90 (h = 8.1, weighing x[9] = ∞ by
    /// 0.1) and p99 are +∞. NaN when `total` is 0; +∞ for any level when nothing succeeded.
    /// When every value is finite (`xs.count == total`) it is GSL's own answer, bit for bit.
    /// - Precondition: `xs.count <= total`.
    public static func survivalQuantile(sorted xs: UnsafeBufferPointer<Double>, total: Int, _ f: Double) -> Double {
        precondition(xs.count <= total, "more successes than operations")
        if total == 0 { return .nan }
        if xs.count == total { return gsl_stats_quantile_from_sorted_data(xs.baseAddress, 1, total, f) }
        let h = f * Double(total - 1)
        let i = Int(h)
        let delta = h - Double(i)
        func x(_ j: Int) -> Double { j < xs.count ? xs[j] : .infinity }
        if i == total - 1 || delta == 0 { return x(i) }
        let (a, b) = (x(i), x(i + 1))
        guard b.isFinite else { return .infinity }
        return (1 - delta) * a + delta * b
    }

    /// The survival `f`-quantile of an ascending array among `total` values; see
    /// ``survivalQuantile(sorted:total:_:)-(UnsafeBufferPointer<Double>,_,_)``.
    public static func survivalQuantile(sorted xs: [Double], total: Int, _ f: Double) -> Double {
        xs.withUnsafeBufferPointer { survivalQuantile(sorted: $0, total: total, f) }
    }

    /// The mean of `total` values of which `xs` are finite and the rest +∞ (see
    /// ``survivalQuantile(sorted:total:_:)-(UnsafeBufferPointer<Double>,_,_)``): +∞ when any value
    /// is missing, GSL's mean of `xs` when none is, NaN when `total` is 0.
    /// - Precondition: `xs.count <= total`.
    public static func survivalMean(_ xs: UnsafeBufferPointer<Double>, total: Int) -> Double {
        precondition(xs.count <= total, "more successes than operations")
        if total == 0 { return .nan }
        return xs.count < total ? .infinity : mean(xs)
    }

    /// Sorts ascending. Non-negative finite data (the common case: durations) takes an LSD radix sort
    /// on the IEEE-754 bit patterns, which order like the values; anything else goes to `gsl_sort`.
    /// - Complexity: O(n) for non-negative finite data, O(n log n) otherwise.
    public static func sort(_ xs: inout [Double]) {
        xs.withUnsafeMutableBufferPointer { sort($0) }
    }

    /// Sorts a buffer ascending, in place; see ``sort(_:)-(inout [Double])``.
    public static func sort(_ xs: UnsafeMutableBufferPointer<Double>) {
        guard xs.count > 1 else { return }
        if xs.allSatisfy({ $0 >= 0 && $0.isFinite }) {
            radixSortNonNegative(xs)
        } else {
            gsl_sort(xs.baseAddress, 1, xs.count)
        }
    }

    /// LSD radix sort, 16-bit digits, on the bit patterns of non-negative finite doubles (which
    /// order like the values). Uses one scratch buffer of the same size.
    private static func radixSortNonNegative(_ xs: UnsafeMutableBufferPointer<Double>) {
        let n = xs.count
        let a = UnsafeMutableRawBufferPointer(xs).bindMemory(to: UInt64.self)
        let b = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
        let c = UnsafeMutableBufferPointer<Int>.allocate(capacity: 1 << 16)
        defer {
            b.deallocate()
            c.deallocate()
            // Hand the memory back to its element type.
            _ = UnsafeMutableRawBufferPointer(a).bindMemory(to: Double.self)
        }
        var src = a
        var dst = b
        for pass in 0..<4 {
            let shift = UInt64(pass * 16)
            c.initialize(repeating: 0)
            for k in src { c[Int((k >> shift) & 0xFFFF)] += 1 }
            // A digit shared by every key leaves the order unchanged: skip the pass.
            if c[Int((src[0] >> shift) & 0xFFFF)] == n { continue }
            var total = 0
            for i in 0..<c.count {
                let k = c[i]
                c[i] = total
                total += k
            }
            for k in src {
                let d = Int((k >> shift) & 0xFFFF)
                dst[c[d]] = k
                c[d] += 1
            }
            swap(&src, &dst)
        }
        if src.baseAddress != a.baseAddress {
            for i in 0..<n { a[i] = src[i] }
        }
    }
}
