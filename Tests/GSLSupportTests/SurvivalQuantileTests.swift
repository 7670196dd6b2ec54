import GSLSupport
import Testing

/// The survival view of time to success: quantiles over every operation, those that never
/// succeeded counted as +∞ at the top (``Statistics/survivalQuantile(sorted:total:_:)``).
struct SurvivalQuantileTests {
    /// By hand, GSL's interpolation (h = f·(n − 1), i = ⌊h⌋, δ = h − i) over all n values with the
    /// missing ones as +∞ at the top; levels and values exact in binary so every expected value is exact:
    ///
    ///     5 operations, successes {1, 2, 4, 8} (x[4] = ∞), h = 4f:
    ///       f 0 → h 0 → 1;  0.5 → h 2 → 4;  0.625 → h 2.5 → 0.5·4 + 0.5·8 = 6;
    ///       0.75 → h 3 → x[3] = 8 (δ = 0: ∞ weighs nothing);  0.8125 → h 3.25 → weighs x[4] = ∞ by 0.25 → ∞;  1 → ∞
    ///     3 operations, successes {2}: 0 → 2;  0.25 → h 0.5 → weighs x[1] = ∞ → ∞;  0.5 → h 1 → x[1] = ∞
    ///     3 operations, no success: ∞ at every level, 0 included
    static let vectors: [([Double], Int, Double, Double)] = [
        ([1, 2, 4, 8], 5, 0, 1), ([1, 2, 4, 8], 5, 0.5, 4), ([1, 2, 4, 8], 5, 0.625, 6), ([1, 2, 4, 8], 5, 0.75, 8),
        ([1, 2, 4, 8], 5, 0.8125, .infinity), ([1, 2, 4, 8], 5, 1, .infinity),
        ([2], 3, 0, 2), ([2], 3, 0.25, .infinity), ([2], 3, 0.5, .infinity),
        ([], 3, 0, .infinity), ([], 3, 0.5, .infinity), ([], 3, 1, .infinity)
    ]

    @Test("survival quantiles over successes and +∞ for the rest, worked out by hand", arguments: vectors)
    func byHand(xs: [Double], total: Int, f: Double, expected: Double) {
        #expect(Statistics.survivalQuantile(sorted: xs, total: total, f) == expected)
    }

    /// The brief's case: 10 operations, 9 succeeded after 1, 2, …, 9 s. By hand with h = 9f:
    /// p50 → h 4.5 → 0.5·5 + 0.5·6 = 5.5 (exact); p80 → h 7.2 → 8 + 0.2·(9 − 8) = 8.2;
    /// p90 → h 8.1 → weighs x[9] = ∞ by 0.1 → never; p99 → h 8.91 → never. Among the successes
    /// alone (n = 9, h = 8f) p90 would read 8 + 0.2·1 = 8.2 and p99 8.92 + … = 8.92: finite.
    @Test("10 operations, 9 successes at 1…9 s: p50 5.5, p80 8.2, p90 and p99 never; among successes p99 8.92")
    func nineOfTen() {
        let xs = (1...9).map(Double.init)
        #expect(Statistics.survivalQuantile(sorted: xs, total: 10, 0.5) == 5.5)
        #expect(abs(Statistics.survivalQuantile(sorted: xs, total: 10, 0.8) - 8.2) < 1e-12)
        #expect(Statistics.survivalQuantile(sorted: xs, total: 10, 0.9) == .infinity)
        #expect(Statistics.survivalQuantile(sorted: xs, total: 10, 0.99) == .infinity)
        // h = 0.99·8 = 7.92 → 8 + 0.92·(9 − 8).
        #expect(abs(Statistics.quantile(sorted: xs, 0.99) - 8.92) < 1e-12)
        #expect(xs.withUnsafeBufferPointer { Statistics.survivalMean($0, total: 10) } == .infinity)
    }

    @Test("every operation succeeded: the survival quantile is GSL's own, bit for bit; the mean GSL's mean")
    func allSucceeded() {
        let xs: [Double] = [0.1, 0.3, 0.7, 1.9, 2.2, 5.0]
        for k in 0...100 {
            let f = Double(k) / 100
            #expect(Statistics.survivalQuantile(sorted: xs, total: xs.count, f) == Statistics.quantile(sorted: xs, f))
        }
        // (0.1 + 0.3 + 0.7 + 1.9 + 2.2 + 5.0) / 6 = 10.2 / 6 = 1.7.
        #expect(abs(xs.withUnsafeBufferPointer { Statistics.survivalMean($0, total: 6) } - 1.7) < 1e-12)
    }

    @Test("no operation at all: NaN (undefined), not never")
    func noOperations() {
        #expect(Statistics.survivalQuantile(sorted: [], total: 0, 0.5).isNaN)
        #expect([Double]().withUnsafeBufferPointer { Statistics.survivalMean($0, total: 0) }.isNaN)
    }
}
