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
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
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
}
