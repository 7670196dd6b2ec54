import Foundation
import TestSupport
import Testing

/// The resource guard counts an input file's profile once however many points share it, and
/// `validate` gives the same estimate and verdict as the command.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct InputGuardTests {
    static let scenario = """
        horizon: 60s
        clients: {count: 100, rate: 1/s, timeout: 2s}
        server: {capacity: 150/s}
        policy: {max_attempts: 3}

        """
    static let vary = ["--vary", "policy.backoff.base=100ms,200ms,300ms,400ms,500ms", "--jobs", "1"]

    /// A directory with `with.yaml` (the scenario and a `rows`-row file for `key` over the
    /// horizon: a load of multiplier 1, or a capacity going round 100, 110, …, 160 per second) and
    /// `without.yaml` (the scenario alone); the file's size in bytes.
    static func project(rows: Int, key: String = "load.csv") throws -> (URL, Int) {
        let dir = try CLI.temporaryDirectory()
        let load = key == "load.csv"
        var text = load ? "t_s,multiplier\n" : "t_s,capacity_per_s\n"
        text.reserveCapacity(rows * 16)
        for i in 0..<rows {
            text += "\(i * 60 / rows).\(String(i * 60_000_000 / rows % 1_000_000).leftPadded(6)),\(load ? 1 : 100 + i % 7 * 10)\n"
        }
        try text.write(to: dir.appendingPathComponent("input.csv"), atomically: true, encoding: .utf8)
        try (scenario + "\(key): input.csv\n").write(to: dir.appendingPathComponent("with.yaml"), atomically: true, encoding: .utf8)
        try scenario.write(to: dir.appendingPathComponent("without.yaml"), atomically: true, encoding: .utf8)
        return (dir, text.utf8.count)
    }

    @Test(
        "five --vary points of a 1,000,000-row load or capacity file: validate's estimate grows by the file and what it parses to once, and the measured peak stays below it",
        arguments: [
            // A point and its integral Λ: 16 + 8 bytes a row.
            ("load.csv", 24),
            // The parsed row (16 bytes) and a replayed segment (40 bytes) per row: none is at the nominal 150/s
            // for a whole piece, and the last row's value holds to the horizon.
            ("server.capacity_csv", 16 + 40)
        ])
    func estimateCountsProfileOnce(key: String, bytesPerRow: Int) throws {
        let (dir, fileBytes) = try Self.project(rows: 1_000_000, key: key)
        let with = try ResourceGuardTests.estimate("with.yaml", "compare", Self.vary, in: dir)
        let without = try ResourceGuardTests.estimate("without.yaml", "compare", Self.vary, in: dir)
        // The file's bytes (kept for the copy) and its rows, once.
        let expected = (Double(fileBytes) + 1_000_000 * Double(bytesPerRow)) / 1_048_576
        #expect(abs(with.mib - without.mib - expected) <= 1, "grew by \(with.mib - without.mib) MiB, expected \(expected)")
        let measured = try ResourceGuardTests.measure("with.yaml", "compare", Self.vary, in: dir)
        #expect(measured.mib <= with.mib, "peak \(measured.mib) MiB above the estimate \(with.mib) MiB")
    }

    /// Where between refusal and success the limit falls depends on what the process maps at start
    /// (about 78 MiB here), so the limits span both: at each, the two commands agree, line for line.
    @Test("under memory limits around a 2,000,000-row profile's need, validate and compare refuse it alike, before writing, or both pass")
    func verdictAgrees() throws {
        let (dir, _) = try Self.project(rows: 2_000_000)
        var verdicts: Set<Int32> = []
        for kib in stride(from: 200_000, through: 280_000, by: 10_000) {
            let validate = try CLI.run(limitedTo: kib, ["validate", "with.yaml"] + Self.vary, in: dir)
            let compare = try CLI.run(limitedTo: kib, ["compare", "with.yaml", "--out", "o"] + Self.vary, in: dir)
            #expect(validate.status == compare.status, "ulimit -v \(kib): validate \(validate.status), compare \(compare.status) \(compare.stderr)")
            if validate.status == 2 {
                #expect(
                    validate.stderr.contains("needs about") && validate.stderr == compare.stderr,
                    "ulimit -v \(kib): \(validate.stderr) | \(compare.stderr)")
                #expect(!CLI.entries(dir).contains("o"))
            } else {
                #expect(validate.status == 0, "ulimit -v \(kib): \(validate.stderr)")
            }
            verdicts.insert(validate.status)
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("o"))
        }
        #expect(verdicts == [0, 2], "the limits do not span refusal and success: \(verdicts)")
        let small = try CLI.run(limitedTo: 200_000, ["validate", "without.yaml"] + Self.vary, in: dir)
        #expect(small.status == 0, "without the file: \(small.stderr)")
    }
}

extension CLI {
    /// Runs `retrystorm args…` in `directory` under `ulimit -v` of `kib` KiB: the exit status
    /// (minus the signal when a signal ended it) and stderr.
    static func run(limitedTo kib: Int, _ args: [String], in directory: URL? = nil) throws -> (status: Int32, stderr: String) {
        let r = try CLI.run(
            program: URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -v \(kib) && exec \"$@\"", "sh", try CLI.binary.path] + args,
            in: directory, timeout: 600, stdout: .discard)
        return (r.signalled ? -r.status : r.status, r.stderr)
    }
}

extension String {
    /// The string with zeros before it up to `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
