import Foundation
import GSLSupport
import RetryStormEngine
import RetryStormKit
import RetryStormReport
import RetryStormResults
import RetryStormScenario
import RetryStormVocabulary
import TestSupport
import Testing

/// From CSV rows to chart values: means over replications, rates per second, confidence
/// intervals, averaged quantiles, the long-format tables, tune.json and the incident marks.
@Suite("Charts data")
struct ChartsDataTests {
    /// A timeseries.csv of `rows`, each a variant, a replication and the named columns' values
    /// (every other column 0).
    static func series(_ rows: [(String, Int, [String: String])]) -> String {
        var text = TimeSeriesRecord.columnNames.joined(separator: ",") + "\n"
        for (variant, replication, values) in rows {
            text += ([variant, String(replication)] + TimeSeriesRecord.columns.map { values[$0.name] ?? "0" }).joined(separator: ",") + "\n"
        }
        return text
    }

    static func means(_ text: String, fallback: Double) throws -> [VariantTimeSeries] {
        VariantTimeSeries.means(try ResultsCodec.timeSeries(text, file: "t.csv"), fallbackBucket: fallback)
    }

    @Test("time series: mean over replications per bucket, bucket width from t_s spacing, rates per second")
    func timeSeries() throws {
        let text = Self.series([
            ("a", 0, ["t_s": "0.000", "capacity_per_s": "100.000", "offered": "10"]),
            ("a", 0, ["t_s": "2.000", "capacity_per_s": "20.000", "offered": "30", "queue_len": "8"]),
            ("a", 1, ["t_s": "0.000", "capacity_per_s": "100.000", "offered": "14"]),
            ("a", 1, ["t_s": "2.000", "capacity_per_s": "20.000", "offered": "50", "queue_len": "10"]),
            ("b", 0, ["t_s": "0.000", "capacity_per_s": "100.000", "offered": "1"])
        ])
        let series = try Self.means(text, fallback: 5)
        #expect(series.map(\.variant) == ["a", "b"])
        let a = series[0]
        #expect(a.replications == 2 && a.bucketSeconds == 2 && a.times == [0, 2])
        #expect(a.mean(.offered) == [12, 40])
        #expect(a.perSecond(.offered) == [6, 20])
        #expect(a.perSecond(.capacityPerSecond) == [100, 20])  // already per second
        #expect(a.mean(.queueLength) == [0, 9])  // a level, not divided
        #expect(series[1].bucketSeconds == 5)  // one bucket: the scenario's width
    }

    @Test("time series: merging keeps counts' sums and levels' means")
    func merging() throws {
        let text = Self.series(
            (0..<5).map { i in ("a", 0, ["t_s": "\(i).000", "capacity_per_s": "10.000", "offered": "\(i)", "queue_len": "\(2 * i)"]) })
        let series = try Self.means(text, fallback: 1)[0]
        let (merged, factor) = series.merged(maxBuckets: 2)
        #expect(factor == 3)
        #expect(merged.times == [0, 3] && merged.bucketSeconds == 3)
        #expect(merged.mean(.offered) == [3, 10.5])  // the short last run scaled to 3 buckets
        #expect(merged.perSecond(.offered) == [1, 3.5])
        #expect(merged.mean(.queueLength) == [2, 7])
        #expect(series.merged(maxBuckets: 5).factor == 1)
    }

    @Test("time series: a negative count, a fraction of a count, a missing column are bad input naming file, line and column")
    func timeSeriesFaults() throws {
        #expect(throws: ResultsError("t.csv:2: column 'offered': expected a finite number ≥ 0 (got '-1')")) {
            try ResultsCodec.timeSeries(Self.series([("a", 0, ["offered": "-1"])]), file: "t.csv")
        }
        #expect(throws: ResultsError("t.csv:2: column 'offered': expected a whole number (got '1.5')")) {
            try ResultsCodec.timeSeries(Self.series([("a", 0, ["offered": "1.5"])]), file: "t.csv")
        }
        #expect(throws: ResultsError("t.csv: has no data rows")) { try ResultsCodec.timeSeries(Self.series([]), file: "t.csv") }
        #expect(throws: ResultsError("t.csv:2: column 'replication': expected a replication index (got 'x')")) {
            try ResultsCodec.timeSeries(Self.series([("a", 0, [:])]).replacingOccurrences(of: "a,0,", with: "a,x,"), file: "t.csv")
        }
        #expect(throws: ResultsError("t.csv:1: missing column 'held_back'")) {
            try ResultsCodec.timeSeries(Self.series([("a", 0, [:])]).replacingOccurrences(of: ",held_back", with: ",held_bak"), file: "t.csv")
        }
    }

    @Test("summaries: GSL's Student-t interval over replications, cut at 0 for a count; inf stays inf; one replication has no spread")
    func summaries() throws {
        func row(_ v: String, _ r: Int, _ seed: String, _ values: [String: String]) -> String {
            ([v, String(r), seed, "10"] + SummaryRecord.metrics.map { values[$0.name] ?? "0" }).joined(separator: ",")
        }
        let text =
            ([SummaryRecord.columns.joined(separator: ",")] + [
                row("a", 0, "18446744073709551615", ["tts_p50_s": "1.0", "gave_up": "0", "recovery_s": "5"]),
                row("a", 1, "18446744073709551615", ["tts_p50_s": "2.0", "gave_up": "0", "recovery_s": "inf"]),
                row("a", 2, "18446744073709551615", ["tts_p50_s": "3.0", "gave_up": "9", "recovery_s": "7"]),
                row("b", 0, "7", ["tts_p50_s": "1.5", "tts_p99_s": "nan"])
            ]).joined(separator: "\n") + "\n"
        let records = try ResultsCodec.summaries(text, file: "s.csv")
        #expect(records.map(\.seed) == [.max, .max, .max, 7])
        let m = MetricTable(names: ["a", "b"], parameters: [[], []], parameterPaths: [], summaries: records)
        #expect(m.interval("a", .ttsP50) == Statistics.confidenceInterval95([1, 2, 3]).clamped(to: 0...Double.infinity))
        #expect(m.interval("a", .recovery)?.mean == .infinity)
        #expect(m.interval("b", .ttsP50) == ConfidenceInterval(mean: 1.5, low: 1.5, high: 1.5, count: 1))
        #expect(m.interval("b", .ttsP99)?.mean.isNaN == true)
        // gave_up {0, 0, 9}: mean 3, t-interval 3 ± 4.303·5.196/√3 = [−9.9, 15.9], cut at 0.
        let gaveUp = try #require(m.interval("a", .gaveUp))
        #expect(gaveUp.mean == 3 && gaveUp.low == 0 && abs(gaveUp.high - (3 + 4.302652729749464 * 27.0.squareRoot() / 3.0.squareRoot())) < 1e-9)
    }

    @Test("quantiles: averaged level by level over the replications that had successes")
    func quantiles() throws {
        let text = "variant,replication,quantile,tts_s\na,0,0.000,1.0\na,0,0.500,2.0\na,0,1.000,4.0\na,1,0.000,3.0\na,1,0.500,4.0\na,1,1.000,8.0\n"
        let q = VariantQuantiles.means(try ResultsCodec.quantiles(text, file: "q.csv"))
        #expect(q == [VariantQuantiles(variant: "a", replications: 2, levels: [0, 0.5, 1], seconds: [2, 3, 6])])
        #expect(q[0].seconds(at: 0.49) == 3)
        #expect(throws: ResultsError("q.csv:2: column 'quantile': expected a level between 0 and 1 (got '1.5')")) {
            try ResultsCodec.quantiles("variant,replication,quantile,tts_s\na,0,1.5,1\n", file: "q.csv")
        }
    }

    @Test("sweep.csv and compare.csv: swept parameters between variant and metric, values as written; the differences optional")
    func statisticsTable() throws {
        let text = """
            variant,policy.backoff.base,policy.backoff.max,metric,mean,ci95_low,ci95_high,replications
            base,250ms,2s,tts_p99_s,5.5,4.5,6.5,2
            base,500ms,2s,tts_p99_s,nan,nan,nan,2

            """
        let (rows, parameters, differences) = try ResultsCodec.statistics(text, file: "sweep.csv")
        #expect(parameters == ["policy.backoff.base", "policy.backoff.max"] && !differences)
        #expect(rows.map(\.parameters) == [["250ms", "2s"], ["500ms", "2s"]] && rows[0].high == 6.5 && rows[1].mean.isNaN)
        let compare =
            "variant,metric,mean,ci95_low,ci95_high,replications,diff_mean,diff_ci95_low,diff_ci95_high\na,gave_up,1,0,2,3,,,\nb,gave_up,2,1,3,3,1,0.5,1.5\n"
        let (c, _, withDiffs) = try ResultsCodec.statistics(compare, file: "compare.csv")
        #expect(withDiffs && c[0].difference == nil && c[1].difference?.low == 0.5 && c[0].metric == .gaveUp)
        #expect(
            throws: ResultsError(
                "compare.csv:1: expected the columns variant,[swept parameters…,]metric,mean,ci95_low,ci95_high,replications[,diff_mean,diff_ci95_low,diff_ci95_high]"
            )
        ) {
            try ResultsCodec.statistics("variant,metric,mean,low,high,replications\n", file: "compare.csv")
        }
        #expect(throws: ResultsError("compare.csv:2: column 'replications': expected a whole number ≥ 0 (got '2.5')")) {
            try ResultsCodec.statistics("variant,metric,mean,ci95_low,ci95_high,replications\na,gave_up,1,1,1,2.5\n", file: "compare.csv")
        }
        // A metric is one of summary.csv's columns, never a default entry for an unknown name.
        #expect(throws: ResultsError("compare.csv:2: column 'metric': 'm' is not a metric (summary.csv column)")) {
            try ResultsCodec.statistics("variant,metric,mean,ci95_low,ci95_high,replications\na,m,1,1,1,2\n", file: "compare.csv")
        }
    }

    @Test(
        "decode(encode(x)) == x for every fixture directory, and encoding it again gives the same bytes",
        arguments: ["run-2reps", "compare", "sweep", "populations"])
    func roundTrip(directory: String) throws {
        let results = try ResultsCodec.decode(directory: ChartsFixtures.path(directory))
        let files = ResultsCodec.encode(results)
        let again = try ResultsCodec.decode(Dictionary(files, uniquingKeysWith: { a, _ in a }), directory: directory)
        #expect(again == results)
        #expect(ResultsCodec.encode(again).map(\.1) == files.map(\.1))
    }

    @Test(
        "tune.json (Codable): objective, constraints, chosen point; missing keys and wrong types are named, unknown keys are left for later versions")
    func tuning() throws {
        let json =
            #"{"objective": {"metric": "tts_p99_s"}, "constraints": [{"metric": "peak_load_ratio", "max": 1}], "chosen": {"point": {"policy.backoff.base": "250ms"}}}"#
        let t = try TuningChoice.parse(Data(json.utf8), file: "tune.json")
        #expect(t.objective?.metric == .ttsP99 && t.objective?.goal == .min)
        #expect(t.constraints == [TuningChoice.Constraint(metric: .peakLoadRatio, max: 1)])
        #expect(t.chosenPoint == ["policy.backoff.base": "250ms"] && t.chosenVariant == nil)
        #expect(t.constraints[0].admits(1) && !t.constraints[0].admits(1.01) && !t.constraints[0].admits(.nan))
        let faults = [
            ("[1]", "tune.json: expected a JSON object with objective, constraints and chosen"),
            ("{", "tune.json: is not valid JSON"),
            (#"{"constraints": []}"#, "tune.json: 'objective' is missing"),
            (
                #"{"objective": {"metric": "x"}, "constraints": [{"metric": "x", "max": "1"}]}"#,
                "tune.json: 'constraints[0].max' has the wrong type or no value"
            ),
            (#"{"objective": {"metric": "x", "goal": "lowest"}, "constraints": []}"#, "tune.json: 'objective.goal' must be \"min\" or \"max\""),
            (
                #"{"objective": {"metric": "x"}, "constraints": [], "chosen": {"point": {"a": 1}}}"#,
                "tune.json: 'chosen.point.a' has the wrong type or no value"
            ),
            (
                #"{"objective": {"metric": "tts_p99"}, "constraints": []}"#,
                "tune.json: 'objective.metric': 'tts_p99' is not a metric (summary.csv column)"
            ),
            (
                #"{"objective": {"metric": "tts_p99_s"}, "constraints": [{"metric": "lost_fraction", "max": 1}]}"#,
                "tune.json: 'constraints[0].metric': 'lost_fraction' is not a metric (summary.csv column)"
            )
        ]
        for (text, message) in faults {
            #expect(throws: ResultsError(message)) { try TuningChoice.parse(Data(text.utf8), file: "tune.json") }
        }
    }

    @Test("incident marks: the scenario's window when it reproduces capacity_per_s, else the column's")
    func incident() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("run-2reps"))
        let series = run.timeSeries[0]
        let window = try #require(IncidentMarks.window(series, scenario: run.scenario.base))
        // The outage at 10% from 5 s to 15 s ramps back linearly by 25 s: below nominal 5–25 s.
        #expect([window.from, window.to, window.fraction, window.disturbedAt] == [5, 25, 0.1, 5])
        #expect(IncidentMarks.label(window) == "capacity down to 10% 5–25 s")
        // A scenario copy without the run's --set overrides: the capacity column decides.
        let moved = run.scenario.text.replacingOccurrences(of: "at: 5s", with: "at: 20s")
        let other = try ScenarioLoader.parse(text: moved, path: "s.yaml")
        #expect(!IncidentMarks.matches(series, scenario: other.base))
        let fallback = try #require(IncidentMarks.window(series, scenario: other.base))
        #expect([fallback.from, fallback.to, fallback.disturbedAt] == [5, 15, 5])
        #expect(
            IncidentMarks.annotations(series, scenario: run.scenario.base, recovery: 15) == [
                .xInterval(from: 5, to: 25, label: "capacity down to 10% 5–25 s"), .xMarker(at: 20, label: "recovered +15 s")
            ])
        #expect(
            IncidentMarks.annotations(
                series, scenario: run.scenario.base, recovery: .infinity,
                wording: .compact(windowLabel: false)) == [.xInterval(from: 5, to: 25, label: "")])
    }
}
