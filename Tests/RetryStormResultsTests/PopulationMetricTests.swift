import GSLSupport
import RetryStormResults
import RetryStormVocabulary
import Testing

/// `populations.NAME.METRIC` in gates, constraints and objectives (issue 26, item 6): parsed into
/// a metric of one population and judged on that population's rows of populations.csv, which
/// ``MetricTable`` keeps beside the fleet's.
struct PopulationMetricTests {
    static let here = SourceLocation(origin: .option("--expect"))

    /// One point `p`, two replications, two populations: `old` gives up 0.2 and 0.4 (mean 0.3),
    /// `new` 0 and 0 (mean 0, its interval [0, 0]); the fleet's summary.csv says 0.1 in both.
    static func table() throws -> MetricTable {
        func summary(_ r: Int) -> String {
            (["p", String(r), "1", "20"] + SummaryRecord.metrics.map { $0 == .gaveUpFraction ? "0.1" : "0" }).joined(separator: ",")
        }
        func population(_ r: Int, _ name: String, _ gaveUp: String) -> String {
            (["p", String(r), name, "10"] + PopulationRecord.metrics.map { $0 == .gaveUpFraction ? gaveUp : "0" }).joined(separator: ",")
        }
        let s = [SummaryRecord.columns.joined(separator: ","), summary(0), summary(1)].joined(separator: "\n") + "\n"
        let p =
            [
                PopulationRecord.columns.joined(separator: ","), population(0, "old", "0.2"), population(0, "new", "0"),
                population(1, "old", "0.4"), population(1, "new", "0")
            ].joined(separator: "\n") + "\n"
        return MetricTable(
            names: ["p"], parameters: [[]], parameterPaths: [], summaries: try ResultsCodec.summaries(s, file: "s.csv"),
            populations: try ResultsCodec.populations(p, file: "p.csv"))
    }

    @Test("populations.NAME.METRIC parses to the population and a populations.csv metric; METRIC alone is the fleet's")
    func parse() throws {
        let e = try Expectation.parse("populations.new.gave_up_fraction<=1%", at: Self.here)
        #expect(e.population == "new" && e.metric == .gaveUpFraction && e.value == 0.01)
        let fleet = try Expectation.parse("gave_up_fraction<=1%", at: Self.here)
        #expect(fleet.population == nil)
        // A population name may hold '-' and '_' (Scenario.Population's rule), and an end of the interval.
        let ci = try Expectation.parse("populations.v2-sdk.tts_p99_s.ci95_high<=5s", at: Self.here)
        #expect(ci.population == "v2-sdk" && ci.metric == .ttsP99 && ci.statistic == .ci95High && ci.value == 5)
        #expect(Objective("max:populations.new.succeeded") == Objective(.succeeded, maximize: true, population: "new"))
        #expect(Objective("populations.new.tts_p99_s")?.description == "populations.new.tts_p99_s")
    }

    /// The message `body` throws, nil when it throws nothing.
    func message(_ body: () throws(ScenarioError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch { return error.messageText }
    }

    @Test("a summary-only metric, a misspelt one or a bare prefix is one line with the nearest populations.csv metric")
    func refused() throws {
        #expect(
            message { () throws(ScenarioError) in _ = try Expectation.parse("populations.new.gave_up_fractoin<=1%", at: Self.here) }
                == "'gave_up_fractoin' is not a metric (populations.csv column). Did you mean 'populations.new.gave_up_fraction'?")
        // peak load is the server's: the fleet has it, a population does not.
        #expect(
            message { () throws(ScenarioError) in _ = try Expectation.parse("populations.new.peak_load_ratio<=2", at: Self.here) }?
                .hasPrefix("'peak_load_ratio' is not a metric (populations.csv column).") == true)
        #expect(
            message { () throws(ScenarioError) in _ = try Expectation.parse("populations.x<=1", at: Self.here) }
                == "'populations.x' is not a metric: write METRIC, populations.NAME.METRIC or services.NAME.METRIC, e.g. populations.new.gave_up_fraction"
        )
        // Against the scenario's populations.
        let e = try Expectation.parse("populations.nwe.gave_up_fraction<=1%", at: Self.here)
        #expect(
            message { () throws(ScenarioError) in try e.check(populations: ["old", "new"]) }
                == "'nwe' is not a population of this scenario (old, new). Did you mean 'new'?")
    }

    /// old: mean 0.3, s = 0.141421, half-width t(0.975, 1)·s/√2 = 12.706 × 0.1 = 1.2706, cut to
    /// [0, 1]; new: 0 exactly; the fleet: 0.1 exactly.
    @Test("a population's gate judges that population's rows, not the fleet's")
    func judged() throws {
        let table = try Self.table()
        #expect(table.populationNames == ["old", "new"])
        let old = try Expectation.parse("populations.old.gave_up_fraction<=25%", at: Self.here)
        let outcome = try #require(old.outcomes(in: table).first)
        #expect(abs(outcome.value - 0.3) < 1e-12 && !outcome.holds)
        #expect(outcome.interval.low == 0 && outcome.interval.high == 1)
        #expect(
            old.failures(in: table) == [
                "populations.old.gave_up_fraction<=25% (--expect): p has populations.old.gave_up_fraction = 0.300 (95% CI 0.000…1.000, 2 replications)"
            ])
        let new = try Expectation.parse("populations.new.gave_up_fraction.ci95_high<=0", at: Self.here)
        #expect(new.failures(in: table).isEmpty && new.holds(at: "p", in: table))
        #expect(new.verdict(at: "p", in: table) == .met)
        let fleet = try Expectation.parse("gave_up_fraction<=10%", at: Self.here)
        #expect(fleet.outcomes(in: table).first?.value == 0.1)
    }
}
