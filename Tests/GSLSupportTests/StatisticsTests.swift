import GSLSupport
import Testing

struct StatisticsTests {
    @Test("mean, sd and quantiles of 1…10 (hand-computed: mean 5.5, sd √(82.5/9), median 5.5, q0.9 = 9.1)")
    func descriptive() {
        let xs = (1...10).map(Double.init)
        #expect(Statistics.mean(xs) == 5.5)
        #expect(abs(Statistics.standardDeviation(xs) - (82.5 / 9).squareRoot()) < 1e-12)
        #expect(Statistics.quantile(sorted: xs, 0.5) == 5.5)
        // GSL interpolates at index f·(n−1) = 8.1 → 9 + 0.1·(10 − 9).
        #expect(abs(Statistics.quantile(sorted: xs, 0.9) - 9.1) < 1e-12)
        #expect(Statistics.quantile(sorted: xs, 1) == 10)
    }

    /// Type-7 quantiles as `gsl_stats_quantile_from_sorted_data` computes them (GSL manual,
    /// "Median and Percentiles"): with h = f·(n − 1), i = ⌊h⌋ and δ = h − i, the value is
    /// (1 − δ)·x[i] + δ·x[i+1], or x[n−1] when i = n − 1. By hand, for values and levels exact in
    /// binary so that every expected value is exact:
    ///
    ///     {1, 2, 4, 8}:      f 0 → h 0 → 1;  0.25 → h 0.75 → 0.25·1 + 0.75·2 = 1.75;
    ///                        0.5 → h 1.5 → 0.5·2 + 0.5·4 = 3;  0.75 → h 2.25 → 0.75·4 + 0.25·8 = 5;  1 → 8
    ///     {1, 2, 4, 8, 16}:  0.125 → h 0.5 → 1.5;  0.25 → h 1 → 2;  0.5 → h 2 → 4;  0.875 → h 3.5 → 12
    ///     {10, 20}:          0.25 → 12.5;  0.5 → 15;  1 → 20
    ///     {7}:               any level → 7
    static let quantileVectors: [([Double], Double, Double)] = [
        ([1, 2, 4, 8], 0, 1), ([1, 2, 4, 8], 0.25, 1.75), ([1, 2, 4, 8], 0.5, 3), ([1, 2, 4, 8], 0.75, 5), ([1, 2, 4, 8], 1, 8),
        ([1, 2, 4, 8, 16], 0.125, 1.5), ([1, 2, 4, 8, 16], 0.25, 2), ([1, 2, 4, 8, 16], 0.5, 4), ([1, 2, 4, 8, 16], 0.875, 12),
        ([10, 20], 0.25, 12.5), ([10, 20], 0.5, 15), ([10, 20], 1, 20),
        ([7], 0, 7), ([7], 0.5, 7), ([7], 1, 7)
    ]

    @Test("both quantile overloads (array and buffer) give GSL's type-7 values, worked out by hand", arguments: quantileVectors)
    func quantiles(xs: [Double], f: Double, expected: Double) {
        #expect(Statistics.quantile(sorted: xs, f) == expected)
        #expect(xs.withUnsafeBufferPointer { Statistics.quantile(sorted: $0, f) } == expected)
    }

    @Test("no values, no quantile: NaN from both overloads (GSL itself would answer 0)")
    func emptyQuantile() {
        #expect(Statistics.quantile(sorted: [], 0.5).isNaN)
        #expect([Double]().withUnsafeBufferPointer { Statistics.quantile(sorted: $0, 0.5) }.isNaN)
    }

    @Test("95% CI of {1,2,3,4,5}: 3 ± t(0.975,4)·sd/√5 = 3 ± 2.776445·1.581139/2.236068")
    func confidenceInterval() {
        let ci = Statistics.confidenceInterval95([1, 2, 3, 4, 5])
        let half = 2.7764451051977987 * 1.5811388300841898 / 5.0.squareRoot()
        #expect(ci.mean == 3)
        #expect(abs(ci.low - (3 - half)) < 1e-9 && abs(ci.high - (3 + half)) < 1e-9)
        let one = Statistics.confidenceInterval95([4])
        #expect(one.low == 4 && one.high == 4)
        // A replication that never recovered makes the mean recovery infinite, not undefined.
        let never = Statistics.confidenceInterval95([12, .infinity, 30])
        #expect(never.mean == .infinity && never.low == .infinity && never.high == .infinity)
        #expect(Statistics.confidenceInterval95([1, .nan]).mean.isNaN)
    }

    @Test("radix sort of non-negative doubles equals the standard sort; mixed signs fall back to gsl_sort")
    func sorting() {
        var seed: UInt64 = 99
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var xs = (0..<50_000).map { _ in next() * 600 }
        xs += [0, 0, 1e-9, 599.999, 1e-300]
        var sorted = xs
        Statistics.sort(&sorted)
        #expect(sorted == xs.sorted())
        var mixed = [3.0, -1, 2, -5, 0]
        Statistics.sort(&mixed)
        #expect(mixed == [-5, -1, 0, 2, 3])
    }

    /// Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of
    /// seven methods", Statistics in Medicine 17:857–872, Table II, method 3 (Wilson score, no
    /// continuity correction), to the four places it prints.
    @Test("Wilson's 95% interval: Newcombe's published examples, and 0 of 5 is [0, 0.434] not a point")
    func wilson() {
        func rounded(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
        for (k, n, low, high) in [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)] {
            let ci = Statistics.wilsonInterval95(successes: k, count: n)
            #expect(rounded(ci.low) == low && rounded(ci.high) == high, "\(k)/\(n): \(ci)")
            #expect(ci.mean == Double(k) / Double(n) && ci.count == n)
        }
        // z²/(n + z²) at 0 of n: 3.8415/8.8415 for 5 replications; 1 − that at 5 of 5.
        let none = Statistics.wilsonInterval95(successes: 0, count: 5)
        #expect(none.low == 0 && abs(none.high - 0.434482) < 1e-6)
        let all = Statistics.wilsonInterval95(successes: 5, count: 5)
        #expect(all.high == 1 && abs(all.low - 0.565518) < 1e-6)
        #expect(Statistics.wilsonInterval95(successes: 0, count: 0).mean.isNaN)
    }
}
