import Foundation
import TestSupport
import Testing

/// Incidents as they happened, from the command line (issue 26, item 4): a replay's trigger
/// windows come from its files, the report says when a recovery came before the trigger ended,
/// a cold start's losses are named, and a horizon too short for the incident is a warning.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct IncidentReplayTests {
    /// Writes `yaml` as scenario.yaml and each of `files` beside it, runs `run` and then `report` on it.
    func runAndReport(_ yaml: String, files: [String: String] = [:], extra: [String] = []) throws -> (CLI.Result, URL) {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(["run", dir.appendingPathComponent("scenario.yaml").path, "--out", out.path] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try CLI.run(["report", out.path])
        #expect(report.status == 0, "\(report.stderr)")
        return (r, out)
    }

    static func text(_ out: URL, _ name: String) throws -> String {
        try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
    }

    /// The replay: capacity 150/s until 90 s, a ramp to 60/s (40%) by 95 s, 60/s until
    /// 240 s, a step back; the load 1× until 200 s, 1.2× until 260 s. 80 clients at 1/s (96/s
    /// at 1.2×) against 60/s overload the server from 95 s; a queue of at most 20 rejects the rest.
    /// Windows from the data: capacity below nominal 90–240 s (lowest 40%, ramping: "down to"),
    /// the load above its base 200–260 s; today's main shaded "capacity 40% 90–95 s" only. At
    /// 240 s capacity is back at 150/s above the 96/s offered, and the retries of the last
    /// rejected second come within their 1 s backoff: the server recovers in [240, 260) s while
    /// the load is still on its 1.2× plateau — main said "recovered 0 s after the trigger ended".
    @Test("a replay: windows from its files, and a recovery before the trigger ended says when")
    func replay() throws {
        let yaml = """
            horizon: 400s
            clients: {count: 80, rate: 1/s, arrival: constant, timeout: 2s}
            server:
              capacity: 150/s
              service: deterministic
              queue: {limit: 20}
              capacity_csv: capacity.csv
            load.csv: load.csv
            policy:
              max_attempts: 3
              backoff: {kind: constant, base: 1s}

            """
        let (_, out) = try runAndReport(
            yaml,
            files: [
                "capacity.csv": "t_s,capacity_per_s\n0,150\n90,150\n95,60\n240,60\n240,150\n",
                "load.csv": "t_s,multiplier\n0,1\n200,1\n200,1.2\n260,1.2\n260,1\n"
            ])
        let load = try Self.text(out, "load.svg")
        #expect(load.contains("capacity down to 40% 90–240 s"))
        #expect(load.contains("load ×1.2 200–260 s"))
        #expect(!load.contains("90–95 s"))
        let report = try Self.text(out, "report.html")
        #expect(report.contains("The server recovered at 24"))
        #expect(report.contains("s, while the load was still 1.2× its base (the trigger ended at 260 s)."))
        #expect(!report.contains("0 s after"))
        // The mean load over the incident, appended to summary.csv (before the guards' refusals, appended after it).
        let header = try Self.text(out, "summary.csv").split(separator: "\n")[0]
        #expect(
            header.hasSuffix(
                ",incident_tts_success_p50_s,incident_tts_success_p99_s,incident_load_ratio,retries_refused,retries_refused_fraction,stuck"))
        #expect(report.contains("over the incident the offered load averaged"))
    }

    /// 100 clients at 1/s against a server that answers 5% of requests 500, with the SRE book's
    /// 10% retry budget (`ratio`), which starts empty: in its first seconds a client has no
    /// retries to spend, so a failed first attempt gives up. More than half of what the run loses
    /// is lost in its first 30 s (a tenth of the 300 s horizon): the report says so and names the
    /// warmup; with `warmup: 30s` those seconds are left out and the finding goes.
    @Test("losses concentrated in a run's first seconds are a finding; a warmup leaves them out")
    func coldStart() throws {
        let yaml = """
            horizon: 300s
            clients: {count: 100, rate: 1/s, arrival: constant, timeout: 1s}
            server: {capacity: 1000/s, errors: {server: 0.05}}
            policy:
              max_attempts: 3
              backoff: {kind: constant, base: 100ms}
              budget: {kind: ratio}

            """
        let (_, cold) = try runAndReport(yaml)
        let report = try Self.text(cold, "report.html")
        #expect(report.contains("of the operations lost were lost in the run&#39;s first "))
        #expect(report.contains("s, before any trigger: policies start cold (a retry budget or a throttle starts empty)"))
        let (_, warm) = try runAndReport(yaml, extra: ["--set", "warmup=30s"])
        #expect(!(try Self.text(warm, "report.html")).contains("policies start cold"))
        // 100 clients × 1/s over [30 s, 300 s): 27,000 operations once the first 30 s are left out.
        let row = try Self.text(warm, "summary.csv").split(separator: "\n")[1].split(separator: ",")
        #expect(row[4] == "27000")
    }

    /// An outage from 50 s for 20 s with no ramp ends at 70 s, after a 60 s horizon: neither the
    /// trigger's end nor a recovery can be seen, a warning on stderr and in the report.
    @Test("a horizon that ends before the trigger does: a warning on stderr and in the report")
    func shortHorizon() throws {
        let yaml = """
            horizon: 60s
            clients: {count: 10, rate: 1/s}
            server:
              capacity: 100/s
              outage: {at: 50s, duration: 20s, fraction: 0.2, recovery: instant}

            """
        let (r, out) = try runAndReport(yaml)
        let warning = "the trigger is still on at the horizon (60 s): neither its end nor the recovery can be seen; make the horizon longer"
        #expect(r.stderr.contains("retrystorm: warning: \(warning)\n"))
        #expect(try Self.text(out, "report.html").contains("Warning: \(warning)."))
    }

    /// `validate` warns as the study would, and a warning only some points have names them: with
    /// an outage at 50 s and a 60 s horizon, 5 s of outage ends at 55 s, under the tenth of the
    /// horizon (6 s) before its end; 20 s is still on at 60 s.
    @Test("validate warns of a short horizon too, naming the --vary points that have it")
    func shortHorizonValidate() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml = """
            horizon: 60s
            clients: {count: 10, rate: 1/s}
            server:
              capacity: 100/s
              outage: {at: 50s, duration: 20s, fraction: 0.2, recovery: instant}

            """
        try yaml.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let whole = try CLI.run(["validate", "s.yaml"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(
            whole.stderr.contains(
                "retrystorm: warning: the trigger is still on at the horizon (60 s): neither its end nor the recovery can be seen; make the horizon longer\n"
            ),
            "\(whole.stderr)")
        let varied = try CLI.run(["validate", "s.yaml", "--vary", "server.outage.duration=5s,20s,1s"], in: dir)
        #expect(varied.status == 0, "\(varied.stderr)")
        #expect(
            varied.stderr.contains(
                "retrystorm: warning: point duration=5s: the trigger ends at 55 s, only 5 s before the horizon (60 s): too little time to see a recovery; make the horizon longer\n"
            ),
            "\(varied.stderr)")
        // The base (20 s) and the point of 20 s share the other warning; 1 s ends at 51 s, in time.
        #expect(varied.stderr.contains("retrystorm: warning: points base, duration=20s: the trigger is still on"), "\(varied.stderr)")
    }

    /// A sweep over `load.csv` with two files: each point's panel shades its own load window
    /// (traffic.csv ramps from 1× at 0 s to 2× at 10 s and back to 1× at 20 s: above its base
    /// 0–20 s; spike.csv from 1× at 0 s to 4× at 30 s and back at 35 s: 0–35 s), not the base's;
    /// and `report` and `chart`, run from another directory, redraw the very same bytes from the
    /// result directory (its copies of the files, the command's --set).
    @Test("a sweep over load.csv shades each point's own window, the same from the directory as at run time")
    func sweepPanels() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml = """
            name: replay
            horizon: 60s
            clients: {count: 100, rate: 1/s, timeout: 2s}
            server: {capacity: 150/s, capacity_csv: capacity.csv}
            load.csv: traffic.csv
            policy: {max_attempts: 3}

            """
        let files = [
            "scenario.yaml": yaml, "traffic.csv": "t_s,multiplier\n0,1\n10,2\n20,1\n", "spike.csv": "t_s,multiplier\n0,1\n30,4\n35,1\n",
            "capacity.csv": "t_s,capacity_per_s\n0,150\n20,30\n30,30\n40,150\n", "other.csv": "t_s,capacity_per_s\n0,150\n10,75\n15,150\n"
        ]
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let r = try CLI.run(
            [
                "sweep", "scenario.yaml", "--grid", "load.csv=traffic.csv,spike.csv", "--set", "server.capacity_csv=other.csv",
                "--replications", "2", "--jobs", "1", "--out", "g"
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir.appendingPathComponent("g")
        let load = try Self.text(out, "load.svg")
        #expect(load.contains(">load ×2 0–20 s<") && load.contains(">load ×4 0–35 s<"), "each panel its own window")
        // other.csv (the --set), not capacity.csv: 150/s → 75/s by 10 s → 150/s at 15 s.
        #expect(load.contains("capacity down to 50% 0–15 s") && !load.contains("capacity down to 20%"))
        let before = try ["load.svg", "failures.svg", "report.html"].map { try Self.text(out, $0) }
        let elsewhere = try CLI.temporaryDirectory()
        #expect(try CLI.run(["report", out.path], in: elsewhere).status == 0)
        #expect(try CLI.run(["chart", out.path], in: elsewhere).status == 0)
        #expect(try ["load.svg", "failures.svg", "report.html"].map { try Self.text(out, $0) } == before)
    }

    /// The same for a compare's `--vary` variants, which the scenario does not declare: each
    /// panel shades the window of its own load.csv (traffic.csv above its base 0–20 s, spike.csv
    /// 0–35 s), at run time and when `chart` redraws from the directory's command.txt.
    @Test("compare --vary over load.csv shades each variant's own window, the same from the directory")
    func varyPanels() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml = """
            name: replay
            horizon: 60s
            clients: {count: 100, rate: 1/s, timeout: 2s}
            server: {capacity: 150/s}
            load.csv: traffic.csv
            policy: {max_attempts: 3}

            """
        let files = ["scenario.yaml": yaml, "traffic.csv": "t_s,multiplier\n0,1\n10,2\n20,1\n", "spike.csv": "t_s,multiplier\n0,1\n30,4\n35,1\n"]
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let r = try CLI.run(
            ["compare", "scenario.yaml", "--vary", "load.csv=traffic.csv,spike.csv", "--replications", "2", "--jobs", "1", "--out", "c"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir.appendingPathComponent("c")
        let load = try Self.text(out, "load.svg")
        #expect(load.contains(">load ×2 0–20 s<") && load.contains(">load ×4 0–35 s<"), "each panel its own window")
        let before = try ["load.svg", "report.html"].map { try Self.text(out, $0) }
        #expect(try CLI.run(["chart", out.path], in: try CLI.temporaryDirectory()).status == 0)
        #expect(try ["load.svg", "report.html"].map { try Self.text(out, $0) } == before)
    }
}
