import Foundation
import TestSupport
import Testing

/// Runs sharing one directory across hosts, containers and pid namespaces: a directory is a
/// leftover only when its marker is RetryStorm's and its lock is free; a pid proves nothing.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct OwnershipTests {
    /// The text of a marker as a run on another host writes it (its lock is free: no process holds it).
    static let marker = """
        retrystorm run marker 1
        host: build-7
        boot_id: 2b1e0e8c-0000-4000-8000-000000000000
        pid: 1
        start_ticks: 4242
        started: 2026-01-01T00:00:00Z

        """

    /// A project directory with a small scenario (OutputSafetyTests').
    func project() throws -> URL { try OutputSafetyTests().project() }

    func make(_ dir: URL, files: [String: String]) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    }

    /// A pid no process has: above every pid this machine has given out.
    func deadPid() -> Int32 {
        var pid: Int32 = 4_000_000
        while kill(pid, 0) == 0 || errno == EPERM { pid += 1 }
        return pid
    }

    @Test("the next run removes leftovers whose marker is RetryStorm's and unlocked, puts back results set aside, and keeps all else")
    func leftovers() throws {
        let dir = try project()
        let fm = FileManager.default
        try make(
            dir.appendingPathComponent(".out.tmp-0123456789abcdef"),
            files: [".retrystorm-writing": Self.marker, ".retrystorm": "x", "timeseries.csv": "partial"])
        // Results moved aside by a run that ended before its new results arrived: put back.
        try make(dir.appendingPathComponent(".kept.old-00000000000000aa"), files: [".retrystorm-writing": Self.marker, "summary.csv": "earlier"])
        // Set aside by a run whose new results did arrive: removed, the new ones stay.
        try make(dir.appendingPathComponent("done"), files: ["summary.csv": "new"])
        try make(dir.appendingPathComponent(".done.old-00000000000000bb"), files: [".retrystorm-writing": Self.marker, "summary.csv": "old"])
        // Names of leftovers without a marker, with a file of the marker's name that is not one,
        // or in the naming of earlier versions (a pid): never touched. Today's main deleted the
        // empty one and the one with the results marker.
        let pid = deadPid()
        let kept = [
            ".notes.tmp-00000000000000cc", ".empty.tmp-\(pid)", ".legacy.tmp-\(pid + 1)", ".fake.tmp-00000000000000dd",
            ".fake2.old-00000000000000ee", ".empty2.tmp-00000000000000ff"
        ]
        try make(dir.appendingPathComponent(kept[0]), files: ["notes.md": "mine"])
        try make(dir.appendingPathComponent(kept[1]), files: [:])
        try make(dir.appendingPathComponent(kept[2]), files: [".retrystorm": "x", "summary.csv": "legacy"])
        try make(dir.appendingPathComponent(kept[3]), files: [".retrystorm-writing": "not a marker\n", "summary.csv": "x"])
        try make(
            dir.appendingPathComponent(kept[4]),
            files: [".retrystorm-writing": Self.marker.replacingOccurrences(of: "pid: 1\n", with: ""), "a.csv": "x"])
        try make(dir.appendingPathComponent(kept[5]), files: [:])
        // A symbolic link with a leftover's name, to a directory holding a free marker: not followed.
        let target = dir.appendingPathComponent("target")
        try make(target, files: [".retrystorm-writing": Self.marker, "summary.csv": "linked"])
        try fm.createSymbolicLink(at: dir.appendingPathComponent(".link.tmp-0000000000000011"), withDestinationURL: target)

        let r = try CLI.run(["run", "s.yaml", "--out", "out"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let names = CLI.entries(dir)
        #expect(
            !names.contains(".out.tmp-0123456789abcdef") && !names.contains(".kept.old-00000000000000aa")
                && !names.contains(".done.old-00000000000000bb"), "\(names)")
        #expect(try CLI.read(dir.appendingPathComponent("kept/summary.csv")) == "earlier")
        #expect(CLI.entries(dir.appendingPathComponent("kept")) == ["summary.csv"], "the put-back results lose the marker")
        #expect(try CLI.read(dir.appendingPathComponent("done/summary.csv")) == "new")
        for name in kept { #expect(names.contains(name), "\(name) was removed") }
        #expect(try CLI.read(dir.appendingPathComponent(kept[0]).appendingPathComponent("notes.md")) == "mine")
        #expect(try CLI.read(dir.appendingPathComponent(kept[2]).appendingPathComponent("summary.csv")) == "legacy")
        #expect(names.contains(".link.tmp-0000000000000011"))
        #expect(try CLI.read(target.appendingPathComponent("summary.csv")) == "linked")
    }

    @Test(
        "a leftover whose marker another process holds locked is a live run's: never removed",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func lockedMarkerIsLive() throws {
        let dir = try project()
        let live = dir.appendingPathComponent(".live.tmp-00000000000000ab")
        try make(live, files: [".retrystorm-writing": Self.marker, "timeseries.csv": "being written"])
        // flock(1) holds the lock as a run on another host would, through the NFS lock manager.
        let holder = try CLI.Background(
            program: URL(fileURLWithPath: "/usr/bin/flock"),
            ["-x", live.appendingPathComponent(".retrystorm-writing").path, "sleep", "60"], in: dir)
        defer { holder.send(SIGTERM) }
        usleep(200_000)
        #expect(try CLI.run(["run", "s.yaml", "--out", "out"], in: dir).status == 0)
        #expect(try CLI.read(live.appendingPathComponent("timeseries.csv")) == "being written")
        // A reservation held the same way refuses the run, naming the owner.
        let reserved = dir.appendingPathComponent("taken")
        try make(reserved, files: [".retrystorm-writing": Self.marker])
        let holder2 = try CLI.Background(
            program: URL(fileURLWithPath: "/usr/bin/flock"),
            ["-x", reserved.appendingPathComponent(".retrystorm-writing").path, "sleep", "60"], in: dir)
        defer { holder2.send(SIGTERM) }
        usleep(200_000)
        let r = try CLI.run(["run", "s.yaml", "--out", "taken"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(
            r.stderr
                == "retrystorm: error: taken: another retrystorm run is writing there (host build-7, pid 1); wait for it or choose another --out\n")
        #expect(CLI.entries(reserved) == [".retrystorm-writing"])
    }

    @Test("a reservation whose run ended is taken over, or removed by a run into another --out; a marker left in results is removed")
    func abandonedReservation() throws {
        let dir = try project()
        try make(dir.appendingPathComponent("out"), files: [".retrystorm-writing": Self.marker])
        let r = try CLI.run(["run", "s.yaml", "--out", "out"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.entries(dir.appendingPathComponent("out")).contains("summary.csv"))
        #expect(!CLI.entries(dir.appendingPathComponent("out")).contains(".retrystorm-writing"))
        // A reservation of a run killed before its results arrived, and results whose run was
        // killed between moving them into place and removing its marker.
        try make(dir.appendingPathComponent("reserved"), files: [".retrystorm-writing": Self.marker])
        try make(dir.appendingPathComponent("arrived"), files: [".retrystorm-writing": Self.marker, ".retrystorm": "x", "summary.csv": "s"])
        // Not RetryStorm's to tidy: a reservation reached through a symbolic link, a user's
        // directory that holds a marker beside other files.
        let elsewhere = try CLI.temporaryDirectory().appendingPathComponent("reserved")
        try make(elsewhere, files: [".retrystorm-writing": Self.marker])
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("link"), withDestinationURL: elsewhere)
        try make(dir.appendingPathComponent("mine"), files: [".retrystorm-writing": Self.marker, "notes.md": "mine"])
        #expect(try CLI.run(["run", "s.yaml", "--out", "other"], in: dir).status == 0)
        #expect(!CLI.entries(dir).contains("reserved"))
        #expect(CLI.entries(dir.appendingPathComponent("arrived")) == [".retrystorm", "summary.csv"])
        #expect(CLI.entries(elsewhere) == [".retrystorm-writing"])
        #expect(CLI.entries(dir.appendingPathComponent("mine")) == [".retrystorm-writing", "notes.md"])
    }

    static let canUnshare = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    /// A run in a pid namespace of its own, as in a container: its pid there (4: bash and two
    /// children came first) names no process in the namespace of the run that looks at it.
    func victim(_ dir: URL, out: String) throws -> CLI.Background {
        try CLI.Background(
            shell: """
                exec unshare --pid --fork --mount-proc bash -c 'true & true & wait; "$0" run s.yaml --out \(out) \(OutputSafetyTests.slow.joined(separator: " ")); exit $?' "$RETRYSTORM"
                """, in: dir)
    }

    @Test("a run in another pid namespace never deletes a live run's staging directory", .enabled(if: canUnshare))
    func liveStagingAcrossPidNamespaces() throws {
        let dir = try project()
        let run = try victim(dir, out: "victim")
        #expect(CLI.wait { CLI.entries(dir).contains { $0.hasPrefix(".victim.tmp-") } })
        // Today's main took the victim's staging directory (named after pid 4) for a dead run's.
        let other = try CLI.shell("exec unshare --pid --fork --mount-proc \"$RETRYSTORM\" run s.yaml --out other", in: dir)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(CLI.entries(dir).contains { $0.hasPrefix(".victim.tmp-") }, "the live staging directory was removed")
        let (status, stderr, _) = run.finish()
        #expect(status == 0, "\(stderr)")
        #expect(try CLI.read(dir.appendingPathComponent("victim/summary.csv")).contains("200000"))
        #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") }, "\(CLI.entries(dir))")
    }

    @Test("a run in another pid namespace is refused a --out a live run reserved", .enabled(if: canUnshare))
    func liveReservationAcrossPidNamespaces() throws {
        let dir = try project()
        let run = try victim(dir, out: "same")
        #expect(CLI.wait { FileManager.default.fileExists(atPath: dir.appendingPathComponent("same/.retrystorm-writing").path) })
        let other = try CLI.shell("exec unshare --pid --fork --mount-proc \"$RETRYSTORM\" run s.yaml --out same", in: dir)
        #expect(other.status == 2, "\(other.stderr)")
        #expect(
            other.stderr
                == "retrystorm: error: same: another retrystorm run is writing there (host \(ProcessInfo.processInfo.hostName), pid 4); "
                + "wait for it or choose another --out\n")
        let (status, stderr, _) = run.finish()
        #expect(status == 0, "\(stderr)")
        #expect(try CLI.read(dir.appendingPathComponent("same/summary.csv")).contains("200000"), "the first run's results")
    }

    @Test("a run killed with SIGKILL leaves directories the next run, in another pid namespace, removes", .enabled(if: canUnshare))
    func killedRunCleanedFromAnotherNamespace() throws {
        let dir = try project()
        let run = try CLI.Background(["run", "s.yaml", "--out", "killed"] + OutputSafetyTests.slow, in: dir)
        #expect(CLI.waitForStaging(in: dir, of: "killed"))
        run.send(SIGKILL)
        _ = run.finish()
        #expect(CLI.entries(dir).contains("killed") && CLI.entries(dir).contains { $0.hasPrefix(".killed.tmp-") })
        let other = try CLI.shell("exec unshare --pid --fork --mount-proc \"$RETRYSTORM\" run s.yaml --out killed", in: dir)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(!CLI.entries(dir).contains { $0.contains(".tmp-") }, "\(CLI.entries(dir))")
        #expect(CLI.entries(dir.appendingPathComponent("killed")).contains("summary.csv"))
    }
}
