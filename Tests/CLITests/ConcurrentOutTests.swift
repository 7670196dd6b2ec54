import Foundation
import RetryStormKit
import TestSupport
import Testing

/// Two runs into one `--out`: the one that comes second is told that another run writes there,
/// naming its host and pid, with status 2, whether it passed `--force` or not; it writes nothing
/// and removes nothing, and the first run's results arrive whole.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ConcurrentOutTests {
    /// The line the second run gets while the run `pid` of this host writes `out`.
    func busy(_ out: String, pid: Int32) -> String {
        "retrystorm: error: \(out): another retrystorm run is writing there (host \(ProcessInfo.processInfo.hostName), pid \(pid)); "
            + "wait for it or choose another --out\n"
    }

    /// The first run writes `out` for a couple of seconds (OutputSafetyTests' slow overrides);
    /// with `existing`, `out` holds an earlier run's results, which the first run replaces
    /// (`--force`). Today's main told the second run "out already exists; choose another --out or
    /// pass --force to replace it" while the first replaced it, and, given --force, let it run
    /// to the end and fail at its commit; into a new `out` it named the writer in other words.
    @Test(
        "the second of two runs into one --out is refused naming the writer's host and pid; the first's results arrive whole",
        arguments: [(false, false), (false, true), (true, false), (true, true)])
    func secondRunRefused(existing: Bool, secondForce: Bool) throws {
        let dir = try OutputSafetyTests().project()
        let out = dir.appendingPathComponent("out")
        if existing { #expect(try CLI.run(["run", "s.yaml", "--out", "out", "--seed", "1"], in: dir).status == 0) }
        let first = try CLI.Background(
            ["run", "s.yaml", "--out", "out", "--seed", "2"] + OutputSafetyTests.slow + (existing ? ["--force"] : []), in: dir)
        // The first run is writing once its staging directory is there (its marker in `out` comes first).
        #expect(CLI.wait { CLI.entries(dir).contains { $0.hasPrefix(".out.tmp-") } })
        let before = CLI.entries(dir)
        let second = try CLI.run(["run", "s.yaml", "--out", "out", "--seed", "3"] + (secondForce ? ["--force"] : []), in: dir)
        let during = CLI.entries(dir)
        let (status, stderr, _) = first.finish()
        #expect(second.status == 2 && second.stderr == busy("out", pid: first.pid), "\(second.status) \(second.stderr)")
        #expect(second.stdout == "")
        #expect(during == before, "the second run left \(during), not \(before)")
        #expect(status == 0, "\(stderr)")
        // The first run's results, whole: its seed, its clients, every file a run writes.
        #expect(try CLI.read(out.appendingPathComponent("summary.csv")).contains(",2,200000,"), "the first run's results")
        #expect(CLI.entries(out).contains("perf.json") && CLI.entries(out).contains("report.html"), "\(CLI.entries(out))")
        #expect(!CLI.entries(out).contains(".retrystorm-writing"), "\(CLI.entries(out))")
        #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") || $0.contains(".old-") }, "\(CLI.entries(dir))")
    }

    /// The moment between another run's `mkdir` of `out` and its marker's rename into place:
    /// `out` holds only the marker's temporary file. Today's main said "out already exists; …
    /// pass --force" (or, given --force, that out was not written by retrystorm).
    @Test("a --out whose marker is still under its temporary name is waited for, then refused naming its writer", arguments: [false, true])
    func markerInTheMaking(force: Bool) throws {
        let dir = try OutputSafetyTests().project()
        try OwnershipTests.marker.write(to: dir.appendingPathComponent("marker.txt"), atomically: true, encoding: .utf8)
        // flock(1) holds the lock as the writer does while it renames its marker into place.
        let r = try CLI.shell(
            """
            temporary=out/.retrystorm-writing.new-0123456789abcdef
            mkdir out && cp marker.txt $temporary
            flock -x $temporary sleep 3 &
            (sleep 0.3; mv $temporary out/.retrystorm-writing) &
            "$RETRYSTORM" run s.yaml --out out\(force ? " --force" : "")
            status=$?
            wait
            exit $status
            """, in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(
            r.stderr == "retrystorm: error: out: another retrystorm run is writing there (host build-7, pid 1); wait for it or choose another --out\n"
        )
        #expect(CLI.entries(dir.appendingPathComponent("out")) == [".retrystorm-writing"])
        #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") }, "\(CLI.entries(dir))")
    }

    /// A run killed while it replaced `out` leaves its marker there, its lock free: the next run
    /// removes it and is not refused; the earlier results are as they were.
    @Test("a marker left in --out by a run that was killed does not refuse the next run")
    func killedWriterLeavesNoRefusal() throws {
        let dir = try OutputSafetyTests().project()
        let out = dir.appendingPathComponent("out")
        #expect(try CLI.run(["run", "s.yaml", "--out", "out"], in: dir).status == 0)
        let earlier = try CLI.read(out.appendingPathComponent("summary.csv"))
        let first = try CLI.Background(["run", "s.yaml", "--out", "out", "--force"] + OutputSafetyTests.slow, in: dir)
        #expect(CLI.wait { CLI.entries(out).contains(".retrystorm-writing") } && CLI.waitForStaging(in: dir, of: "out"))
        first.send(SIGKILL)
        _ = first.finish()
        #expect(try CLI.read(out.appendingPathComponent("summary.csv")) == earlier)
        let refused = try CLI.run(["run", "s.yaml", "--out", "out"], in: dir)
        #expect(
            refused.status == 2 && refused.stderr == "retrystorm: error: out already exists; choose another --out or pass --force to replace it\n")
        let again = try CLI.run(["run", "s.yaml", "--out", "out", "--force", "--seed", "9"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try CLI.read(out.appendingPathComponent("summary.csv")).contains(",9,50,"))
        #expect(!CLI.entries(out).contains(".retrystorm-writing"), "\(CLI.entries(out))")
        #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") || $0.contains(".old-") }, "\(CLI.entries(dir))")
    }
}
