import Foundation
import GSLSupport
import RetryStormEngine
import RetryStormKit
import Testing

/// From CSV rows to chart values: means over replications, rates per second, confidence
/// intervals, averaged quantiles, the long-format tables, tune.json and the incident marks.
@Suite("Charts data")
struct ChartsDataTests {
    static let header = "variant,replication,t_s,capacity_per_s,offered,first_attempts,retries,served,succeeded,failed,timed_out,rejected,wasted,queue_len,gave_up"

    @Test("time series: mean over replications per bucket, bucket width from t_s spacing, rates per second")
    func timeSeries() throws {
        let text = Self.header + """

            a,0,0.000,100.000,10,10,0,10,10,0,0,0,0,0,0
            a,0,2.000,20.000,30,10,20,4,4,0,6,20,0,8,1
            a,1,0.000,100.000,14,14,0,14,14,0,0,0,0,0,0
            a,1,2.000,20.000,50,10,40,4,4,0,8,38,0,10,3
            b,0,0.000,100.000,1,1,0,1,1,0,0,0,0,0,0

            """
        let series = try TimeSeriesReader.read(try CSVDocument(text: text, file: "t.csv"), fallbackBucket: 5)
        #expect(series.map(\.variant) == ["a", "b"])
        let a = series[0]
        #expect(a.replications == 2 && a.bucketSeconds == 2 && a.times == [0, 2])
        #expect(a.mean(.offered) == [12, 40])
        #expect(a.perSecond(.offered) == [6, 20])
        #expect(a.perSecond(.capacityPerSecond) == [100, 20])  // already per second
        #expect(a.mean(.queueLength) == [0, 9])                 // a level, not divided
        #expect(a.mean(.blocked) == [0, 0])                     // optional column absent
        #expect(series[1].bucketSeconds == 5)                   // one bucket: the scenario's width
    }

    @Test("time series: merging keeps counts' sums and levels' means")
    func merging() throws {
        var text = Self.header + "\n"
        for i in 0..<5 { text += "a,0,\(i).000,10.000,\(i),\(i),0,0,0,0,0,0,0,\(2 * i),0\n" }
        let series = try TimeSeriesReader.read(try CSVDocument(text: text, file: "t.csv"), fallbackBucket: 1)[0]
        let (merged, factor) = series.merged(maxBuckets: 2)
        #expect(factor == 3)
        #expect(merged.times == [0, 3] && merged.bucketSeconds == 3)
        #expect(merged.mean(.offered) == [3, 10.5])  // the short last run scaled to 3 buckets
        #expect(merged.perSecond(.offered) == [1, 3.5])
        #expect(merged.mean(.queueLength) == [2, 7])
        #expect(series.merged(maxBuckets: 5).factor == 1)
    }

    @Test("time series: a negative count or time is bad input naming file, line and column")
    func timeSeriesFaults() throws {
        let text = Self.header + "\na,0,0.000,100.000,-1,0,0,0,0,0,0,0,0,0,0\n"
        #expect(throws: RunDirectoryError("t.csv:2: column 'offered': expected a finite number ≥ 0 (got '-1')")) {
            try TimeSeriesReader.read(try CSVDocument(text: text, file: "t.csv"), fallbackBucket: 1)
        }
        let noRows = Self.header + "\n"
        #expect(throws: RunDirectoryError("t.csv: has no data rows")) {
            try TimeSeriesReader.read(try CSVDocument(text: noRows, file: "t.csv"), fallbackBucket: 1)
        }
        let badReplication = Self.header + "\na,x,0.000,100.000,1,0,0,0,0,0,0,0,0,0,0\n"
        #expect(throws: RunDirectoryError("t.csv:2: column 'replication': expected a replication index (got 'x')")) {
            try TimeSeriesReader.read(try CSVDocument(text: badReplication, file: "t.csv"), fallbackBucket: 1)
        }
    }

    @Test("summaries: GSL's Student-t interval over replications; inf stays inf; one replication has no spread")
    func summaries() throws {
        let text = """
            variant,replication,seed,clients,tts_p50_s,tts_p99_s,recovery_s
            a,0,18446744073709551615,10,1.0,10,5
            a,1,18446744073709551615,10,2.0,20,inf
            a,2,18446744073709551615,10,3.0,30,7
            b,0,7,10,1.5,nan,0

            """
        let s = try ReplicationSummaries(try CSVDocument(text: text, file: "s.csv"))
        #expect(s.variants == ["a", "b"])
        #expect(s.seeds == ["18446744073709551615", "7"])
        #expect(s.metrics == ["clients", "tts_p50_s", "tts_p99_s", "recovery_s"])
        #expect(s.interval(variant: "a", metric: "tts_p50_s") == Statistics.confidenceInterval95([1, 2, 3]))
        #expect(s.interval(variant: "a", metric: "recovery_s").mean == .infinity)
        #expect(s.interval(variant: "b", metric: "tts_p50_s") == ConfidenceInterval(mean: 1.5, low: 1.5, high: 1.5, count: 1))
        #expect(s.interval(variant: "b", metric: "tts_p99_s").mean.isNaN)
        #expect(s.replications(variant: "a") == 3)
    }

    @Test("quantiles: averaged level by level over the replications that had successes")
    func quantiles() throws {
        let text = """
            variant,replication,quantile,tts_s
            a,0,0.000,1.0
            a,0,0.500,2.0
            a,0,1.000,4.0
            a,1,0.000,3.0
            a,1,0.500,4.0
            a,1,1.000,8.0

            """
        let q = try VariantQuantiles.read(try CSVDocument(text: text, file: "q.csv"))
        #expect(q == [VariantQuantiles(variant: "a", replications: 2, levels: [0, 0.5, 1], seconds: [2, 3, 6])])
        #expect(q[0].seconds(at: 0.49) == 3)
        #expect(throws: RunDirectoryError("q.csv:2: column 'quantile': expected a level between 0 and 1 (got '1.5')")) {
            try VariantQuantiles.read(try CSVDocument(text: "variant,replication,quantile,tts_s\na,0,1.5,1\n", file: "q.csv"))
        }
    }

    @Test("sweep.csv: swept parameters between variant and metric, values as written")
    func sweepTable() throws {
        let text = """
            variant,policy.backoff.base,policy.backoff.max,metric,mean,ci95_low,ci95_high,replications
            base,250ms,2s,tts_p99_s,5.5,4.5,6.5,2
            base,500ms,2s,tts_p99_s,nan,nan,nan,2

            """
        let table = try StatisticsFile(try CSVDocument(text: text, file: "sweep.csv"))
        #expect(table.parameters == ["policy.backoff.base", "policy.backoff.max"])
        #expect(table.points == [["250ms", "2s"], ["500ms", "2s"]])
        #expect(table.row(variant: "base", point: ["250ms", "2s"], metric: "tts_p99_s")?.high == 6.5)
        #expect(throws: RunDirectoryError("compare.csv:1: expected the columns variant,[swept parameters…,]metric,mean,ci95_low,ci95_high,replications[,diff_mean,diff_ci95_low,diff_ci95_high]")) {
            try StatisticsFile(try CSVDocument(text: "variant,metric,mean,low,high,replications\n", file: "compare.csv"))
        }
        #expect(throws: RunDirectoryError("compare.csv:2: column 'replications': expected a whole number (got '2.5')")) {
            try StatisticsFile(try CSVDocument(text: "variant,metric,mean,ci95_low,ci95_high,replications\na,m,1,1,1,2.5\n", file: "compare.csv"))
        }
    }

    @Test("tune.json (Codable): objective, constraints, chosen point; missing keys and wrong types are named, unknown keys are left for later versions")
    func tuning() throws {
        let json = #"{"objective": {"metric": "tts_p99_s"}, "constraints": [{"metric": "peak_load_ratio", "max": 1}], "chosen": {"point": {"policy.backoff.base": "250ms"}}}"#
        let t = try TuningChoice.parse(Data(json.utf8), file: "tune.json")
        #expect(t.objective?.metric == "tts_p99_s" && t.objective?.goal == .min)
        #expect(t.constraints == [TuningChoice.Constraint(metric: "peak_load_ratio", max: 1)])
        #expect(t.chosenPoint == ["policy.backoff.base": "250ms"] && t.chosenVariant == nil)
        #expect(t.constraints[0].admits(1) && !t.constraints[0].admits(1.01) && !t.constraints[0].admits(.nan))
        let faults = [
            ("[1]", "tune.json: expected a JSON object with objective, constraints and chosen"),
            ("{", "tune.json: is not valid JSON"),
            (#"{"constraints": []}"#, "tune.json: 'objective' is missing"),
            (#"{"objective": {"metric": "x"}, "constraints": [{"metric": "x", "max": "1"}]}"#,
             "tune.json: 'constraints[0].max' has the wrong type or no value"),
            (#"{"objective": {"metric": "x", "goal": "lowest"}, "constraints": []}"#, "tune.json: 'objective.goal' must be \"min\" or \"max\""),
            (#"{"objective": {"metric": "x"}, "constraints": [], "chosen": {"point": {"a": 1}}}"#,
             "tune.json: 'chosen.point.a' has the wrong type or no value"),
        ]
        for (text, message) in faults {
            #expect(throws: RunDirectoryError(message)) { try TuningChoice.parse(Data(text.utf8), file: "tune.json") }
        }
    }

    @Test("incident marks: the scenario's window when it reproduces capacity_per_s, else the column's")
    func incident() throws {
        let run = try RunDirectory.load(path: ChartsFixtures.path("run-2reps"))
        let series = run.timeSeries[0]
        let window = try #require(IncidentMarks.window(series, scenario: run.scenario.base))
        #expect([window.from, window.to, window.fraction, window.disturbedAt] == [5, 15, 0.1, 5])
        #expect(IncidentMarks.label(window) == "capacity 10% 5–15 s")
        // A scenario copy without the run's --set overrides: the capacity column decides.
        let moved = run.scenario.text.replacingOccurrences(of: "at: 5s", with: "at: 20s")
        let other = try ScenarioLoader.parse(text: moved, path: "s.yaml")
        #expect(!IncidentMarks.matches(series, scenario: other.base))
        let fallback = try #require(IncidentMarks.window(series, scenario: other.base))
        #expect([fallback.from, fallback.to, fallback.disturbedAt] == [5, 15, 5])
        #expect(IncidentMarks.annotations(series, scenario: run.scenario.base, recovery: 15) == [
            .xInterval(from: 5, to: 15, label: "capacity 10% 5–15 s"), .xMarker(at: 20, label: "recovered +15 s"),
        ])
        #expect(IncidentMarks.annotations(series, scenario: run.scenario.base, recovery: .infinity,
                                          wording: .compact(windowLabel: false)) == [.xInterval(from: 5, to: 15, label: "")])
    }

    @Test("metric formats for tables", arguments: [
        ("gave_up", 21856.0, "21,856"), ("gave_up", 22046.5, "22,046.5"), ("tts_p99_s", 21.7, "21.700"),
        ("wasted_fraction", 0.098013, "9.8%"), ("recovery_s", Double.infinity, "never"), ("tts_p50_s", Double.nan, "n/a"),
        ("peak_load_ratio", 3.1, "3.100"), ("gave_up", 1e16, "10000000000000000"),
    ])
    func formats(metric: String, value: Double, text: String) {
        #expect(MetricCatalog.info(metric).format(value) == text)
    }
}
