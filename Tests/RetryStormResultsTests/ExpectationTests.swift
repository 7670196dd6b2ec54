import GSLSupport
import RetryStormResults
import RetryStormVocabulary
import Testing

/// Release gates and tune's constraints (`Expectation`): every operator below, at and above its
/// bound, on the mean and on each end of the 95% interval. A gate at its bound is where `<` and
/// `<=` part; before these, one end-to-end tune test was all that told them apart.
struct ExpectationTests {
    static let location = SourceLocation(origin: .option("--expect"))

    /// `x OP y` for x = 1, 2, 3 and y = 2 (x below, at and above the bound): the operators'
    /// definitions, nothing measured.
    static let truth: [(String, [Bool])] = [
        ("<", [true, false, false]), ("<=", [true, true, false]), (">", [false, false, true]),
        (">=", [false, true, true]), ("==", [false, true, false]), ("!=", [true, false, true])
    ]

    @Test("each operator below, at and above its bound", arguments: truth)
    func operators(op: String, expected: [Bool]) throws {
        let o = try #require(Expectation.Op(rawValue: op))
        #expect([1.0, 2, 3].map { o.holds($0, 2) } == expected)
    }

    /// One point, `p`, whose gave_up_fraction is 0 in replication 0 and 1 in replication 1: mean
    /// 0.5; the Student-t interval 0.5 ± t(0.975, 1)·0.707/√2 = 0.5 ± 6.35 is cut to a fraction's
    /// range, [0, 1]. So the mean, ci95_low and ci95_high are exactly 0.5, 0 and 1.
    static func table() throws -> MetricTable {
        func row(_ replication: Int, _ gaveUp: String) -> String {
            (["p", String(replication), "1", "10"] + SummaryRecord.metrics.map { $0.name == "gave_up_fraction" ? gaveUp : "0" })
                .joined(separator: ",")
        }
        let text = ([SummaryRecord.columns.joined(separator: ","), row(0, "0"), row(1, "1")]).joined(separator: "\n") + "\n"
        return MetricTable(names: ["p"], parameters: [[]], parameterPaths: [], summaries: try ResultsCodec.summaries(text, file: "s.csv"))
    }

    /// For each statistic, its value x (0.5, 0 or 1) and bounds x − 0.25, x, x + 0.25, so that the
    /// judged value is above, at and below the bound in turn.
    static let statistics: [(String, Double)] = [("", 0.5), (".ci95_low", 0), (".ci95_high", 1)]

    @Test(
        "a gate judges the statistic it names: every operator on the mean, ci95_low and ci95_high, below, at and above the bound",
        arguments: truth, statistics)
    func gates(op: (String, [Bool]), statistic: (String, Double)) throws {
        let table = try Self.table()
        let interval = try #require(table.interval("p", .gaveUpFraction))
        #expect(interval.mean == 0.5 && interval.low == 0 && interval.high == 1)
        let x = statistic.1
        // Bounds above, at and below x: x is below, at and above the bound, the order of `truth`.
        let verdicts = try [x + 0.25, x, x - 0.25].map { bound in
            let gate = try Expectation.parse("gave_up_fraction\(statistic.0)\(op.0)\(bound)", at: Self.location)
            #expect(gate.value == bound)
            let outcomes = gate.outcomes(in: table)
            #expect(outcomes.map(\.value) == [x])
            // What tune's constraints ask of the same expectation, and what --expect reports.
            #expect(gate.holds(at: "p", in: table) == outcomes.first?.holds)
            #expect(gate.failures(in: table).isEmpty == outcomes.first?.holds)
            return outcomes.first?.holds ?? false
        }
        #expect(verdicts == op.1, "gave_up_fraction\(statistic.0)\(op.0)")
    }

    /// How far tune's ranking counts a point from a constraint it breaks: |x − bound| / |bound|,
    /// 0 when it holds. The mean 0.5 against <= 0.25 misses by 0.25 / 0.25 = 1; at its bound it
    /// holds.
    @Test("a constraint met at its bound counts no violation; missed, it counts the relative distance")
    func violation() throws {
        let table = try Self.table()
        let at = try Expectation.parse("gave_up_fraction<=0.5", at: Self.location)
        let over = try Expectation.parse("gave_up_fraction<=0.25", at: Self.location)
        let under = try Expectation.parse("gave_up_fraction>=1", at: Self.location)
        #expect(at.violation(at: "p", in: table) == 0)
        #expect(over.violation(at: "p", in: table) == 1)
        #expect(under.violation(at: "p", in: table) == 0.5)
    }
}

/// A time bound written with a duration's unit, read as the scenario reads durations; the margin
/// of a gate at and around its bound.
struct ExpectationUnitTests {
    static let location = SourceLocation(origin: .option("--expect"))

    /// 5000 ms = 5 s; 250 ms = 0.25 s; 2 m = 120 s; a plain number is seconds; 1.5 h = 5,400 s.
    @Test(
        "a time bound takes ms, s, m and h; a plain number is seconds",
        arguments: [("5000ms", 5.0), ("250ms", 0.25), ("2m", 120), ("5", 5), ("1.5h", 5400), ("0", 0)])
    func durations(text: String, seconds: Double) throws {
        #expect(try Expectation.parse("tts_p99_s<=" + text, at: Self.location).value == seconds)
    }

    @Test("a bad unit names the field; a unit on a metric that is not a time is refused")
    func badUnits() throws {
        for (text, field) in [("tts_p99_s<=5000xs", "tts_p99_s"), ("tts_p99_s<=-5ms", "tts_p99_s"), ("amplification<=5ms", "amplification")] {
            do {
                _ = try Expectation.parse(text, at: Self.location)
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.field == field, "\(error)")
            }
        }
    }

    /// bound − x for <= and <, x − bound for >= and >: 0 at equality, negative when it fails.
    @Test("the margin is how far inside the bound, 0 at it, negative beyond it")
    func margin() throws {
        let le = try Expectation.parse("tts_p99_s<=2", at: Self.location)
        #expect([1.5, 2, 2.5].map(le.margin) == [0.5, 0, -0.5])
        let ge = try Expectation.parse("tts_p99_s>=2", at: Self.location)
        #expect([1.5, 2, 2.5].map(ge.margin) == [-0.5, 0, 0.5])
        let ne = try Expectation.parse("tts_p99_s!=2", at: Self.location)
        #expect([1.5, 2].map(ne.margin) == [0.5, 0])
    }
}
