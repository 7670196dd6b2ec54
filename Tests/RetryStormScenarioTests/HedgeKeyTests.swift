import Foundation
import RetryPolicy
import RetryStormEngine
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// `policy.hedge.*`: the ``Hedging`` each value builds on a call graph's call, the values refused
/// (one error naming the file, line and field), and the clients' policy, which hedges from
/// wherever the key comes (the file, a population, a variant, `--set`, `--vary`, an import).
struct HedgeKeyTests {
    /// Two lines, so that what follows starts on line 3.
    static let base = "horizon: 30s\nclients: {count: 50, rate: 1/s, timeout: 2s}\n"
    /// api calls db; the call's policy on line 7 of the file.
    static func edge(_ policy: String) -> String {
        "services:\n  - name: api\n    calls:\n      - to: db\n        policy: {\(policy)}\n  - name: db\n"
    }

    static func load(_ yaml: String, overrides: [String] = []) throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.parse(text: Self.base + yaml, path: "h.yaml", overrides: overrides)
    }

    /// The hedging of api's call to db.
    static func hedging(_ loaded: LoadedScenario) throws -> Hedging? {
        try #require(loaded.base.services.first?.calls.first).policy.hedging
    }

    static let s: Nanoseconds = 1_000_000_000

    @Test(
        "an edge's hedge keys build exactly this Hedging (nil unless the delay is not none)",
        arguments: [
            ("hedge: {delay: p95}", Hedging(delay: .percentile(0.95, window: 30 * s), maxAttempts: 2)),
            ("hedge: {delay: 50ms}", Hedging(delay: .fixed(50_000_000), maxAttempts: 2)),
            ("hedge: {delay: p99}", Hedging(delay: .percentile(0.99, window: 30 * s), maxAttempts: 2)),
            ("hedge: {delay: p99.9, max_attempts: 5, window: 2m}", Hedging(delay: .percentile(0.999, window: 120 * s), maxAttempts: 5)),
            ("hedge: {delay: p5, window: 1s}", Hedging(delay: .percentile(0.05, window: s), maxAttempts: 2)),
            ("hedge: {delay: P50}", Hedging(delay: .percentile(0.5, window: 30 * s), maxAttempts: 2)),
            ("hedge.delay: 1s, hedge.max_attempts: 3", Hedging(delay: .fixed(s), maxAttempts: 3)),
            ("hedge: {delay: 0s, max_attempts: 4}", Hedging(delay: .fixed(0), maxAttempts: 4)),
            ("hedge: {delay: 20ms, window: 5s}", Hedging(delay: .fixed(20_000_000), maxAttempts: 2)),
            ("preset: grpc, hedge: {delay: p90, max_attempts: 3}", Hedging(delay: .percentile(0.9, window: 30 * s), maxAttempts: 3)),
            ("hedge: {delay: none, max_attempts: 4}", nil),
            ("hedge: {max_attempts: 4, window: 10s}", nil),
            ("max_attempts: 3", nil)
        ] as [(String, Hedging?)])
    func built(policy: String, expected: Hedging?) throws {
        let loaded = try Self.load(Self.edge(policy))
        #expect(try Self.hedging(loaded) == expected)
        #expect(loaded.base.policy.hedging == nil, "the clients' policy is not the edge's")
    }

    @Test("an edge's hedge leaves the rest of its policy as the other keys make it")
    func restOfPolicy() throws {
        let plain = try #require(try Self.load(Self.edge("preset: grpc")).base.services.first?.calls.first).policy
        var hedged = try #require(try Self.load(Self.edge("preset: grpc, hedge: {delay: p95}")).base.services.first?.calls.first).policy
        #expect(hedged.hedging == Hedging(delay: .percentile(0.95, window: 30 * Self.s), maxAttempts: 2))
        hedged.hedging = nil
        #expect(hedged == plain)
    }

    @Test("--set, --vary and a variant reach an edge's hedge keys; a later none turns hedging off")
    func overrides() throws {
        let set = try Self.load(
            Self.edge("hedge: {delay: 50ms}"),
            overrides: ["services.api.calls.db.policy.hedge.delay=p99", "services.api.calls.db.policy.hedge.max_attempts=3"])
        #expect(try Self.hedging(set) == Hedging(delay: .percentile(0.99, window: 30 * Self.s), maxAttempts: 3))
        let off = try Self.load(Self.edge("hedge: {delay: 50ms}"), overrides: ["services.api.calls.db.policy.hedge.delay=none"])
        #expect(try Self.hedging(off) == nil)

        let l = try Self.load(
            Self.edge("max_attempts: 3") + "variants:\n  - name: hedged\n    services.api.calls.db.policy.hedge: {delay: p95, window: 10s}\n")
        #expect(try Self.hedging(l) == nil)
        let variant = try #require(l.variants.first?.scenario.services.first?.calls.first)
        #expect(variant.policy.hedging == Hedging(delay: .percentile(0.95, window: 10 * Self.s), maxAttempts: 2))
        #expect(variant.policy.maxAttempts == 3)
        for delay in ["10ms", "p75"] {
            let point = try l.scenario(applying: [("services.api.calls.db.policy.hedge.delay", delay)], source: "--vary")
            let expected: Hedging.Delay = delay == "p75" ? .percentile(0.75, window: 30 * Self.s) : .fixed(10_000_000)
            #expect(point.services[0].calls[0].policy.hedging == Hedging(delay: expected, maxAttempts: 2))
        }
    }

    @Test(
        "bad hedge values on an edge or the clients: one error naming the file, line and field",
        arguments: [
            (
                edge("hedge: {delay: p0}"), [String](),
                "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': must be more than p0 and less than p100 (got 'p0')"
            ),
            (
                edge("hedge: {delay: p100}"), [],
                "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': must be more than p0 and less than p100 (got 'p100')"
            ),
            (
                edge("hedge: {delay: p101}"), [],
                "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': must be more than p0 and less than p100 (got 'p101')"
            ),
            (
                edge("hedge: {delay: pabc}"), [],
                "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': expected a percentile such as p95, p99 or p99.9 (got 'pabc')"
            ),
            (
                edge("hedge: {delay: p}"), [],
                "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': expected a percentile such as p95, p99 or p99.9 (got 'p')"
            ),
            (edge("hedge: {delay: -5ms}"), [], "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': must not be negative (got '-5ms')"),
            (
                edge("hedge: {delay: soon}"), [],
                "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': expected none, a duration such as 50ms or a percentile such as p95 (got 'soon')"
            ),
            (
                edge("hedge: {delay: 50}"), [],
                "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': needs a unit: write e.g. '50s' or '50ms' (got '50')"
            ),
            (edge("hedge: {delay: 31d}"), [], "h.yaml:7:33: field 'services.api.calls.db.policy.hedge.delay': must be at most 720h (got 31d)"),
            (
                edge("hedge: {delay: p95, max_attempts: 1}"), [],
                "h.yaml:7:52: field 'services.api.calls.db.policy.hedge.max_attempts': must be at least 2 (got 1)"
            ),
            (
                edge("hedge: {delay: p95, max_attempts: 6}"), [],
                "h.yaml:7:52: field 'services.api.calls.db.policy.hedge.max_attempts': must be at most 5 (got 6)"
            ),
            (
                edge("hedge: {delay: p95, window: 0}"), [],
                "h.yaml:7:46: field 'services.api.calls.db.policy.hedge.window': must be at least 1s (got 0)"
            ),
            (
                edge("hedge: {delay: p95, window: 500ms}"), [],
                "h.yaml:7:46: field 'services.api.calls.db.policy.hedge.window': must be at least 1s (got 500ms)"
            ),
            (
                edge(""), ["services.api.calls.db.policy.hedge.max_attempts=6"],
                "--set services.api.calls.db.policy.hedge.max_attempts=6: field 'services.api.calls.db.policy.hedge.max_attempts': must be at most 5 (got 6)"
            ),
            (
                "policy.hedge.delay: p100\n", [],
                "h.yaml:3:21: field 'policy.hedge.delay': must be more than p0 and less than p100 (got 'p100')"
            )
        ])
    func bad(yaml: String, overrides: [String], message: String) {
        do {
            _ = try Self.load(yaml, overrides: overrides)
            Issue.record("accepted: \(yaml) \(overrides)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("the clients' policy may name hedge keys that build no hedging: none, copies or a window without a delay")
    func clientsWithoutHedging() throws {
        let l = try Self.load("policy: {hedge: {delay: none, max_attempts: 3, window: 1m}}\n")
        #expect(l.base.policy.hedging == nil)
        #expect(l.base.policy == (try Self.load("").base.policy))
    }

    @Test("the clients' policy hedges from wherever the key comes: the file, a population, a variant, --set, --vary")
    func clientsHedge() throws {
        let p95 = Hedging(delay: .percentile(0.95, window: 30 * Self.s), maxAttempts: 2)
        #expect(try Self.load("policy:\n  hedge: {delay: p95}\n").base.policy.hedging == p95)
        #expect(
            try Self.load("policy.hedge.delay: 50ms\npolicy.hedge.max_attempts: 3\n").base.policy.hedging
                == Hedging(delay: .fixed(50_000_000), maxAttempts: 3))
        #expect(try Self.load("", overrides: ["policy.hedge.delay=0s"]).base.policy.hedging == Hedging(delay: .fixed(0), maxAttempts: 2))
        let populations = try Self.load(
            "populations:\n  - {name: web, share: 50%}\n  - {name: app, share: 50%, policy: {hedge: {delay: p99}}}\n")
        #expect(populations.base.populations.map(\.policy.hedging) == [nil, Hedging(delay: .percentile(0.99, window: 30 * Self.s), maxAttempts: 2)])
        let l = try Self.load(Self.edge("") + "variants:\n  - name: hedged\n    policy.hedge.delay: p95\n")
        #expect(l.base.policy.hedging == nil && l.variants.first?.scenario.policy.hedging == p95)
        #expect(try l.scenario(applying: [("policy.hedge.delay", "p95")], source: "--vary").policy.hedging == p95)
        let offline = try Self.load("policy.hedge.delay: p95\nclients.offline: {at: 5s, duration: 5s, fraction: 0.1}\nclients.restart.at: 20s\n")
        #expect(offline.base.policy.hedging == p95 && offline.base.clients.offline != nil && offline.base.clients.restart != nil)
    }
}
