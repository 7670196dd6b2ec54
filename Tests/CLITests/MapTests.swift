import Foundation
import TestSupport
import Testing

/// `retrystorm map`: P(stuck) over a grid, replications where they matter, map.csv, map.svg in the
/// report, and the same bytes whatever --jobs.
///
/// The scenario is the congestion collapse of the engine's StuckTests: 500 clients at 0.1/s, no
/// timeout, no retries, 100 workers each taking 1 s plus 1 ms per request in the system, and an
/// outage of `server.outage.duration` at 50 s. Its fluid model dn/dt = 50 − min(n, 100)/(1 + n/1000)
/// drains after a 5 s or 10 s outage (serving the 50/s that start in the tail, 180–200 s) and is
/// stuck after 40 s or 60 s (serving 17.9/s and 15.4/s there, under half of 50/s): every
/// replication agrees, so each point stops at 4 (1, then 2, then 4: 0 of 4 is [0, 49%], clear of
/// 50%; 0 of 2 is [0, 66%], not yet).
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct MapTests {
    static let collapse = """
        name: collapse
        seed: 5
        horizon: 200s
        bucket: 1s
        clients: {count: 500, arrival: poisson, rate: 0.1/s, timeout: none}
        server:
          model: queue
          capacity: 100/s
          workers: 100
          service: deterministic
          congestion: 1ms
          outage: {at: 50s, duration: 5s, fraction: 0, recovery: instant}
        policy: {max_attempts: 1}

        """

    func map(_ extra: [String], out: String = "o") throws -> (CLI.Result, URL) {
        let dir = try CLI.temporaryDirectory()
        try Self.collapse.write(to: dir.appendingPathComponent("c.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(
            ["map", "c.yaml", "--out", out, "--grid", "server.outage.duration=5s,10s,40s,60s", "--progress", "none"] + extra, in: dir)
        return (r, dir.appendingPathComponent(out))
    }

    @Test("map.csv: each point's replications, stuck count, P(stuck) with Wilson's interval and median recovery; agreeing points stop at 4")
    func mapFile() throws {
        let (r, out) = try map([])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.read(out.appendingPathComponent("map.csv")).split(separator: "\n").map(String.init)
        #expect(rows.first == "server.outage.duration,replications,stuck,p_stuck,p_stuck_low,p_stuck_high,recovery_p50_s")
        // 0 of 4: [0, z²/(4 + z²)] = [0, 0.489891]; 4 of 4: [4/(4 + z²), 1] = [0.510109, 1].
        #expect(rows.count == 5)
        #expect(rows[1].hasPrefix("5s,4,0,0.000000,0.000000,0.489891,"), "\(rows)")
        #expect(rows[2].hasPrefix("10s,4,0,0.000000,0.000000,0.489891,"), "\(rows)")
        #expect(rows[3] == "40s,4,4,1.000000,0.510109,1.000000,inf", "\(rows)")
        #expect(rows[4] == "60s,4,4,1.000000,0.510109,1.000000,inf", "\(rows)")
        // summary.csv holds every replication that ran: 4 points × 4.
        let summary = try CLI.read(out.appendingPathComponent("summary.csv")).split(separator: "\n")
        #expect(summary.count == 1 + 16)
        // The picture, in the report, and the table's last line.
        let svg = try CLI.read(out.appendingPathComponent("map.svg"))
        #expect(svg.contains("Where it tips: P(stuck)"))
        let report = try CLI.read(out.appendingPathComponent("report.html"))
        #expect(report.contains("map.svg") || report.contains("Where it tips"))
        #expect(report.contains("RetryStorm map · 4 points over server.outage.duration"))
        #expect(r.stdout.contains("stuck in most replications (P(stuck) ≥ 50%): 2 of 4 points"), "\(r.stdout)")
    }

    /// Where the boundary lies: the fluid model serves exactly half of the 50/s that start over the
    /// tail after an outage of 24.23 s (bisection of the tail's mean throughput, 1 ms steps). Below
    /// it a 20 s outage serves 36.4/s there (never stuck), above it 30 s serves 20.8/s (stuck). The
    /// map's P(stuck) crosses 50% between 24 s and 26 s, and those two points, undecided, get more
    /// replications than the points every replication agrees on.
    @Test("P(stuck) crosses 50% where the fluid model puts the boundary, and the boundary gets the replications")
    func boundary() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.collapse.write(to: dir.appendingPathComponent("c.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(
            ["map", "c.yaml", "--out", "o", "--grid", "server.outage.duration=20s,24s,26s,30s", "--progress", "none"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.read(dir.appendingPathComponent("o/map.csv")).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        let replications = rows.map { Int($0[1]) ?? 0 }
        let p = rows.map { Double($0[3]) ?? .nan }
        #expect(rows.count == 4)
        #expect(p[0] == 0 && replications[0] == 4, "\(rows)")
        #expect(p[1] < 0.5 && p[2] >= 0.5 && p[3] >= 0.5, "\(rows)")
        #expect(replications[1] > 4 && replications[2] > 4, "\(rows)")
    }

    @Test("the same bytes whatever --jobs, and report regenerates the same map from the files")
    func deterministic() throws {
        let (a, one) = try map(["--jobs", "1"])
        let (b, two) = try map(["--jobs", "2"])
        #expect(a.status == 0 && b.status == 0)
        for file in ["map.csv", "summary.csv", "sweep.csv", "map.svg", "report.html", "table.txt"] {
            #expect(try CLI.read(one.appendingPathComponent(file)) == CLI.read(two.appendingPathComponent(file)), "\(file)")
        }
        let svg = try CLI.read(one.appendingPathComponent("map.svg"))
        let again = try CLI.run(["report", one.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try CLI.read(one.appendingPathComponent("map.svg")) == svg)
    }

    @Test("a gate on stuck judges a map; --shard and a maximum under --replications are refused with exit 2")
    func gatesAndRefusals() throws {
        let (gate, _) = try map(["--expect", "stuck<=10%"])
        #expect(gate.status == 1, "\(gate.stderr)")
        #expect(gate.stderr.contains("duration=40s has stuck = 1.000"), "\(gate.stderr)")
        let (shard, _) = try map(["--shard", "0/2"])
        #expect(shard.status == 2 && shard.stderr.contains("cannot be split into shards"), "\(shard.stderr)")
        let (max, _) = try map(["--replications", "8", "--max-replications", "4"])
        #expect(max.status == 2 && max.stderr.contains("--max-replications must be between"), "\(max.stderr)")
    }
}
