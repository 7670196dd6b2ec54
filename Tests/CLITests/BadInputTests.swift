import Foundation
import TestSupport
import Testing

/// Bad input gets exit status 2 and one message naming file, line and field; nothing is written,
/// nothing earlier is lost, and no Swift trap or stack trace ever shows.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct BadInputTests {
    /// Writes `yaml` to a scenario file and runs `run` on it.
    func run(_ yaml: String, _ extra: [String] = []) throws -> (CLI.Result, URL) {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("bad.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(["run", file.path, "--out", out.path] + extra)
        return (r, out)
    }

    static let base = """
        horizon: 60s
        clients:
          count: 100
          timeout: 2s
        server:
          capacity: 100/s
        policy:
          max_attempts: 3

        """

    static let cases: [(String, String, String)] = [
        // (what, YAML appended or substituted, expected fragment of the message)
        (
            "unknown key, with the nearest valid one", base + "clientz:\n  count: 5\n",
            "bad.yaml:9:1: field 'clientz': is not a scenario key. Did you mean 'clients'?"
        ),
        (
            "misspelt nested key", base.replacingOccurrences(of: "  count: 100", with: "  cuont: 100"),
            "bad.yaml:3:3: field 'clients.cuont': is not a scenario key. Did you mean 'clients.count'?"
        ),
        (
            "wrong type", base.replacingOccurrences(of: "count: 100", with: "count: many"),
            "bad.yaml:3:10: field 'clients.count': expected a whole number (got 'many')"
        ),
        (
            "missing unit", base.replacingOccurrences(of: "horizon: 60s", with: "horizon: 60"),
            "bad.yaml:1:10: field 'horizon': needs a unit: write e.g. '60s'"
        ),
        ("negative duration", base.replacingOccurrences(of: "timeout: 2s", with: "timeout: -2s"), "field 'clients.timeout': must not be negative"),
        ("NaN rate", base.replacingOccurrences(of: "100/s", with: "nan/s"), "field 'server.capacity': expected a rate"),
        ("infinite count", base.replacingOccurrences(of: "count: 100", with: "count: .inf"), "field 'clients.count': expected a whole number"),
        (
            "zero attempts", base.replacingOccurrences(of: "max_attempts: 3", with: "max_attempts: 0"),
            "bad.yaml:8:17: field 'policy.max_attempts': must be at least 1 (got 0)"
        ),
        ("max below base", base + "  backoff: {base: 10s, max: 1s}\n", "field 'policy.backoff.max': (1s) must be at least policy.backoff.base (10s)"),
        (
            "bad choice", base + "  backoff: {jitter: ful}\n",
            "must be one of none, full, equal, decorrelated, decorrelated-v2, proportional, additive (got 'ful'). Did you mean 'full'?"
        ),
        (
            "fraction out of range", base + "server.outage: {duration: 10s, fraction: 1.5}\n",
            "field 'server.outage.fraction': must be between 0 and 1"
        ),
        ("YAML syntax error", base + "server: [unclosed\n", "bad.yaml:"),
        ("a section given a value", base + "variants: 3\n", "field 'variants': expects a list of variants"),
        ("a key set twice", base + "clients.count: 5\n", "field 'clients.count': is set twice (first at"),
        ("a key given twice in one mapping", base + "clients: {count: 5}\n", "bad.yaml:2:1: field 'clients': is given twice in one mapping"),
        (
            "a value where a section belongs", base.replacingOccurrences(of: "server:\n  capacity: 100/s", with: "server: fast"),
            "field 'server': is a section"
        ),
        (
            "too many clients for memory",
            base.replacingOccurrences(of: "count: 100", with: "count: 900000000").replacingOccurrences(of: "horizon: 60s", with: "horizon: 30d")
                + "clients.rate: 1/s\n", "field 'clients.count': needs about"
        ),
        ("empty file", "", "bad.yaml:1: is empty"),
        ("not a mapping", "- 1\n- 2\n", "expected a mapping of scenario keys"),
        ("bucket longer than the horizon", base + "bucket: 2m\n", "field 'bucket': (2m) must not be longer than the horizon (1m)")
    ]

    @Test(
        "each bad scenario: status 2, one clear message naming file, line and field, no output",
        arguments: cases.indices)
    func badScenario(index: Int) throws {
        let (what, yaml, fragment) = Self.cases[index]
        let (r, out) = try run(yaml)
        #expect(r.status == 2, "\(what): status \(r.status)")
        #expect(r.stderr.contains(fragment), "\(what): \(r.stderr)")
        #expect(r.stderr.hasPrefix("retrystorm: error: "), "\(what): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(what): more than one line: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "\(what): output written")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"))
    }

    @Test(
        "bad --set: unknown path (with suggestion), bad value, missing '='",
        arguments: [
            ("clients.cout=5", "--set clients.cout=5: field 'clients.cout': is not a scenario key. Did you mean 'clients.count'?"),
            ("clients.count=-1", "--set clients.count=-1: field 'clients.count': must be at least 1 (got -1)"),
            ("horizon", "--set horizon: expected path=value")
        ])
    func badSet(option: String, fragment: String) throws {
        let (r, _) = try run(Self.base, ["--set", option])
        #expect(r.status == 2)
        #expect(r.stderr.contains(fragment), "\(r.stderr)")
    }

    @Test(
        "bad options and a missing file get status 2",
        arguments: [
            (["--replications", "0"], "--replications must be between 1 and 100000"),
            (["--jobs", "0"], "--jobs must be between 1 and 1024"),
            (["--no-such-flag"], "Unknown option '--no-such-flag'")
        ])
    func badOptions(args: [String], fragment: String) throws {
        let (r, _) = try run(Self.base, args)
        #expect(r.status == 2)
        #expect(r.stderr.contains(fragment), "\(r.stderr)")
        let missing = try CLI.run(["run", "/nonexistent/x.yaml"])
        #expect(missing.status == 2 && missing.stderr.contains("/nonexistent/x.yaml: cannot read the file"))
    }

    @Test("an existing --out is refused without --force and left untouched; --force replaces a result directory")
    func existingOutput() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("ok.yaml")
        try Self.base.write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        #expect(try CLI.run(["run", file.path, "--out", out.path, "--seed", "1"]).status == 0)
        let earlier = try CLI.read(out.appendingPathComponent("summary.csv"))
        let refused = try CLI.run(["run", file.path, "--out", out.path, "--seed", "2"])
        #expect(refused.status == 2 && refused.stderr.contains("already exists; choose another --out or pass --force"))
        #expect(try CLI.read(out.appendingPathComponent("summary.csv")) == earlier)
        let forced = try CLI.run(["run", file.path, "--out", out.path, "--force", "--seed", "2"])
        #expect(forced.status == 0)
        #expect(try CLI.read(out.appendingPathComponent("summary.csv")) != earlier)
        #expect(CLI.entries(dir) == ["ok.yaml", "out"], "no staging or replaced directory left: \(CLI.entries(dir))")
    }

    @Test("validate: status 0 and a one-line verdict for a good file, 2 for a bad one")
    func validate() throws {
        let dir = try CLI.temporaryDirectory()
        let good = dir.appendingPathComponent("good.yaml")
        try Self.base.write(to: good, atomically: true, encoding: .utf8)
        let ok = try CLI.run(["validate", good.path])
        #expect(ok.status == 0 && ok.stdout.contains("valid"))
        let bad = try CLI.run(["validate", good.path, "--set", "policy.backoff.kind=exponentail"])
        #expect(bad.status == 2 && bad.stderr.contains("Did you mean 'exponential'?"))
    }
}
