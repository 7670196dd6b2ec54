import Foundation
import TestSupport
import Testing

/// Populations in every verdict, and guards that bite made visible (issue 26, items 5 and 6).
///
/// The scenario: two populations of 10 clients each, every client starting an operation every
/// 1 / 0.015 s = 66.67 s from a random phase (`constant` arrival), so each starts exactly 15 in
/// 1,000 s (the 15th at phase + 933.3 s < 1,000 s, a 16th at phase + 1,000 s ≥ the horizon): 150
/// operations per population. Every attempt fails with probability 1/2 (a flaky server, 10 ms),
/// up to 3 attempts 10 ms apart. `old` has no budget; `new` runs the SRE book's per-client 10%
/// budget (`ratio`: 120 s window, no reserve), which needs 1 / 10% = 10 requests of the client in
/// its window to pay for one retry — and a client sends at most 2 or 3 in 120 s. So `new` never
/// retries: every retry it wants is refused, and every failed first attempt gives up.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct PopulationVerdictTests {
    static let thin = """
        name: thin-budget
        seed: 7
        horizon: 1000s
        bucket: 10s
        clients: {count: 20, arrival: constant, rate: 0.015/s, timeout: 1s}
        server: {model: flaky, flaky: {failure: 0.5, latency: 10ms}}
        policy: {max_attempts: 3, backoff: {kind: constant, base: 10ms, max: 10s, jitter: none}}
        populations:
          - {name: old, share: 50%}
          - {name: new, share: 50%, policy: {budget: {kind: ratio}}}

        """

    func run(_ args: [String], yaml: String = thin) throws -> (CLI.Result, URL) {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        return (try CLI.run(args + ["--progress", "none"], in: dir), dir)
    }

    /// populations.csv as rows of name → value, keyed by population.
    func populations(_ dir: URL) throws -> [String: [String: String]] {
        let lines = try CLI.read(dir.appendingPathComponent("populations.csv")).split(separator: "\n").map {
            $0.split(separator: ",").map(String.init)
        }
        let header = lines[0]
        var out: [String: [String: String]] = [:]
        for row in lines.dropFirst() { out[row[2]] = Dictionary(uniqueKeysWithValues: zip(header, row)) }
        return out
    }

    @Test("populations.csv appends the summary metrics per population, the guards' refusals among them, after the columns it had")
    func columns() throws {
        let (r, dir) = try run(["run", "t.yaml", "--out", "o"])
        #expect(r.status == 0, "\(r.stderr)")
        let header = try CLI.read(dir.appendingPathComponent("o/populations.csv")).split(separator: "\n")[0]
        // The columns main wrote, in their places, then the new ones.
        #expect(
            header
                == "variant,replication,population,clients,operations,succeeded,gave_up,gave_up_fraction,attempts,amplification,tts_p50_s,tts_p99_s,incident_tts_p50_s,incident_tts_p99_s,incident_gave_up_fraction,tts_success_p50_s,tts_success_p99_s,incident_tts_success_p50_s,incident_tts_success_p99_s,blocked,blocked_fraction,unfinished,unfinished_fraction,first_attempts,retries,offered,budget_denied,held_back,retries_refused,retries_refused_fraction,tts_mean_s,tts_p90_s,tts_p999_s,tts_max_s,tts_success_mean_s,tts_success_p90_s,tts_success_p999_s,tts_success_max_s,failed,timed_out,rejected,offline,abandoned,duplicates,queries,confirmed,stuck"
        )
        let rows = try populations(dir.appendingPathComponent("o"))
        let new = try #require(rows["new"])
        let old = try #require(rows["old"])
        // 10 clients × 15 operations each.
        #expect(new["operations"] == "150" && old["operations"] == "150")
        // `new` never retries: every retry wanted was refused by the budget, and each refusal ended
        // its operation as gave up (3 attempts are never reached), so gave up = refused = denied.
        #expect(new["retries"] == "0" && new["retries_refused_fraction"] == "1.000000")
        #expect(new["gave_up"] == new["retries_refused"] && new["budget_denied"] == new["retries_refused"])
        #expect(new["first_attempts"] == new["attempts"] && new["offered"] == new["attempts"])
        // `old` has no budget: nothing refused.
        #expect(old["retries_refused"] == "0" && old["retries_refused_fraction"] == "0.000000" && old["budget_denied"] == "0")
        // Every operation ends or is unfinished: succeeded + gave up + blocked + unfinished = 150.
        // The server answers every attempt in 10 ms, within the 1 s timeout, success or failure:
        // failed + succeeded = attempts, nothing timed out or rejected.
        for row in [new, old] {
            let sum = ["succeeded", "gave_up", "blocked", "unfinished"].compactMap { row[$0].flatMap(Int.init) }.reduce(0, +)
            #expect(sum == 150)
            let answered = ["failed", "succeeded"].compactMap { row[$0].flatMap(Int.init) }.reduce(0, +)
            #expect(String(answered) == row["attempts"] && row["timed_out"] == "0" && row["rejected"] == "0")
        }
        // summary.csv: the fleet's refusals are the two populations' (old refuses none).
        let summary = try CLI.read(dir.appendingPathComponent("o/summary.csv")).split(separator: "\n").map {
            $0.split(separator: ",").map(String.init)
        }
        let fleet = Dictionary(uniqueKeysWithValues: zip(summary[0], summary[1]))
        #expect(fleet["retries_refused"] == new["retries_refused"])
    }

    @Test("a guard refusing most retries of a population is a warning on stderr and a finding, with the cause")
    func guardWarning() throws {
        let (r, dir) = try run(["run", "t.yaml", "--out", "o"])
        #expect(r.status == 0, "\(r.stderr)")
        // Every retry refused: 100%. The cause: 150 operations / 10 clients / 1,000 s = 0.015 req/s
        // per client; in the 120 s window that is 1.8 requests, × 10% = 0.18 of one retry.
        let line =
            "retrystorm: warning: the retry budget refused 100% of the retries of population new: at 0.015 req/s per client a 10% budget never fills (0.015 req/s × 120 s window × 10% = 0.18 of the one retry it must save up)\n"
        #expect(r.stderr.contains(line), "\(r.stderr)")
        // Nothing about `old`, whose retries nobody refused.
        #expect(!r.stderr.contains("population old"))
        let report = try CLI.read(dir.appendingPathComponent("o/report.html"))
        #expect(report.contains("The retry budget refused 100% of the retries of population new: at 0.015 req/s per client"))
    }

    /// `--vary populations.new.share=25%,75%`: 5 and 15 of the 20 clients, each still starting 15
    /// operations in 1,000 s, so 0.015 req/s per client at both points — the rate comes from each
    /// point's own clients, not the base scenario's 10.
    @Test("the cause's rate per client is each point's own, whatever --vary did to the population's size")
    func variedShare() throws {
        let (r, _) = try run(["compare", "t.yaml", "--out", "o", "--vary", "populations.new.share=25%,75%"])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("retrystorm: warning: the retry budget") }
        // The same guard, population and cause at both points: one line naming both.
        #expect(warnings.count == 1, "\(r.stderr)")
        for w in warnings {
            #expect(w.contains("of population new at share=25% and share=75%: at 0.015 req/s per client a 10% budget never fills"), "\(w)")
        }
    }

    /// One client, one operation, a server that fails every attempt, a breaker that opens on the
    /// first failure for a minute and fails fast: the first attempt fails, the retry 10 ms later
    /// meets the open breaker and is refused. So 1 operation, 1 attempt, 0 retries, 1 retry
    /// refused (by the breaker, not the budget: budget_denied 0), refused share exactly 1.
    @Test("a breaker that fails fast refuses retries too: counted in retries_refused, not budget_denied, and warned of")
    func breakerRefuses() throws {
        let yaml = """
            name: breaker-bites
            seed: 1
            horizon: 10s
            clients: {count: 1, arrival: burst, timeout: 1s}
            server: {model: flaky, flaky: {failure: 1, latency: 10ms}}
            policy:
              max_attempts: 3
              backoff: {kind: constant, base: 10ms, max: 10s, jitter: none}
              breaker: {kind: consecutive, consecutive: 1, open: 1m, when_open: reject}

            """
        let (r, dir) = try run(["run", "t.yaml", "--out", "o"], yaml: yaml)
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try CLI.read(dir.appendingPathComponent("o/summary.csv")).split(separator: "\n").map {
            $0.split(separator: ",").map(String.init)
        }
        let row = Dictionary(uniqueKeysWithValues: zip(summary[0], summary[1]))
        #expect(row["operations"] == "1" && row["attempts"] == "1" && row["retries"] == "0" && row["gave_up"] == "1")
        #expect(row["retries_refused"] == "1" && row["budget_denied"] == "0" && row["retries_refused_fraction"] == "1.000000")
        #expect(r.stderr.contains("retrystorm: warning: the breaker refused 100% of the retries of the run\n"), "\(r.stderr)")
    }

    @Test("no warning when the guard refuses less than half: the old population alone, without a budget")
    func noWarning() throws {
        let (r, _) = try run(["run", "t.yaml", "--out", "o", "--set", "populations.new.policy.budget.kind=unlimited"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("warning: the retry budget"), "\(r.stderr)")
    }

    @Test("--expect takes populations.NAME.METRIC and judges that population's rows")
    func populationGates() throws {
        // new: retries refused 100% exactly, retries 0; old: nothing refused.
        let (pass, _) = try run([
            "run", "t.yaml", "--out", "o", "--expect", "populations.new.retries_refused_fraction==1",
            "--expect", "populations.old.retries_refused_fraction<=0", "--expect", "populations.new.retries<=0"
        ])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stderr.contains("expectations: all 3 met\n"), "\(pass.stderr)")
        #expect(
            pass.stderr.contains(
                "  - populations.new.retries_refused_fraction==1 (--expect populations.new.retries_refused_fraction==1): base has 100% (one replication), exactly at the bound\n"
            ), "\(pass.stderr)")
        // new gives up on every failed first attempt, about half of 150: far above 1%.
        let (fail, _) = try run(["run", "t.yaml", "--out", "o", "--expect", "populations.new.gave_up_fraction<=1%"])
        #expect(fail.status == 1)
        #expect(fail.stderr.contains("base has populations.new.gave_up_fraction = 0."), "\(fail.stderr)")
    }

    @Test("an unknown population or a misspelt population metric is exit 2, one line, with a did-you-mean")
    func unknownNames() throws {
        let (population, _) = try run(["run", "t.yaml", "--out", "o", "--expect", "populations.nwe.gave_up_fraction<=1%"])
        #expect(population.status == 2)
        #expect(
            population.stderr
                == "retrystorm: error: --expect populations.nwe.gave_up_fraction<=1%: 'nwe' is not a population of this scenario (old, new). Did you mean 'new'?\n"
        )
        let (metric, _) = try run(["run", "t.yaml", "--out", "o", "--expect", "populations.new.gave_up_fractoin<=1%"])
        #expect(metric.status == 2)
        #expect(
            metric.stderr
                == "retrystorm: error: --expect populations.new.gave_up_fractoin<=1%: 'gave_up_fractoin' is not a metric (populations.csv column). Did you mean 'populations.new.gave_up_fraction'?\n"
        )
        // A scenario without populations.
        let (none, _) = try run(
            ["run", "t.yaml", "--out", "o", "--expect", "populations.new.gave_up_fraction<=1%"], yaml: TuneTests.flaky)
        #expect(none.status == 2)
        #expect(
            none.stderr
                == "retrystorm: error: --expect populations.new.gave_up_fraction<=1%: 'populations.new.gave_up_fraction': this scenario has no populations (see `populations:`)\n"
        )
    }

    @Test("merge judges a population's gate on the merged rows, as the unsharded run does")
    func mergedGate() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.thin.write(to: dir.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        let common = ["compare", "t.yaml", "--replications", "2", "--vary", "policy.max_attempts=2,3", "--progress", "none"]
        for i in 0..<2 {
            let r = try CLI.run(common + ["--shard", "\(i)/2", "--out", "s\(i)"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let gate = "populations.new.retries_refused_fraction.ci95_low>=1"
        let m = try CLI.run(["merge", "s0", "s1", "--out", "m", "--expect", gate], in: dir)
        let whole = try CLI.run(common + ["--out", "w", "--expect", gate], in: dir)
        #expect(m.status == 0 && whole.status == 0, "\(m.stderr) \(whole.stderr)")
        #expect(m.stderr.contains("expectations: all 1 met") && whole.stderr.contains("expectations: all 1 met"))
        #expect(try CLI.read(dir.appendingPathComponent("m/populations.csv")) == (try CLI.read(dir.appendingPathComponent("w/populations.csv"))))
    }

    @Test("tune's constraints take populations.NAME.METRIC: the cheapest point whose old population gives up at most 10%")
    func tuneConstraint() throws {
        // old gives up with probability 2^−n after n attempts: 25% (n = 2), 12.5% (3), 6.25% (4).
        // Amplification grows with n, so without the constraint n = 2 wins; with it, n = 4 (about
        // ±1.3 points over 3 replications of 1,500 operations — clear of 10%, as 12.5% is).
        let yaml = Self.thin.replacingOccurrences(of: "count: 20", with: "count: 200")
        let (r, dir) = try run(
            [
                "tune", "t.yaml", "--out", "o", "--replications", "3", "--refine", "0", "--grid", "policy.max_attempts=2,3,4",
                "--objective", "amplification", "--constraint", "populations.old.gave_up_fraction<=10%"
            ], yaml: yaml)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("o/tune.json"))) as? [String: Any]
        let recommendation = json?["recommendation"] as? [String: Any]
        #expect((recommendation?["point"] as? [String: String])?["policy.max_attempts"] == "4", "\(String(describing: recommendation))")
    }

    /// The objective may be a population's: minimise old's give-up share (2^−n after n attempts:
    /// 25%, 12.5%, 6.25%, 3.1% for n = 2…5) subject to amplification ≤ 1.45 attempts per operation
    /// over the fleet. An old operation makes 1 + 1/2 + … + 2^−(n−1) = 2(1 − 2^−n) attempts on
    /// average, a new one 1 (its budget refuses every retry), half the operations each: (1.875 +
    /// 1) / 2 = 1.4375 for n = 4, (1.9375 + 1) / 2 = 1.469 for n = 5 (the extension past the grid).
    /// So n = 4: the lowest objective among the points that keep to the bound. tune.json and tune.csv name the objective as written, and the report's
    /// recommendation names the population.
    @Test("tune's objective takes populations.NAME.METRIC: written as such in tune.json and tune.csv, named in the report")
    func tuneObjective() throws {
        let yaml = Self.thin.replacingOccurrences(of: "count: 20", with: "count: 200")
        let (r, dir) = try run(
            [
                "tune", "t.yaml", "--out", "o", "--replications", "3", "--refine", "0", "--grid", "policy.max_attempts=2,3,4",
                "--objective", "populations.old.gave_up_fraction", "--constraint", "amplification<=1.45"
            ], yaml: yaml)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("o/tune.json"))) as? [String: Any]
        #expect((json?["objective"] as? [String: Any])?["metric"] as? String == "populations.old.gave_up_fraction")
        let recommendation = json?["recommendation"] as? [String: Any]
        #expect((recommendation?["point"] as? [String: String])?["policy.max_attempts"] == "4", "\(String(describing: recommendation))")
        let csv = try CLI.read(dir.appendingPathComponent("o/tune.csv")).split(separator: "\n")
        #expect(csv.count > 1 && csv[1].hasPrefix("1,max_attempts=4,4,true,populations.old.gave_up_fraction,"))
        let report = try CLI.read(dir.appendingPathComponent("o/report.html"))
        #expect(report.contains("<tr><th scope=\"row\">minimise gave up, share of operations of population old (%)</th>"))
        // The terminal table shows the objective as its last column, from old's rows.
        #expect(r.stdout.contains("old: gave up\n") || r.stdout.contains("old: gave up  "), "\(r.stdout)")
        // An objective naming no population of the scenario is refused before anything runs.
        let (bad, _) = try run(
            ["tune", "t.yaml", "--out", "o", "--grid", "policy.max_attempts=2,3", "--objective", "populations.neww.gave_up_fraction"])
        #expect(bad.status == 2)
        #expect(
            bad.stderr
                == "retrystorm: error: --objective: 'neww' is not a population of this scenario (old, new). Did you mean 'new'?\n", "\(bad.stderr)")
    }

    /// new's budget refuses every retry (thin-budget's warning), so half its operations fail at
    /// the flaky server's 50% and its p99 is never at every point: every point meets the
    /// constraint, none has a finite objective. Tune says that, not "no point meets every
    /// constraint" and "breaks" with nothing after it, and exits 1.
    @Test("a tune whose objective is never at every point says so, not that constraints failed")
    func tuneObjectiveNever() throws {
        let (r, _) = try run(
            [
                "tune", "t.yaml", "--out", "o", "--replications", "2", "--refine", "0", "--grid", "policy.max_attempts=2,3",
                "--objective", "populations.new.tts_p99_s", "--constraint", "amplification<=10"
            ])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "retrystorm: error: no evaluated point has a finite populations.new.tts_p99_s (never where too few operations succeed; see tune.csv)\n"
            ),
            "\(r.stderr)")
        #expect(
            r.stdout.contains("  no point has a finite populations.new.tts_p99_s: it is never (or has no value) at every point evaluated"),
            "\(r.stdout)")
        #expect(!r.stdout.contains("no point meets every constraint") && !r.stdout.contains("breaks"), "\(r.stdout)")
    }
}
