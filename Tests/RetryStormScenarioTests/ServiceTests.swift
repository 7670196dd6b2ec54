import RetryPolicy
import RetryStormEngine
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// A call graph (`services:`): the services and calls it builds, the keys that reach them from
/// `--set`, `--vary` and variants, and the checks, each one error naming the file, line and field.
struct ServiceTests {
    /// Two lines, so that a service list starts on line 3.
    static let base = "horizon: 30s\nclients: {count: 50, rate: 1/s, timeout: 2s}\n"

    func load(_ yaml: String, overrides: [String] = []) throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.parse(text: Self.base + yaml, path: "b.yaml", overrides: overrides)
    }

    func workers(_ server: Scenario.Server) -> Int? {
        if case .queue(let q) = server.model { return q.workers }
        return nil
    }

    static let two = """
        policy: {max_attempts: 5}
        services:
          - name: frontend
            server: {capacity: 200/s, workers: 4, release_while_calling: true}
            calls:
              - to: backend
                count: 2
                parallel: true
                timeout: 500ms
                policy: {preset: aws-standard, max_attempts: 2}
                failure_status: 429
                deadline: propagate
          - name: backend
            server:
              capacity: 100/s

        """

    @Test("cancellation: none by default, propagate from the file or --set")
    func cancellation() throws {
        #expect(try load(Self.two).base.services[0].calls[0].propagateCancellation == false)
        let set = try load(Self.two, overrides: ["services.frontend.calls.backend.cancellation=propagate"]).base
        #expect(set.services[0].calls[0].propagateCancellation)
        do {
            _ = try load(Self.two, overrides: ["services.frontend.calls.backend.cancellation=always"])
            Issue.record("accepted cancellation=always")
        } catch {
            #expect(error.description.contains("field 'services.frontend.calls.backend.cancellation'"))
        }
    }

    @Test("two services: the call's keys, its policy from its own preset and keys, each server from its own keys")
    func twoServices() throws {
        let s = try load(Self.two).base
        #expect(s.services.map(\.name) == ["frontend", "backend"])
        #expect(s.isCallGraph)
        let call = try #require(s.services[0].calls.first)
        #expect(s.services[0].calls.count == 1)
        #expect(call.to == 1)
        #expect(call.count == 2)
        #expect(call.parallel)
        #expect(call.timeout == 500_000_000)
        #expect(call.failureStatus == 429)
        #expect(call.propagateDeadline)
        var aws = RetryPolicy.preset(named: "aws-standard")!
        aws.maxAttempts = 2
        #expect(call.policy == aws)
        #expect(call.policy.maxAttempts == 2)
        #expect(call.policy.backoff.max == 20_000_000_000, "from the preset")
        #expect(s.policy.maxAttempts == 5, "the clients' policy is the scenario's")
        #expect(s.services[0].releaseWhileCalling)
        #expect(!s.services[1].releaseWhileCalling)
        #expect(s.services[1].calls.isEmpty)
        #expect(s.services.map(\.server.capacity) == [200, 100])
        #expect(s.services.map { workers($0.server) } == [4, 1])
        #expect(s.server.capacity == 200)
        #expect("\(s.server)" == "\(s.services[0].server)", "the clients call the first service")
    }

    @Test("three services: defaults of a call, an edge policy from the policy defaults, servers from the server defaults")
    func threeServices() throws {
        let defaults = try load("").base
        let s = try load(
            """
            policy: {max_attempts: 5, backoff: {base: 1s, max: 9s}}
            services:
              - name: api
                server.capacity: 300/s
                calls:
                  - to: backend
                  - {to: cache, count: 3, policy: {max_attempts: 4, backoff: {base: 50ms}}}
              - name: cache
                server: {capacity: 2000/s, workers: 8}
              - name: backend
                calls: [{to: db, timeout: none}]
              - name: db
                server: {capacity: 50/s, queue: {limit: 10}}

            """
        ).base
        #expect(s.services.map(\.name) == ["api", "cache", "backend", "db"])
        #expect(s.services.map { $0.calls.map(\.to) } == [[2, 1], [], [3], []])
        let plain = s.services[0].calls[0]
        #expect(plain.count == 1)
        #expect(!plain.parallel)
        #expect(plain.timeout == 2_000_000_000, "clients.timeout's built-in default")
        #expect(plain.failureStatus == 503)
        #expect(!plain.propagateDeadline)
        #expect(plain.policy == defaults.policy, "the policy defaults, not the scenario's policy:")
        let cache = s.services[0].calls[1]
        #expect(cache.count == 3)
        #expect(cache.policy.maxAttempts == 4)
        #expect(cache.policy.backoff.base == 50_000_000)
        #expect(cache.policy.backoff.max == defaults.policy.backoff.max)
        #expect(s.services[2].calls[0].timeout == nil)
        #expect(s.services.map(\.server.capacity) == [300, 2000, 1000, 50])
        #expect(s.services.map { workers($0.server) } == [1, 8, 1, 1])
        #expect(s.server.capacity == 300)
        #expect("\(s.server)" == "\(s.services[0].server)")
        #expect(s.policy.maxAttempts == 5)
        #expect(s.policy.backoff.base == 1_000_000_000)
    }

    /// A flaky leaf: its `server.flaky.*` keys, and its door (rate limit, error mix) kept as a
    /// single hop's flaky server keeps them; the queue's keys it has no use for load as they do
    /// there, unused.
    @Test("a service that makes no calls may run the flaky model, with its door")
    func flakyLeaf() throws {
        let l = try load(
            Self.calls
                + "      - {to: db}\n  - name: db\n    server: {model: flaky, flaky: {failure: 0.25, latency: 40ms}, workers: 3, rate_limit: {rate: 50/s}, errors: {server: 0.1}}\n"
        )
        let db = l.base.services[1].server
        guard case .flaky(let f) = db.model else {
            Issue.record("services.db runs \(db.model), not flaky")
            return
        }
        #expect(f.failure == 0.25 && f.latency == 40_000_000)
        #expect(db.rateLimit?.rate == 50 && db.errors.serverError == 0.1)
        #expect(l.base.isCallGraph && workers(l.base.services[0].server) == 1)
        let set = try load(Self.calls + "      - {to: db}\n  - name: db\n", overrides: ["services.db.server.model=flaky"]).base
        guard case .flaky = set.services[1].server.model else {
            Issue.record("--set services.db.server.model=flaky gives \(set.services[1].server.model)")
            return
        }
    }

    @Test("one service without calls is not a call graph; a scenario without services has none")
    func single() throws {
        let one = try load("services:\n  - name: only\n    server: {capacity: 40/s, model: flaky}\n").base
        #expect(one.services.map(\.name) == ["only"])
        #expect(!one.isCallGraph)
        #expect(one.server.capacity == 40)
        let none = try load("server: {capacity: 40/s}\n").base
        #expect(none.services.isEmpty)
        #expect(!none.isCallGraph)
    }

    @Test("--set, --vary and a variant reach a service's server and an edge's keys and policy")
    func overrides() throws {
        let set = try load(
            Self.two,
            overrides: [
                "services.backend.server.capacity=50/s", "services.frontend.server.capacity=70/s",
                "services.frontend.calls.backend.policy.max_attempts=7", "services.frontend.calls.backend.failure_status=502",
                "services.frontend.server.release_while_calling=false"
            ]
        ).base
        #expect(set.services.map(\.server.capacity) == [70, 50])
        #expect(set.server.capacity == 70)
        #expect(set.services[0].calls[0].policy.maxAttempts == 7)
        #expect(set.services[0].calls[0].policy.backoff.max == 20_000_000_000, "the preset stays")
        #expect(set.services[0].calls[0].failureStatus == 502)
        #expect(!set.services[0].releaseWhileCalling)

        let l = try load(
            Self.two + """
                variants:
                  - name: slow
                    services.backend.server.workers: 3
                    services: {frontend: {calls: {backend: {timeout: 250ms, policy: {preset: grpc}}}}}

                """)
        let slow = try #require(l.variants.first?.scenario)
        #expect(workers(slow.services[1].server) == 3)
        #expect(slow.services[0].calls[0].timeout == 250_000_000)
        // The variant's preset starts the edge's policy again; the file's keys then apply in
        // order, as on the scenario's own policy.
        var grpc = RetryPolicy.preset(named: "grpc")!
        grpc.maxAttempts = 2
        #expect(slow.services[0].calls[0].policy == grpc)
        #expect(workers(l.base.services[1].server) == 1)

        for n in [1, 3] {
            let point = try l.scenario(applying: [("services.frontend.calls.backend.policy.max_attempts", "\(n)")], source: "--vary")
            #expect(point.services[0].calls[0].policy.maxAttempts == n)
        }
        let capacity = try l.scenario(applying: [("services.frontend.server.capacity", "10/s")], source: "--grid")
        #expect(capacity.server.capacity == 10)
    }

    static let calls = "services:\n  - name: api\n    calls:\n"

    @Test(
        "bad services: one error naming the file, line and field",
        arguments: [
            (
                "services: []\n", [String](),
                "b.yaml:3:1: field 'services': expects a list of services, each with a name, a server and its calls, e.g. [{name: api, server: {capacity: 500/s}, calls: [{to: db}]}, {name: db}]"
            ),
            ("services:\n  - name: a.b\n", [], "b.yaml:4:5: field 'services.name': 'a.b' may hold only letters, digits, - and _ (at most 64)"),
            ("services:\n  - name: a\n  - name: a\n", [], "b.yaml:5:5: field 'services.name': 'a' is used twice (first at b.yaml:4:5)"),
            ("services:\n  - server: {capacity: 5/s}\n", [], "b.yaml:4:5: field 'services': a service needs a `name`"),
            (
                "services:\n  - name: api\n    calls: [{to: backnd}]\n  - name: backend\n", [],
                "b.yaml:5:18: field 'services.api.calls.to': 'backnd' names no service (services: api, backend). Did you mean 'backend'?"
            ),
            (
                "services:\n  - name: api\n    calls: [{to: api}]\n", [],
                "b.yaml:5:18: field 'services.api.calls.to': calls the service itself: calls go down the list: a call to an earlier service would make a cycle"
            ),
            (
                "services:\n  - name: api\n  - name: db\n    calls:\n      - to: api\n", [],
                "b.yaml:7:13: field 'services.db.calls.to': calls 'api', listed before 'db': calls go down the list: a call to an earlier service would make a cycle"
            ),
            (
                calls + "      - to: db\n      - to: db\n  - name: db\n", [],
                "b.yaml:7:9: field 'services.api.calls.to': 'db' is used twice (first at b.yaml:6:9): one call per called service, with a count for more"
            ),
            (
                calls + "      - {count: 2}\n  - name: db\n", [],
                "b.yaml:6:9: field 'services.api.calls': a call needs a `to`"
            ),
            (
                calls + "      - {to: db, count: 0}\n  - name: db\n", [],
                "b.yaml:6:25: field 'services.api.calls.db.count': must be at least 1 (got 0)"
            ),
            (
                calls + "      - {to: db, count: 1001}\n  - name: db\n", [],
                "b.yaml:6:25: field 'services.api.calls.db.count': must be at most 1000 (got 1001)"
            ),
            (
                calls + "      - {to: db, parallel: maybe}\n  - name: db\n", [],
                "b.yaml:6:28: field 'services.api.calls.db.parallel': expected true or false (got 'maybe')"
            ),
            (
                calls + "      - {to: db, timeout: 5}\n  - name: db\n", [],
                "b.yaml:6:27: field 'services.api.calls.db.timeout': needs a unit: write e.g. '5s' or '5ms' (got '5')"
            ),
            (
                calls + "      - {to: db, failure_status: 404}\n  - name: db\n", [],
                "b.yaml:6:34: field 'services.api.calls.db.failure_status': must be one of 429, 500, 502, 503, 504 (got '404'). Did you mean '504'?"
            ),
            (
                calls + "      - {to: db, deadline: yes}\n  - name: db\n", [],
                "b.yaml:6:28: field 'services.api.calls.db.deadline': must be one of propagate, none (got 'yes')."
            ),
            (
                calls + "      - {to: db, policy: {backoff: {base: 2s, max: 1s}}}\n  - name: db\n", [],
                "b.yaml:6:52: field 'services.api.calls.db.policy.backoff.max': (1s) must be at least policy.backoff.base (2s)"
            ),
            (
                "services:\n  - name: api\n    server: {model: flaky}\n    calls:\n      - {to: db}\n  - name: db\n", [],
                "b.yaml:5:21: field 'services.api.server.model': is flaky, but the service makes calls: a flaky server has no workers to make them (use queue)"
            ),
            (
                "services:\n  - name: api\n    calls:\n      - {to: mid}\n  - name: mid\n    calls:\n      - {to: db}\n  - name: db\n",
                ["services.mid.server.model=flaky"],
                "--set services.mid.server.model=flaky: field 'services.mid.server.model': is flaky, but the service makes calls: a flaky server has no workers to make them (use queue)"
            ),
            (
                "services:\n  - name: api\n    server: {model: flaky}\n  - name: db\n", [],
                "b.yaml:5:21: field 'services.api.server.model': is flaky on the first service: it makes no calls, so no other service would be called (run a flaky server without services:)"
            ),
            (
                "services:\n  - name: api\n  - name: db\n", ["services.db.server.model=contention"],
                "--set services.db.server.model=contention: field 'services.db.server.model': is contention: a call graph cannot run it (its read and write round trips are the client's own); use queue, or flaky on a service that makes no calls"
            ),
            (
                calls + "      - {to: db}\n  - name: db\n    server: {model: contention}\n", [],
                "b.yaml:8:21: field 'services.db.server.model': is contention: a call graph cannot run it (its read and write round trips are the client's own); use queue, or flaky on a service that makes no calls"
            ),
            (
                "services:\n  - name: api\n    server: {model: contention}\n    calls:\n      - {to: db}\n  - name: db\n", [],
                "b.yaml:5:21: field 'services.api.server.model': is contention: a call graph cannot run it (its read and write round trips are the client's own); use queue, or flaky on a service that makes no calls"
            ),
            (
                calls + "      - {to: db}\n  - name: db\n    server: {model: flaky, reject_cost: 0.5}\n", [],
                "b.yaml:8:41: field 'services.db.server.reject_cost': needs server.model: queue (a flaky server has no workers for a rejection to cost)"
            ),
            (
                "services:\n  - name: api\n    server: {capasity: 5/s}\n", [],
                "b.yaml:5:14: field 'services.api.server.capasity': is not a key of a service or of its calls. Did you mean 'services.api.server.capacity'?"
            ),
            (
                calls + "      - {to: db, cuont: 2}\n  - name: db\n", [],
                "b.yaml:6:18: field 'services.api.calls.db.cuont': is not a key of a service or of its calls. Did you mean 'services.api.calls.db.count'?"
            ),
            (
                "services:\n  - name: api\n    capacity: 5/s\n", [],
                "b.yaml:5:5: field 'services.api.capacity': is a server key: put it under the service's server: (services.api.server.capacity)"
            ),
            (
                "services:\n  - name: api\n    server: {capacity: 0/s}\n", [],
                "b.yaml:5:24: field 'services.api.server.capacity': must be more than 0/s"
            ),
            (
                "services:\n  - name: api\n    server: {outage: {at: 60s, duration: 1s}}\n", [],
                "b.yaml:5:27: field 'services.api.server.outage.at': (1m) is at or after the horizon (30s)"
            ),
            (
                "server: {capacity: 5/s}\nservices:\n  - name: api\n", [],
                "b.yaml:3:20: field 'server.capacity': with services:, each service has its own server: set services.api.server.capacity (or another service's)"
            ),
            (
                "services:\n  - name: api\n", ["server.workers=2"],
                "--set server.workers=2: field 'server.workers': with services:, each service has its own server: set services.api.server.workers (or another service's)"
            ),
            (
                "server: {release_while_calling: true}\n", [],
                "b.yaml:3:10: field 'server.release_while_calling': is a service's key, not the top-level server's: set it in a service's server: (services.NAME.server.release_while_calling)"
            ),
            (
                "", ["server.release_while_calling=true"],
                "--set server.release_while_calling=true: field 'server.release_while_calling': is a service's key, not the top-level server's: set it in a service's server: (services.NAME.server.release_while_calling)"
            ),
            ("services:\n  - name: api\n", ["services=x"], "--set services=x: field 'services': cannot be set from the command line"),
            (
                "services:\n  - name: api\n", ["services.db.server.capacity=5/s"],
                "--set services.db.server.capacity=5/s: field 'services.db.server.capacity': names no service ('db'; services: api)"
            ),
            (
                "", ["services.db.server.capacity=5/s"],
                "--set services.db.server.capacity=5/s: field 'services.db.server.capacity': names no service ('db'; the scenario declares no services)"
            ),
            (
                "services:\n  - name: api\n", ["services.api.calls.db.count=5"],
                "--set services.api.calls.db.count=5: field 'services.api.calls.db.count': names no call of 'api' ('db'; it makes no calls)"
            ),
            (
                "services:\n  - name: api\n", ["services.api=1"],
                "--set services.api=1: field 'services.api': declares a service: only the scenario file's services: list declares services and their calls; variants and options change their keys (services.api.KEY)"
            ),
            (
                "services:\n  - name: api\n    calls: {to: db}\n", [],
                "b.yaml:5:5: field 'services.api.calls': expects a list of calls, each with a `to` (a service listed later), e.g. [{to: db, count: 2}]"
            ),
            (
                "services:\n  - name: api\nvariants:\n  - name: more\n    services: [{name: x}]\n", [],
                "b.yaml:7:5: field 'services': only the scenario file's services: list declares services and their calls; variants and options change their keys (services.NAME.KEY)"
            ),
            (
                "services:\n" + String(repeating: "  - {}\n", count: 65), [],
                "b.yaml:3:1: field 'services': has 65 services; at most 64"
            ),
            (
                calls + String(repeating: "      - {to: db}\n", count: 17), [],
                "b.yaml:5:5: field 'services.api.calls': has 17 calls; at most 16 (use count for repeated calls)"
            )
        ])
    func bad(yaml: String, overrides: [String], message: String) {
        do {
            _ = try load(yaml, overrides: overrides)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description == message)
        }
    }
}
