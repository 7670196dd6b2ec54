import Foundation
import TestSupport
import Testing

/// Lines that once pointed the user the wrong way, compared whole (reliability round four): a YAML
/// null where a name belongs, a section given a value wherever it stands, a large plain JSON file
/// blamed on YAML aliases, and gates whose parentheses or value are off. Each case is bad input:
/// status 2, this one line, nothing written.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct MisleadingLineTests {
    /// A two-service graph whose second service, or the call to it, is substituted in.
    static func graph(service: String = "name: db", call: String = "{to: db}", variant: String = "") -> String {
        """
        horizon: 10s
        clients: {count: 10, timeout: 1s}
        services:
          - name: api
            calls:
              - \(call)
          - \(service)
        \(variant)
        """
    }

    static let fleet = """
        horizon: 10s
        clients: {count: 10, timeout: 1s}

        """

    /// Runs `validate` on `yaml` (written as `s.yaml`) with `extra`; returns its status and stderr.
    static func validate(_ yaml: String, _ extra: [String] = []) throws -> CLI.Result {
        let dir = try CLI.temporaryDirectory()
        try yaml.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return try CLI.run(["validate", "s.yaml"] + extra, in: dir)
    }

    static func expectRefused(_ r: CLI.Result, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 2, "status \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr == "retrystorm: error: " + line + "\n", sourceLocation: sourceLocation)
    }

    @Test(
        "a YAML null is no name: a service, a call's to, a population, a variant (null, Null, NULL, ~, empty)",
        arguments: [
            (graph(service: "name: null"), "s.yaml:7:11: field 'services.name': has no value: expected a name"),
            (graph(service: "name: ~"), "s.yaml:7:11: field 'services.name': has no value: expected a name"),
            (graph(service: "name:"), "s.yaml:7:10: field 'services.name': has no value: expected a name"),
            (graph(call: "{to: NULL}"), "s.yaml:6:14: field 'services.api.calls.to': has no value: expected a name"),
            (fleet + "populations:\n  - {name: Null, share: 1}\n", "s.yaml:4:12: field 'populations.name': has no value: expected a name"),
            (fleet + "variants:\n  - {name: null, clients.count: 5}\n", "s.yaml:4:12: field 'variants.name': has no value: expected a name"),
            // Quoted, it is the text: a name like any other (and "null" is a valid one).
            (graph(service: "name: \"\""), "s.yaml:7:11: field 'services.name': must be a non-empty name")
        ])
    func nullNames(yaml: String, line: String) throws {
        Self.expectRefused(try Self.validate(yaml), line)
    }

    @Test("a quoted \"null\" is a name: the graph with a service called null is valid")
    func quotedNull() throws {
        let r = try Self.validate(Self.graph(service: "name: \"null\"", call: "{to: \"null\"}"))
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(
        "a section given a value is a section wherever it stands: file, population, call, service's server, --set",
        arguments: [
            (fleet + "policy: 5\n", [String](), "s.yaml:3:1: field 'policy': is a section: put its keys under it (e.g. preset: none)"),
            (
                fleet + "populations:\n  - {name: a, share: 1, policy: 5}\n", [],
                "s.yaml:4:25: field 'populations.a.policy': is a section: put its keys under it (e.g. preset: none)"
            ),
            (
                graph(call: "{to: db, policy: 5}"), [],
                "s.yaml:6:18: field 'services.api.calls.db.policy': is a section: put its keys under it (e.g. preset: none)"
            ),
            (
                graph(service: "{name: db, server: 5}"), [],
                "s.yaml:7:16: field 'services.db.server': is a section: put its keys under it (e.g. model: queue)"
            ),
            (fleet, ["--set", "policy=5"], "--set policy=5: field 'policy': is a section: set one of its keys (e.g. policy.preset=none)"),
            (fleet, ["--set", "clients=5"], "--set clients=5: field 'clients': is a section: set one of its keys (e.g. clients.count=1000)"),
            (
                graph(), ["--set", "services.api.calls.db.policy=5"],
                "--set services.api.calls.db.policy=5: field 'services.api.calls.db.policy': is a section: set one of its keys (e.g. services.api.calls.db.policy.preset=none)"
            ),
            (
                fleet + "populations:\n  - {name: a, share: 1}\n", ["--set", "populations.a.policy.backoff=5"],
                "--set populations.a.policy.backoff=5: field 'populations.a.policy.backoff': is a section: set one of its keys (e.g. populations.a.policy.backoff.kind=exponential)"
            )
        ])
    func sections(yaml: String, extra: [String], line: String) throws {
        Self.expectRefused(try Self.validate(yaml, extra), line)
    }

    @Test("a plain JSON scenario over the value cap is not blamed on YAML aliases; an alias bomb is")
    func valueCap() throws {
        // 150,003 values and no alias: 50,001 [time, multiplier] pairs of a load profile.
        let points = (0..<50_001).map { "[\"\($0)s\", 1]" }.joined(separator: ",")
        let json = "{\"horizon\": \"10s\", \"load\": {\"profile\": [\(points)]}}"
        let r = try Self.validate(json)
        #expect(r.status == 2)
        #expect(r.stderr.hasSuffix("has more than 100,000 values; a scenario holds at most that many\n"), "\(r.stderr)")
        var bomb = "horizon: 10s\na: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        for n in 1...6 { bomb += "a\(n): &a\(n) [" + Array(repeating: "*a\(n == 1 ? "" : String(n - 1))", count: 10).joined(separator: ", ") + "]\n" }
        let b = try Self.validate(bomb)
        #expect(b.status == 2)
        #expect(b.stderr.contains("values once its YAML aliases are expanded") || b.stderr.contains("is not a scenario key"), "\(b.stderr)")
    }

    @Test(
        "malformed gates get the advice that fits their slip",
        arguments: [
            (
                "tts_p99_s.vs(x)).ci95_high<=1",
                "--expect tts_p99_s.vs(x)).ci95_high<=1: 'tts_p99_s.vs(x))': a ')' closes no '(': a difference is written .vs(VARIANT) or .minus(VARIANT), one at most, e.g. tts_p99_s.vs(full-jitter).ci95_high<=5%"
            ),
            (
                "tts_p99_s.vs(x<=1",
                "--expect tts_p99_s.vs(x<=1: 'tts_p99_s.vs(x': a '(' is not closed: a difference is written .vs(VARIANT) or .minus(VARIANT), one at most, e.g. tts_p99_s.vs(full-jitter).ci95_high<=5%"
            ),
            (
                "tts_p99_s.vs(a).vs(b)<=1",
                "--expect tts_p99_s.vs(a).vs(b)<=1: 'tts_p99_s.vs(a).vs(b)': a difference is written .vs(VARIANT) or .minus(VARIANT), one at most, e.g. tts_p99_s.vs(full-jitter).ci95_high<=5%"
            ),
            (
                "tts_p99_s(x)<=1",
                "--expect tts_p99_s(x)<=1: 'tts_p99_s(x)': parentheses belong to a difference only: a difference is written .vs(VARIANT) or .minus(VARIANT), one at most, e.g. tts_p99_s.vs(full-jitter).ci95_high<=5%"
            ),
            ("tts_p99_s.vs(x)<=", "--expect tts_p99_s.vs(x)<=: expected a value after <=, e.g. peak_load_ratio<=1.5 (got 'tts_p99_s.vs(x)<=')"),
            (".vs(x)<=1", "--expect .vs(x)<=1: expected a metric before <=, e.g. peak_load_ratio<=1.5 (got '.vs(x)<=1')"),
            ("tts_p99_s.vs()<=1", "--expect tts_p99_s.vs()<=1: 'tts_p99_s.vs()': name the variant to compare with, e.g. tts_p99_s.vs(full-jitter)")
        ])
    func gates(gate: String, line: String) throws {
        Self.expectRefused(try Self.validate(Self.fleet, ["--expect", gate]), line)
    }
}
