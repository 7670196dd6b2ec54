import Foundation
import RetryPolicy
import RetryStormKit
import TestSupport
import Testing

/// `retrystorm policy export`, as an app team uses it: export from a scenario, decode the file with
/// `JSONDecoder`, and run the policy — the same value, so the same decisions, as the simulated clients.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct PolicyExportTests {
    /// Runs `retrystorm policy export args…` and decodes its stdout.
    static func export(_ args: [String]) throws -> RetryPolicyFile {
        let r = try CLI.run(["policy", "export"] + args)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        return try JSONDecoder().decode(RetryPolicyFile.self, from: Data(r.stdout.utf8))
    }

    /// The in-process export: the loaded scenario's policy written to a file and read back.
    static func inProcess(_ policy: RetryPolicy) throws -> RetryPolicy {
        try JSONDecoder().decode(RetryPolicyFile.self, from: JSONEncoder().encode(RetryPolicyFile(policy: policy))).policy
    }

    /// What one client's policy decides over a script of failures and successes on one host,
    /// with pinned randomness: every admission and decision with its instant.
    static func decisions(_ p: RetryPolicy) -> [String] {
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var now: Nanoseconds = 0
        var out: [String] = []
        let script: [[NormalizedError?]] = [
            [.http(503), .http(429, retryAfter: 2_000_000_000), .timedOut(.response), nil], [.http(404)], [.http(401), nil],
            [.transport(.connectionReset, reached: .unknown), nil], [.http(500), .http(502), .http(503), .http(504), .http(500)],
            [.http(413, retryAfter: 1_000_000_000), nil], [.http(409), nil], [nil]
        ]
        for outcomes in script {
            var record = OperationRecord()
            for outcome in outcomes {
                let admission = p.admit(record: &record, host: &host, now: now, random: &random)
                out.append("\(now) admit \(admission)")
                guard admission == .proceed else { break }
                p.attemptStarted(record: &record, host: &host, now: now)
                guard let outcome else {
                    p.succeeded(record: &record, host: &host, now: now, random: &random)
                    out.append("\(now) succeeded")
                    break
                }
                var d = p.decide(after: outcome, record: &record, host: &host, now: now, random: &random)
                if case .reconcile(let at) = d {
                    now = at
                    d = p.reconciled(.notApplied, record: &record, host: &host, now: now, random: &random)
                }
                out.append("\(now) \(d)")
                guard case .retry(let at) = d else { break }
                now = at
            }
            now += 1_000_000_000
        }
        return out
    }

    @Test("every preset exported through the CLI is the preset, with the same decisions", arguments: RetryPolicy.presets.map(\.name))
    func presets(_ name: String) throws {
        let file = try Self.export([CLI.fixture("bare.yaml").path, "--set", "policy.preset=\(name)"])
        let preset = try #require(RetryPolicy.preset(named: name))
        #expect(file.policy == preset)
        #expect(Self.decisions(file.policy) == Self.decisions(preset))
        #expect(file.source == "\(CLI.fixture("bare.yaml").path), --set policy.preset=\(name)")
    }

    static let scenario = try! ScenarioLoader.load(path: CLI.fixture("policy-families.yaml").path)

    @Test(
        "a scenario setting every family of policy keys: base and each variant come back exactly, through the CLI and in process",
        arguments: [nil] + scenario.variants.map(\.name))
    func families(_ variant: String?) throws {
        let loaded = try #require(
            variant.map { v in Self.scenario.variants.first { $0.name == v }?.scenario.policy }
                ?? Self.scenario.base.policy)
        let path = CLI.fixture("policy-families.yaml").path
        let exported = try Self.export([path] + (variant.map { ["--variant", $0] } ?? []))
        #expect(exported.policy == loaded)
        #expect(try Self.inProcess(loaded) == loaded)
        #expect(Self.decisions(exported.policy) == Self.decisions(loaded))
        #expect(exported.source == path + (variant.map { ", variant \($0)" } ?? ""))
    }

    /// The base's backoff is gRPC A6's example (0.1 s × 2^(n−1), max 1 s, × U[0.8, 1.2); grpc-go
    /// `backoff`): the first retries wait 80, 160, 320 ms at r = 0 and 120, 240, 480 ms at r → 1.
    /// Its budget is the AWS pre-2026 quota (botocore `retries/quota.py`): 500 → (5xx) 495 → (5xx)
    /// 490 → (200) 495. The grpc variant's throttling (A6 `retryThrottling` 10, 0.1): failures take
    /// the tokens to 9, 8, 7, 6, then 5, where retries stop; a success returns 0.1.
    @Test("the exported scenario policy on reference vectors: gRPC A6 backoff, the AWS quota trace, gRPC throttling")
    func vectors() throws {
        let path = CLI.fixture("policy-families.yaml").path
        let base = try Self.export([path]).policy
        for (r, expected) in [(0.0, [80, 160, 320]), (1.0, [120, 240, 480])] as [(Double, [Int64])] {
            var host = HostGuard(policy: base)
            var random = FixedUniformSource(r)
            var record = OperationRecord()
            var now: Nanoseconds = 0
            var waits: [Int64] = []
            for _ in 0..<3 {
                _ = base.admit(record: &record, host: &host, now: now, random: &random)
                base.attemptStarted(record: &record, host: &host, now: now)
                guard case .retry(let at) = base.decide(after: .http(503), record: &record, host: &host, now: now, random: &random) else { break }
                waits.append((at - now) / 1_000_000)
                now = at
            }
            #expect(waits == expected, "r = \(r)")
        }
        var host = HostGuard(policy: base)
        var random = FixedUniformSource(0.5)
        var record = OperationRecord()
        var tokens: [Int64] = []
        for (i, outcome) in ([.http(500), .http(503), nil] as [NormalizedError?]).enumerated() {
            let now = Int64(i) * 10_000_000_000
            #expect(base.admit(record: &record, host: &host, now: now, random: &random) == .proceed)
            base.attemptStarted(record: &record, host: &host, now: now)
            if let outcome {
                _ = base.decide(after: outcome, record: &record, host: &host, now: now, random: &random)
            } else {
                base.succeeded(record: &record, host: &host, now: now, random: &random)
            }
            tokens.append(host.budget.tokens)
        }
        #expect(tokens == [495, 490, 495])

        let grpc = try Self.export([path, "--variant", "grpc"]).policy
        var gHost = HostGuard(policy: grpc)
        var gRecord = OperationRecord()
        var gTokens: [Int64] = []
        var last: RetryDecision?
        var now: Nanoseconds = 0
        for _ in 0..<5 {
            _ = grpc.admit(record: &gRecord, host: &gHost, now: now, random: &random)
            grpc.attemptStarted(record: &gRecord, host: &gHost, now: now)
            last = grpc.decide(after: .http(503), record: &gRecord, host: &gHost, now: now, random: &random)
            gTokens.append(gHost.budget.tokens)
            if case .retry(let at) = last { now = at }
        }
        #expect(gTokens == [9000, 8000, 7000, 6000, 5000])
        #expect(last == .stop(.budgetExhausted))
    }

    @Test("docs/policy-library.md's policy file example is what the export prints for aws-standard-2026 (but for its source)")
    func documentedExample() throws {
        let doc = try CLI.read(CLI.packageRoot.appendingPathComponent("docs/policy-library.md"))
        let r = try CLI.run(["policy", "export", CLI.fixture("bare.yaml").path, "--set", "policy.preset=aws-standard-2026"])
        #expect(r.status == 0)
        let printed = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.contains("\"source\" :") ? "  \"source\" : \"my.yaml, --set policy.preset=aws-standard-2026\"" : String($0) }
            .joined(separator: "\n")
        #expect(doc.contains("```json\n" + printed + "```"), "docs/policy-library.md's policy file example is out of date")
    }

    @Test("--population exports that population's policy: its own preset, or the scenario's keys with its overrides")
    func population() throws {
        let path = CLI.packageRoot.appendingPathComponent("experiments/staged-rollout.yaml").path
        let loaded = try ScenarioLoader.load(path: path)
        let v1 = try Self.export([path, "--population", "v1"])
        #expect(v1.policy == RetryPolicy.preset(named: "naive-immediate")!)
        #expect(v1.source == "\(path), population v1")
        let v2 = try Self.export([path, "--population", "v2"])
        #expect(v2.policy == loaded.base.populations[1].policy)
        #expect(v2.policy.maxAttempts == 4)
        #expect(v2.policy.backoff.jitter == .full)
        #expect(v2.policy != v1.policy)
        let r = try CLI.run(["policy", "export", path, "--population", "web"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("retrystorm: error: \(path): no population named 'web' ("))
    }

    @Test("populations with their own policies and no --population: exit 2 naming them, nothing on stdout")
    func populationRequired() throws {
        // staged-rollout's v1 runs naive-immediate and v2 its own keys: neither is the base's policy,
        // which no client runs (today's main printed it).
        let path = CLI.packageRoot.appendingPathComponent("experiments/staged-rollout.yaml").path
        let r = try CLI.run(["policy", "export", path])
        #expect(r.status == 2 && r.stdout.isEmpty)
        #expect(
            r.stderr
                == "retrystorm: error: \(path): the clients are in populations (v1, v2) and v1, v2 run a policy of their own: name one with --population\n"
        )
        // A population that runs the base's policy needs no flag: its clients run what is exported.
        let dir = try CLI.temporaryDirectory()
        let scenario = dir.appendingPathComponent("s.yaml")
        try """
        horizon: 10s
        clients: {count: 10, arrival: poisson, rate: 0.1/s}
        policy: {preset: aws-standard-2026}
        populations:
          - {name: a, share: 50%}
          - {name: b, share: 50%}
        """.write(to: scenario, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["policy", "export", scenario.path]).status == 0)
    }

    @Test("bad input: exit 2 and one line naming the file (a variant it lacks, a population it lacks, a bad --set)")
    func badInput() throws {
        let path = CLI.fixture("policy-families.yaml").path
        let cases: [([String], String)] = [
            ([path, "--variant", "grpcc"], "retrystorm: error: \(path): no variant named 'grpcc' (did you mean 'grpc'?)\n"),
            (
                [path, "--variant", "nothing-like-it"],
                "retrystorm: error: \(path): no variant named 'nothing-like-it' (its variants: "
                    + Self.scenario.variants.map(\.name).joined(separator: ", ") + ")\n"
            ),
            (
                [CLI.fixture("tiny.yaml").path, "--variant", "x"],
                "retrystorm: error: \(CLI.fixture("tiny.yaml").path): no variant named 'x' (the scenario has no variants)\n"
            ),
            ([path, "--population", "web"], "retrystorm: error: \(path): no population named 'web' (the scenario has no populations)\n"),
            (
                [path, "--set", "policy.max_attempts=0"],
                "retrystorm: error: --set policy.max_attempts=0: field 'policy.max_attempts': must be at least 1 (got 0)\n"
            )
        ]
        for (args, message) in cases {
            let r = try CLI.run(["policy", "export"] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == message)
        }
    }
}
