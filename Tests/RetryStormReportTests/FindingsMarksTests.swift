import Foundation
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import TestSupport
import Testing

/// Every superlative in the findings agrees with ``BestMarks`` (issue 26): "finishes first" and
/// "keeps the spike lowest" name exactly the marked variants, "about the same" only where no
/// difference is clear, and "without losing clearly more" only where the leader loses more.
struct FindingsMarksTests {
    static let scenario = """
        name: marks
        seed: 1
        horizon: 60s
        clients: {count: 10, rate: 1/s, timeout: 1s}
        server: {capacity: 100/s}
        policy: {preset: aws-standard}
        """

    /// The report's findings for a compare of `names` whose metrics are `columns[metric][point][replication]`.
    static func findings(_ columns: [Metric: [[Double]]], names: [String]) throws -> (sentences: [String], table: MetricTable) {
        let reps = columns.values.first?.first?.count ?? 0
        var rows: [SummaryRecord] = []
        for (p, name) in names.enumerated() {
            for r in 0..<reps {
                var values = [Double](repeating: 0, count: SummaryRecord.metrics.count)
                values[SummaryRecord.metrics.firstIndex(of: .operations)!] = 1000
                for (metric, xs) in columns { values[SummaryRecord.metrics.firstIndex(of: metric)!] = xs[p][r] }
                rows.append(SummaryRecord(variant: name, replication: r, seed: 1, clients: 10, values: values))
            }
        }
        let results = StudyResults(kind: .compare, scenario: scenario, summaries: rows)
        let run = try RunDirectory(results: results, scenario: ScenarioLoader.parse(text: scenario, path: "marks.yaml"))
        let html = ReportPage.html(run, charts: [])
        let list = try #require(html.components(separatedBy: "<ul class=\"findings\">\n").dropFirst().first?.components(separatedBy: "</ul>").first)
        let sentences = list.split(separator: "\n").map {
            $0.replacingOccurrences(of: "<li>", with: "").replacingOccurrences(of: "</li>", with: "")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        return (sentences, run.metrics)
    }

    /// The subjects of a crowning sentence: the names before the verb ("a", "a and b", "a, b and c").
    static func subjects(_ sentence: String, verb: String) -> Set<String>? {
        guard let r = sentence.range(of: " \(verb)") else { return nil }
        let head = sentence[..<r.lowerBound]
        return Set(head.replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ", "))
    }

    @Test("on random comparisons, the findings crown exactly the marked variants, and say 'about the same' only without a clear difference")
    func randomComparisons() throws {
        var rng = SplitMix64(seed: 2026)
        let names = ["alpha", "bravo", "charlie", "delta"]
        var crowned = 0
        var withheld = 0
        for round in 0..<60 {
            let n = 2 + rng.int(3)
            let reps = 3
            var columns: [Metric: [[Double]]] = [.ttsP99: [], .peakLoadRatio: [], .gaveUpFraction: [], .ttsSuccessP99: []]
            for _ in 0..<n {
                let level = 10 + 4 * rng.uniform()
                let spike = 2 + 0.3 * rng.uniform()
                let loses = rng.int(3) == 0 ? 0.005 + 0.01 * rng.uniform() : 0
                let p99 = (0..<reps).map { _ in (level * (1 + 0.03 * rng.uniform()) * 1e6).rounded() / 1e6 }
                columns[.ttsP99]!.append(p99)
                columns[.ttsSuccessP99]!.append(p99)
                columns[.peakLoadRatio]!.append((0..<reps).map { _ in ((spike + 0.02 * rng.uniform()) * 1e6).rounded() / 1e6 })
                columns[.gaveUpFraction]!.append((0..<reps).map { _ in (loses * (1 + 0.1 * rng.uniform()) * 1e6).rounded() / 1e6 })
            }
            let (sentences, table) = try Self.findings(columns, names: Array(names.prefix(n)))
            let points = Array(0..<n)
            for (metric, one, many, what) in [
                (Metric.peakLoadRatio, "keeps the spike lowest", "keep the spike lowest", "peak load"),
                (.ttsP99, "finishes first", "finish first", "p99 time to success")
            ] {
                let marks = BestMarks(table, metric: metric, among: points)
                let marked = Set(marks.marked.map { table.names[$0] })
                let crowning = sentences.filter { $0.contains(" \(one):") || $0.contains(" \(many),") }
                switch marks.verdict {
                case .single, .shared:
                    crowned += 1
                    let s = try #require(crowning.first, "round \(round): no sentence crowns \(marked) on \(metric.name): \(sentences)")
                    let who = Self.subjects(s, verb: marks.verdict == .single ? one : many)
                    #expect(who == marked, "round \(round): \(s) — marked \(marked)")
                case .withheld:
                    withheld += 1
                    #expect(crowning.isEmpty, "round \(round): \(crowning) while no mark on \(metric.name)")
                    let same = sentences.contains { $0.hasPrefix("The \(what) is about the same across") }
                    #expect(same == (marks.withheld == .aboutTheSame), "round \(round), \(metric.name): \(sentences)")
                    let losing = sentences.contains { $0.contains("\(one) without losing clearly more operations") }
                    #expect(losing == (marks.withheld == .aheadLosesMore), "round \(round), \(metric.name): \(sentences)")
                case .none:
                    Issue.record("round \(round): three replications always judge")
                }
            }
        }
        #expect(crowned > 20 && withheld > 20, "crowned \(crowned), withheld \(withheld)")
    }

    /// The issue's compare: the variant with the lowest spike loses 12.6%; the findings crown no one
    /// for the spike, and the sentence on the p99 compares with a finite time, not "never".
    @Test("a spike bought by losing operations is not crowned; 'finishes first' is against a finite time")
    func jitterComparison() throws {
        let (sentences, _) = try Self.findings(
            [
                .peakLoadRatio: [[8.8, 8.9, 8.7], [8.3, 8.4, 8.35], [7.2, 7.3, 7.25]],
                .gaveUpFraction: [[0, 0, 0], [0, 0, 0], [0.125, 0.127, 0.126]],
                .ttsP99: [[63.7, 63.6, 63.8], [55.1, 55.0, 55.2], [.infinity, .infinity, .infinity]],
                .ttsSuccessP99: [[63.7, 63.6, 63.8], [55.1, 55.0, 55.2], [56.6, 56.5, 56.7]]
            ], names: ["exponential", "equal-jitter", "decorrelated"])
        #expect(sentences.contains { $0.hasPrefix("No variant keeps the spike lowest without losing clearly more operations: decorrelated (7.25×)") })
        #expect(
            sentences.contains {
                $0.hasPrefix("equal-jitter finishes first: p99 time to success 55.1 s") && $0.contains("against 63.7 s for the baseline exponential")
            })
        #expect(!sentences.contains { $0.contains("decorrelated keeps") || $0.contains("decorrelated finishes") })
    }
}

extension FindingsMarksTests {
    /// Two variants that never recover, in every replication: the findings call them about the
    /// same and quote "never" for both, with no paired difference of "0 s [0, 0]", which reads as
    /// two recoveries at the same moment.
    @Test("two nevers are about the same, with no paired difference quoted")
    func twoNevers() throws {
        let never = [Double](repeating: .infinity, count: 3)
        let (sentences, _) = try Self.findings(
            [
                .recovery: [never, never], .recovered: [[0, 0, 0], [0, 0, 0]], .ttsP50: [never, never], .ttsP99: [never, never],
                .gaveUpFraction: [[0.2, 0.21, 0.2], [0.2, 0.21, 0.2]]
            ], names: ["alpha", "bravo"])
        #expect(!sentences.contains { $0.contains("[0, 0]") || $0.contains("difference of 0") })
    }
}
