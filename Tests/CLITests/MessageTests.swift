import Foundation
import TestSupport
import Testing

/// Every error is one line, `retrystorm: error: …`, status 2, naming what the user gave; control
/// characters never reach the terminal raw; no input reaches a trap.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct MessageTests {
    /// One line, the prefix, status 2, no trap.
    func expectOneLine(_ r: CLI.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 2 && !r.signalled, "\(what): status \(r.status)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("retrystorm: error: "), "\(what): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(
            r.stderr.split(separator: "\n", omittingEmptySubsequences: false).count == 2, "\(what): not one line: \(r.stderr)",
            sourceLocation: sourceLocation)
        #expect(!r.stderr.contains("Usage:") && !r.stderr.contains("Fatal error"), "\(what): \(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test(
        "option errors are one line like every other error",
        arguments: [
            ["run"], ["run", "x.yaml", "--bogus"], ["run", "x.yaml", "--replications", "many"], ["run", "x.yaml", "--jobs", "0"],
            ["run", "x.yaml", "--progress", "sometimes"], ["run", "x.yaml", "--max-events", "0"], ["compare", "x.yaml", "--shard", "3/2"],
            ["tune", "x.yaml", "--refine", "9"], ["nosuchcommand"], ["merge", "--out"]
        ])
    func optionErrors(args: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        try "horizon: 10s\n".write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        expectOneLine(try CLI.run(args, in: dir), args.joined(separator: " "))
    }

    @Test("a scenario that is not a regular file says what it is, at once (a FIFO would block a read forever)")
    func notARegularFile() throws {
        let dir = try CLI.temporaryDirectory()
        let fifo = dir.appendingPathComponent("pipe.yaml")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for (path, fragment) in [
            (dir.path, "is a directory, not a scenario file"), ("/dev/null", "is a device, not a scenario file"),
            (fifo.path, "is a FIFO (named pipe), not a scenario file")
        ] {
            for command in ["run", "validate"] {
                let r = try CLI.run([command, path], timeout: 20)
                expectOneLine(r, "\(command) \(path)")
                #expect(r.stderr.contains("\(path): \(fragment)"), "\(r.stderr)")
            }
        }
    }

    @Test("control characters in a path, a name or a value are escaped, never written raw")
    func controlCharactersEscaped() throws {
        let dir = try CLI.temporaryDirectory()
        let odd = dir.appendingPathComponent("bad\nname\u{1B}[31m.yaml")
        try "clients: {count: lots}\n".write(to: odd, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", odd.path])
        expectOneLine(r, "path")
        #expect(r.stderr.contains("bad\\nname\\u{1B}[31m.yaml") && !r.stderr.contains("\u{1B}"), "\(r.stderr)")
        let ok = dir.appendingPathComponent("ok.yaml")
        try "horizon: 10s\n".write(to: ok, atomically: true, encoding: .utf8)
        let named = try CLI.run(["run", ok.path, "--set", "name=ring\u{07}bell"])
        expectOneLine(named, "name")
        #expect(named.stderr.contains("\\u{7}") && !named.stderr.contains("\u{07}"), "\(named.stderr)")
        let vary = try CLI.run(["compare", ok.path, "--vary", "policy.max_attempts=1,\u{1B}2"])
        expectOneLine(vary, "vary")
        #expect(!vary.stderr.contains("\u{1B}"), "\(vary.stderr)")
    }

    @Test(
        "YAML tags outside what a field's type means are refused, not silently reinterpreted",
        arguments: [
            ("clients: {count: !!float 1000}", "field 'clients.count': has the YAML tag !!float"),
            ("description: !!binary aGVsbG8=", "field 'description': has the YAML tag !!binary"),
            ("name: !custom thing", "field 'name': has the YAML tag !custom"),
            ("horizon: !!timestamp 10s", "field 'horizon': has the YAML tag !!timestamp"),
            ("clients: !!set {count: 5}", "field 'clients': has the YAML tag !!set"),
            ("policy.classify.retry_everything: !!int true", "has the YAML tag !!int")
        ])
    func yamlTags(yaml: String, fragment: String) throws {
        let dir = try CLI.temporaryDirectory()
        try (yaml + "\n").write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", "x.yaml"], in: dir)
        expectOneLine(r, yaml)
        #expect(r.stderr.contains(fragment), "\(r.stderr)")
    }

    @Test(
        "tags that say what the field already means are accepted",
        arguments: [
            "clients: {count: !!int 1000}", "name: !!str 5", "server.flaky.failure: !!float 0.5", "policy.reconcile: !!bool true"
        ])
    func harmlessTags(yaml: String) throws {
        let dir = try CLI.temporaryDirectory()
        try ("horizon: 10s\n" + yaml + "\n").write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", "x.yaml"], in: dir)
        #expect(r.status == 0, "\(yaml): \(r.stderr)")
    }

    @Test(
        "extreme finite values run and print without a trap",
        arguments: [
            ["--set", "server.capacity=1e-17/s"], ["--set", "server.capacity=1e-300/s"], ["--set", "server.capacity=1e10/s"],
            ["--set", "clients.timeout=720h"], ["--set", "policy.backoff.max=720h", "--set", "policy.backoff.base=1ns"],
            ["--set", "server.capacity=1e-17/s", "--set", "server.queue.discipline=lifo"],
            ["--set", "server.capacity=1e-17/s", "--set", "server.congestion=720h"],
            ["--set", "server.capacity=1e-17/s", "--set", "server.reject_cost=1"], ["--set", "server.reject_cost=1"],
            ["--set", "clients.deadline=1us"], ["--set", "clients.deadline=720h", "--set", "clients.timeout=none"]
        ])
    func extremeValues(args: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        try "horizon: 10s\nclients: {count: 20}\n".write(to: dir.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "x.yaml", "--out", "o"] + args, in: dir)
        #expect(r.status == 0 && !r.signalled, "\(args): \(r.status) \(r.stderr)")
        #expect(r.stdout.contains("peak load / capacity"), "\(r.stdout)")
    }
}
