import GSLSupport
import RetryStormResults
import TestSupport
import Testing

/// The marks' rule (issue 26): a mark means "choose this for that column". Checked on hand-made
/// tables whose verdicts follow from arithmetic, and on random tables against the three tests
/// written out again here from the paired intervals.
struct BestMarksTests {
    /// A table of `values[point][replication]` for the metrics given, every other metric 0.
    static func table(_ columns: [Metric: [[Double]]], names: [String]? = nil) -> MetricTable {
        let points = columns.values.first?.count ?? 0
        let reps = columns.values.first?.first?.count ?? 0
        let names = names ?? (0..<points).map { "p\($0)" }
        var rows: [SummaryRecord] = []
        for p in 0..<points {
            for r in 0..<reps {
                var values = [Double](repeating: 0, count: SummaryRecord.metrics.count)
                for (metric, xs) in columns {
                    if let i = SummaryRecord.metrics.firstIndex(of: metric) { values[i] = xs[p][r] }
                }
                rows.append(SummaryRecord(variant: names[p], replication: r, seed: 1, clients: 1, values: values))
            }
        }
        return MetricTable(names: names, parameters: names.map { _ in [] }, parameterPaths: [], summaries: rows)
    }

    /// p1 = p0 + 0.05 s in every replication: the paired interval is [0.05, 0.05], clear of 0, but
    /// 0.05 / 10.05 = 0.5% is under the 1% minimum — about the same. + 0.2 s (2%) is clear.
    @Test("a real difference under 1% is about the same; over it, the better point is marked")
    func minimumRelative() {
        let base: [Double] = [10, 10.1, 9.9]
        let small = Self.table([.ttsP99: [base, base.map { $0 + 0.05 }]])
        #expect(small.compare(0, 1, on: .ttsP99) == .aboutTheSame)
        let marks = BestMarks(small, metric: .ttsP99, among: [0, 1])
        #expect(marks.verdict == .withheld && marks.withheld == .aboutTheSame && marks.marked.isEmpty)
        let large = Self.table([.ttsP99: [base, base.map { $0 + 0.2 }]])
        #expect(large.compare(0, 1, on: .ttsP99) == .clearlyBetter)
        #expect(BestMarks(large, metric: .ttsP99, among: [0, 1]).marked == [0])
        // --min-difference 0%: the interval alone decides, so 0.5% is clear.
        var loose = small
        loose.minimumDifference = MinimumDifference(relative: 0, sharePoints: 0)
        #expect(BestMarks(loose, metric: .ttsP99, among: [0, 1]).marked == [0])
    }

    /// The gRPC throttling: 102 more operations lost in 250,000 is 0.0408 points — clear by
    /// its interval (every replication the same), and under the 0.1-point minimum for shares.
    @Test("0.04 points more lost is not 'clearly more'; 0.2 points is")
    func minimumShare() {
        let none: [Double] = [0.0100, 0.0102, 0.0098]
        let grpc = none.map { $0 + 102.0 / 250_000 }
        let t = Self.table([.gaveUpFraction: [none, grpc]])
        #expect(!t.losesClearlyMore(1, than: 0))
        #expect(t.compare(0, 1, on: .gaveUpFraction) == .aboutTheSame)
        let u = Self.table([.gaveUpFraction: [none, none.map { $0 + 0.002 }]])
        #expect(u.losesClearlyMore(1, than: 0) && u.compare(0, 1, on: .gaveUpFraction) == .clearlyBetter)
    }

    /// The jitter comparison: the variant with the lowest spike (and p99) loses 12.6% of
    /// its operations, the others 0%. It gets no mark but on the lost share, and since it beats
    /// both others clearly, neither of them gets one either (each is clearly beaten).
    @Test("a variant that loses clearly more gets no mark but on the lost share, and the ones it beats none either")
    func losesMore() {
        let t = Self.table(
            [
                .peakLoadRatio: [[8.8, 8.9, 8.7], [8.3, 8.4, 8.35], [7.2, 7.3, 7.25]],
                .gaveUpFraction: [[0, 0, 0], [0, 0, 0], [0.125, 0.127, 0.126]]
            ], names: ["exponential", "equal-jitter", "decorrelated"])
        let peak = BestMarks(t, metric: .peakLoadRatio, among: [0, 1, 2])
        #expect(peak.losesMore == [2] && peak.barred == [2])
        #expect(peak.marked.isEmpty && peak.verdict == .withheld && peak.withheld == .aheadLosesMore)
        // On the lost share the rule does not apply: exponential and equal-jitter share it.
        let lost = BestMarks(t, metric: .lostFraction, among: [0, 1, 2])
        #expect(lost.marked == [0, 1] && lost.verdict == .shared && lost.behind == [2])
        // Without the losing variant, equal-jitter is clearly lower than exponential (4.8%).
        #expect(BestMarks(t, metric: .peakLoadRatio, among: [0, 1]).marked == [1])
    }

    /// One point left when the others lose more is not best by default: marked only if it is
    /// clearly better than another on the column itself.
    @Test("the one point that does not lose more is marked only when it beats another clearly")
    func noBestByDefault() {
        let t = Self.table([
            .ttsP99: [[20, 21, 19], [20.05, 21.05, 19.05]],
            .gaveUpFraction: [[0, 0, 0], [0.05, 0.06, 0.05]]
        ])
        let marks = BestMarks(t, metric: .ttsP99, among: [0, 1])
        #expect(marks.marked.isEmpty && marks.verdict == .withheld && marks.withheld == .aboutTheSame)
    }

    /// The breaker: it gives up on no operation but leaves 50% unfinished at the horizon;
    /// the plain retrier gives up on 29% and leaves none. The breaker loses clearly more in total,
    /// so it gets no mark for giving up least — and the plain retrier, clearly behind it on gave
    /// up, none either.
    @Test("a breaker that gives up on nothing but leaves half its operations unfinished is not marked for giving up least")
    func unfinishedBreaker() {
        let t = Self.table([
            .gaveUpFraction: [[0.29, 0.292, 0.288], [0, 0, 0]],
            .unfinishedFraction: [[0, 0, 0], [0.5, 0.49, 0.51]]
        ])
        let gaveUp = BestMarks(t, metric: .gaveUpFraction, among: [0, 1])
        #expect(gaveUp.losesMore == [1] && gaveUp.marked.isEmpty && gaveUp.withheld == .aheadLosesMore)
        #expect(BestMarks(t, metric: .lostFraction, among: [0, 1]).marked == [0])
    }

    @Test("--min-difference parses N%, Npt and both; refuses the rest")
    func parsing() {
        #expect(MinimumDifference(parsing: "2%") == MinimumDifference(relative: 0.02, sharePoints: 0.001))
        #expect(MinimumDifference(parsing: "0.5pt") == MinimumDifference(relative: 0.01, sharePoints: 0.005))
        #expect(MinimumDifference(parsing: "0.5pt, 5%") == MinimumDifference(relative: 0.05, sharePoints: 0.005))
        for bad in ["", "2", "2x", "-1%", "1%,2%", "inf%", "200pt"] { #expect(MinimumDifference(parsing: bad) == nil, "\(bad)") }
        #expect(MinimumDifference.standard.description == "1% relative, 0.1 points for shares")
    }

    // MARK: - Random tables

    /// The paired verdict written out from the definition: the Student-t 95% interval of the
    /// per-replication differences apart from 0 on the better side, and the mean difference over
    /// the minimum (1% of the larger mean; 0.1 points for shares).
    static func clearlyBetter(_ a: [Double], _ b: [Double], lowerIsBetter: Bool, share: Bool) -> Bool {
        let diffs = zip(a, b).map { $0 == $1 ? 0 : $0 - $1 }
        let ci = Statistics.confidenceInterval95(diffs)
        let ma = a.reduce(0, +) / Double(a.count)
        let mb = b.reduce(0, +) / Double(b.count)
        let minimum = share ? 0.001 : 0.01 * max(abs(ma), abs(mb))
        // Both means never: both print "never", about the same.
        let matters = !(ma.isInfinite && mb.isInfinite) && (ci.mean.isInfinite || ma.isInfinite || mb.isInfinite || abs(ci.mean) > minimum)
        guard matters else { return false }
        return lowerIsBetter ? ci.high < 0 : ci.low > 0
    }

    /// 400 random comparisons of 2–6 points over 2–6 replications, with p99 times (some never),
    /// spikes close enough to tie and give-up shares: every mark passes the three tests, every
    /// point that passes them is marked, and the verdict matches.
    @Test("on random tables every mark passes the three tests, and every point that passes them is marked")
    func randomTables() {
        var rng = SplitMix64(seed: 26)
        var seen: [BestMarks.Verdict: Int] = [:]
        var barred = 0
        for round in 0..<400 {
            let n = 2 + rng.int(5)
            let reps = 2 + rng.int(5)
            var p99: [[Double]] = []
            var peak: [[Double]] = []
            var gaveUp: [[Double]] = []
            for _ in 0..<n {
                let level = 10 + 10 * rng.uniform()
                let spike = 2 + rng.uniform()
                let loses = rng.int(3) == 0 ? 0.02 * rng.uniform() : 0
                p99.append((0..<reps).map { _ in rng.int(12) == 0 ? .infinity : level * (1 + 0.05 * rng.uniform()) })
                peak.append((0..<reps).map { _ in spike + 0.03 * rng.uniform() })
                gaveUp.append((0..<reps).map { _ in loses * (1 + 0.2 * rng.uniform()) })
            }
            // Values as summary.csv writes them (six decimals), which the table reads.
            func written(_ xs: [[Double]]) -> [[Double]] { xs.map { $0.map { $0.isFinite ? ($0 * 1e6).rounded() / 1e6 : $0 } } }
            p99 = written(p99)
            peak = written(peak)
            gaveUp = written(gaveUp)
            let t = Self.table([.ttsP99: p99, .peakLoadRatio: peak, .gaveUpFraction: gaveUp])
            let points = Array(0..<n)
            let losers = Set(
                points.filter { p in points.contains { q in q != p && Self.clearlyBetter(gaveUp[q], gaveUp[p], lowerIsBetter: true, share: true) } })
            let lostShare = [(Metric.lostFraction, gaveUp, true)]
            for (metric, values, share) in [(Metric.ttsP99, p99, false), (.peakLoadRatio, peak, false), (.gaveUpFraction, gaveUp, true)] + lostShare {
                let marks = BestMarks(t, metric: metric, among: points)
                // Nothing but give-ups is lost here, so the lost share is gave up; only it is exempt.
                let loss = metric == .lostFraction
                func better(_ a: Int, _ b: Int) -> Bool { a != b && Self.clearlyBetter(values[a], values[b], lowerIsBetter: true, share: share) }
                let passes = Set(
                    points.filter { p in
                        (loss || !losers.contains(p)) && !points.contains { better($0, p) } && points.contains { better(p, $0) }
                    })
                #expect(marks.marked == passes, "round \(round), \(metric.name): marked \(marks.marked.sorted()), by the rule \(passes.sorted())")
                #expect(marks.losesMore == (loss ? [] : losers), "round \(round), \(metric.name)")
                for p in marks.marked {
                    #expect(!points.contains { better($0, p) }, "round \(round): a point beats the mark clearly")
                }
                seen[marks.verdict, default: 0] += 1
                barred += marks.barred.isEmpty ? 0 : 1
                let expected: BestMarks.Verdict = passes.isEmpty ? .withheld : passes.count == 1 ? .single : .shared
                #expect(marks.verdict == expected, "round \(round), \(metric.name)")
                if marks.verdict == .withheld {
                    let anyClear = points.contains { a in points.contains { better(a, $0) } }
                    #expect((marks.withheld == .aboutTheSame) == !anyClear, "round \(round), \(metric.name)")
                }
            }
        }
        // The tables exercise every verdict, and marks barred by losses (not a vacuous pass).
        #expect(
            seen[.single, default: 0] > 50 && seen[.shared, default: 0] > 20 && seen[.withheld, default: 0] > 50 && barred > 20,
            "\(seen), barred \(barred)")
    }
}
