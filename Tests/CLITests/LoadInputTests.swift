import Foundation
import TestSupport
import Testing

/// Load over time (`load.profile`, `load.spike`, `load.csv`), constant-rate clients and capacity
/// replay (`server.capacity_csv`) from the command line: bad input is status 2 with one line
/// naming the file, the line and the field; good input runs, and a replay in the shape of a
/// built-in trigger gives that trigger's results byte for byte.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct LoadInputTests {
    static let base = """
        horizon: 60s
        clients:
          count: 100
          rate: 1/s
          timeout: 2s
        server:
          capacity: 150/s
        policy:
          max_attempts: 3

        """

    /// Writes `yaml` as scenario.yaml and each of `files` beside it, then runs `args` on it.
    func run(_ yaml: String, files: [String: String] = [:], _ args: [String] = ["run"], extra: [String] = []) throws -> (CLI.Result, URL) {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(args + [dir.appendingPathComponent("scenario.yaml").path, "--out", out.path] + extra)
        return (r, out)
    }

    static let cases: [(String, String, [String: String], String)] = [
        // (what, YAML appended to base, files beside the scenario, expected fragment of the message)
        (
            "profile time without a unit", "load.profile: [[0s, 1], [20, 2]]\n", [:],
            "scenario.yaml:10:15: field 'load.profile': point 2, time: needs a unit"
        ),
        (
            "profile times going back", "load.profile: [[10s, 1], [5s, 2]]\n", [:],
            "field 'load.profile': point 2: time 5s comes before the previous point's 10s: times must increase"
        ),
        (
            "profile negative multiplier", "load.profile: [[0s, 1], [5s, -2]]\n", [:],
            "field 'load.profile': point 2: multiplier must be a number ≥ 0"
        ),
        (
            "profile a time three times", "load.profile: [[5s, 1], [5s, 2], [5s, 3]]\n", [:],
            "field 'load.profile': point 3: time 5s appears a third time"
        ),
        ("profile not pairs", "load.profile: [1, 2]\n", [:], "field 'load.profile': point 1 is not a [time, multiplier] pair"),
        ("profile of mappings", "load.profile:\n  - {t: 0s}\n", [:], "scenario.yaml:11:5: field 'load.profile': expects [time, multiplier] pairs"),
        (
            "profile and spike together", "load.profile: [[0s, 1]]\nload.spike: {at: 10s, duration: 5s}\n", [:],
            "field 'load.spike.duration': conflicts with load.profile: give the load over time one way"
        ),
        ("spike after the horizon", "load.spike: {at: 90s, duration: 5s}\n", [:], "field 'load.spike.at': (90s) is at or after the horizon (1m)"),
        (
            "spike with a negative multiplier", "load.spike: {at: 10s, duration: 5s, multiplier: -1}\n", [:],
            "field 'load.spike.multiplier': must be at least 0"
        ),
        (
            "spike on burst arrivals", "clients.arrival: burst\nload.spike: {at: 10s, duration: 5s}\n", [:],
            "field 'load.spike.duration': changes the rate of poisson and constant arrivals, but clients.arrival is burst"
        ),
        (
            "constant arrivals that stop before they start", "clients.arrival: constant\nclients.start: 10s\nclients.until: 5s\n", [:],
            "field 'clients.until': (5s) must be after clients.start (10s)"
        ),
        ("load.csv missing", "load.csv: traffic.csv\n", [:], "field 'load.csv': cannot read"),
        (
            "load.csv bad header", "load.csv: traffic.csv\n", ["traffic.csv": "time,multiplier\n0,1\n"],
            "traffic.csv:1: field 'load.csv': expected the header `t_s,multiplier` (got `time,multiplier`)"
        ),
        (
            "load.csv times going back", "load.csv: traffic.csv\n", ["traffic.csv": "t_s,multiplier\n0,1\n10,2\n5,1\n"],
            "traffic.csv:4: field 'load.csv': column t_s: time 5s comes before the previous point's 10s"
        ),
        (
            "load.csv negative multiplier", "load.csv: traffic.csv\n", ["traffic.csv": "t_s,multiplier\n0,1\n10,-2\n"],
            "traffic.csv:3: field 'load.csv': column multiplier: must not be negative (got -2)"
        ),
        (
            "load.csv not a number", "load.csv: traffic.csv\n", ["traffic.csv": "t_s,multiplier\n0,1\nten,2\n"],
            "traffic.csv:3: field 'load.csv': column t_s: expected seconds (got 'ten')"
        ),
        (
            "load.csv three columns", "load.csv: traffic.csv\n", ["traffic.csv": "t_s,multiplier\n0,1,2\n"],
            "traffic.csv:2: field 'load.csv': expected 2 columns, t_s and multiplier (got 3)"
        ),
        (
            "load.csv without rows", "load.csv: traffic.csv\n", ["traffic.csv": "t_s,multiplier\n"],
            "traffic.csv:1: field 'load.csv': has no rows after the header"
        ),
        (
            "capacity CSV beside an outage", "server.outage: {at: 10s, duration: 5s}\nserver.capacity_csv: capacity.csv\n",
            ["capacity.csv": "t_s,capacity_per_s\n0,150\n"],
            "field 'server.capacity_csv': replaces the outage, brownout and dips profile: remove server.outage.duration or the CSV file"
        ),
        (
            "capacity CSV negative", "server.capacity_csv: capacity.csv\n", ["capacity.csv": "t_s,capacity_per_s\n0,150\n10,-1\n"],
            "capacity.csv:3: field 'server.capacity_csv': column capacity_per_s: must not be negative (got -1)"
        ),
        (
            "capacity CSV time past 30 days", "server.capacity_csv: capacity.csv\n", ["capacity.csv": "t_s,capacity_per_s\n0,150\n9e9,1\n"],
            "capacity.csv:3: field 'server.capacity_csv': column t_s: 9e9 is outside 0…2592000 seconds"
        )
    ]

    @Test("each bad load or capacity input: status 2, one line naming file, line and field, no output", arguments: cases.indices)
    func badInput(index: Int) throws {
        let (what, yaml, files, fragment) = Self.cases[index]
        let (r, out) = try run(Self.base + yaml, files: files)
        #expect(r.status == 2, "\(what): status \(r.status)")
        #expect(r.stderr.contains(fragment), "\(what): \(r.stderr)")
        #expect(r.stderr.hasPrefix("retrystorm: error: "), "\(what): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(what): more than one line: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "\(what): output written")
    }

    @Test("bad --set load.profile is status 2 naming the option and the point")
    func badSetProfile() throws {
        let (r, _) = try run(Self.base, extra: ["--set", "load.profile=[[0s,1],[5s,x]]"])
        #expect(r.status == 2)
        #expect(
            r.stderr.contains("--set load.profile=[[0s,1],[5s,x]]: field 'load.profile': point 2, multiplier: expected a number (got 'x')"),
            "\(r.stderr)")
    }

    /// summary.csv and timeseries.csv of `yaml` (with `files`), run with `extra`.
    func outputs(_ yaml: String, files: [String: String] = [:], extra: [String] = []) throws -> (String, String) {
        let (r, out) = try run(yaml, files: files, extra: extra)
        #expect(r.status == 0, "\(r.stderr)")
        return (try CLI.read(out.appendingPathComponent("summary.csv")), try CLI.read(out.appendingPathComponent("timeseries.csv")))
    }

    @Test(
        "a capacity CSV in the shape of an outage (150/s, 30/s from 20 s to 30 s, linear back by 40 s) gives that outage's summary.csv and timeseries.csv byte for byte"
    )
    func capacityReplayIsOutage() throws {
        let outage = try outputs(Self.base + "server.outage: {at: 20s, duration: 10s, fraction: 0.2, recovery: linear, ramp: 10s}\n")
        let replay = try outputs(
            Self.base + "server.capacity_csv: capacity.csv\n",
            files: ["capacity.csv": "t_s,capacity_per_s\n0,150\n20,150\n20,30\n30,30\n40,150\n"])
        #expect(outage.0 == replay.0)
        #expect(outage.1 == replay.1)
        // It is an incident: the summary has incident metrics.
        #expect(!outage.0.contains(",nan,nan,nan,"))
    }

    @Test("load.csv, load.profile and --set load.profile with the same points give the same bytes; load.spike is the step the profile spells out")
    func loadSourcesAgree() throws {
        let profile = try outputs(Self.base + "load.profile: [[10s, 1], [10s, 2], [15s, 2], [15s, 1]]\n")
        let csv = try outputs(Self.base + "load.csv: traffic.csv\n", files: ["traffic.csv": "t_s,multiplier\r\n10,1\r\n10,2\r\n15,2\r\n15,1\r\n"])
        let set = try outputs(Self.base, extra: ["--set", "load.profile=[[10s, 1], [10s, 2], [15s, 2], [15s, 1]]"])
        let spike = try outputs(Self.base + "load.spike: {at: 10s, duration: 5s, multiplier: 2}\n")
        #expect(profile.0 == csv.0 && profile.1 == csv.1)
        #expect(profile.0 == set.0 && profile.1 == set.1)
        #expect(profile.0 == spike.0 && profile.1 == spike.1)
        // The spike doubles the arrivals of its 5 buckets: about 500 more operations than the flat run's 6,000.
        let flat = try outputs(Self.base)
        func operations(_ summary: String) -> Double {
            let rows = summary.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            let column = rows[0].firstIndex(of: "operations")!
            return Double(rows[1][column])!
        }
        let extra = operations(spike.0) - operations(flat.0)
        #expect(extra > 400 && extra < 600, "\(extra)")
    }

    @Test("retrystorm keys documents the new keys")
    func keysDocumented() throws {
        let keys = try CLI.run(["keys"])
        for key in ["load.profile", "load.spike.at", "load.spike.duration", "load.spike.multiplier", "load.csv", "server.capacity_csv"] {
            #expect(keys.stdout.contains("| `\(key)` |"), "\(key)")
        }
        #expect(keys.stdout.contains("`constant` (each client every 1 / `rate`"))
    }

    /// The scenario of the list-value tests: poisson, so that a profile is allowed.
    static let poisson = base.replacingOccurrences(of: "  rate: 1/s\n", with: "  arrival: poisson\n  rate: 1/s\n")

    /// The data rows of a summary.csv whose variant (the first column) is `variant`, without that column.
    static func rows(_ csv: String, variant: String) -> [String] {
        csv.split(separator: "\n").filter { $0.hasPrefix(variant + ",") }.map { String($0.dropFirst(variant.count + 1)) }
    }

    @Test("--vary takes two load profiles as two points, named by their points; each is the run --set gives it")
    func varyProfiles() throws {
        let first = "[[0s,1],[10s,3],[20s,1]]"
        let second = "[[0s,1],[10s,5],[20s,1]]"
        let (r, out) = try run(Self.poisson, ["compare"], extra: ["--vary", "load.profile=\(first),\(second)"])
        #expect(r.status == 0, "\(r.stderr)")
        let compare = try CLI.read(out.appendingPathComponent("compare.csv"))
        let variants = Set(compare.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) })
        #expect(variants == ["profile=0s:1/10s:3/20s:1", "profile=0s:1/10s:5/20s:1"])
        // Replication 0 of every point uses the same streams as a run with the same seed (common
        // random numbers), so each point's rows are those of `run --set load.profile=…`.
        let summary = try CLI.read(out.appendingPathComponent("summary.csv"))
        for (profile, name) in [(first, "profile=0s:1/10s:3/20s:1"), (second, "profile=0s:1/10s:5/20s:1")] {
            let (set, _) = try outputs(Self.poisson, extra: ["--set", "load.profile=\(profile)"])
            let mine = Self.rows(summary, variant: name)
            #expect(mine.count == 1)
            #expect(mine == Self.rows(set, variant: "base"), "\(name)")
        }
    }

    @Test("--grid sweeps load profiles; sweep.csv holds each profile as its label, which needs no quoting")
    func gridProfiles() throws {
        let (r, out) = try run(Self.poisson, ["sweep"], extra: ["--grid", "load.profile=[[0s,1],[10s,2]],[[0s,1],[10s,4]]"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.read(out.appendingPathComponent("sweep.csv")).split(separator: "\n").map { $0.split(separator: ",") }
        #expect(rows[0].prefix(2) == ["variant", "load.profile"])
        #expect(Set(rows.dropFirst().map { "\($0[0]) \($0[1])" }) == ["profile=0s:1/10s:2 0s:1/10s:2", "profile=0s:1/10s:4 0s:1/10s:4"])
    }

    @Test("a list with an unclosed bracket is status 2 and one line naming the option and the field")
    func varyUnclosed() throws {
        let (r, out) = try run(Self.poisson, ["compare"], extra: ["--vary", "load.profile=[[0s,1],[10s,3]"])
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "retrystorm: error: --vary load.profile=[[0s,1],[10s,3]: field 'load.profile': has a '[' that is not closed (got '[[0s,1],[10s,3]')\n"
        )
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a run's findings say the server recovered after the load spike ended, and after the trigger ended for an outage")
    func findingsNameTheTrigger() throws {
        // 200/s for 6 s against 150/s leaves a backlog the server drains, so it recovers (a 5 s
        // spike's backlog never made an attempt time out: nothing to recover from, issue 26).
        let spike = try run(Self.poisson + "load.spike: {at: 10s, duration: 6s, multiplier: 2}\n", extra: ["--replications", "2"])
        #expect(spike.0.status == 0, "\(spike.0.stderr)")
        let spikeReport = try CLI.read(spike.1.appendingPathComponent("report.html"))
        #expect(spikeReport.contains("The server recovered in 2 of 2 replications, "), "\(spikeReport)")
        #expect(spikeReport.contains(" after the load spike ended."))
        #expect(!spikeReport.contains("after the trigger ended"))
        // At 35% for 5 s (then back at once) attempts time out and the server recovers after the
        // outage (at 80% with its default 60 s ramp, nothing failed, and the ramp outlived the horizon).
        let outage = try run(
            Self.poisson + "server.outage: {at: 10s, duration: 5s, fraction: 0.35, recovery: instant}\n", extra: ["--replications", "2"])
        #expect(outage.0.status == 0, "\(outage.0.stderr)")
        let outageReport = try CLI.read(outage.1.appendingPathComponent("report.html"))
        #expect(outageReport.contains(" after the trigger ended."))
        #expect(!outageReport.contains("load spike"))
    }
}
