import RetryPolicy
import RetryStormEngine
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// Client populations (`populations:`): sizes from shares and counts, keys per population, the
/// checks, and the per-population results adding up to the fleet's.
struct PopulationTests {
    static let base = """
        horizon: 60s
        clients:
          count: 1000
          rate: 0.2/s
          timeout: 1s
        server:
          capacity: 150/s
          outage: {at: 10s, duration: 10s, fraction: 0.2, recovery: instant}
        policy:
          max_attempts: 5
          backoff: {kind: exponential, base: 100ms, max: 2s}

        """

    func load(_ populations: String, overrides: [String] = []) throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.parse(text: Self.base + populations, path: "p.yaml", overrides: overrides)
    }

    func counts(_ s: Scenario) -> [String] { s.populations.map { "\($0.name)=\($0.clients.count)" } }

    static let thirds =
        "populations:\n  - {name: a, share: 0.3333333333333333}\n  - {name: b, share: 0.3333333333333333}\n  - {name: c, share: 0.3333333333333334}\n"

    @Test("shares become client counts by largest remainder (ties to the one declared first); counts stay as given")
    func sizes() throws {
        // 1000 / 3 = 333.33… each: one client left over, to c, whose share is the largest by 1e-16.
        #expect(counts(try load(Self.thirds).base) == ["a=333", "b=333", "c=334"])
        // Equal remainders: the leftover client goes to the first.
        #expect(
            counts(
                try load(
                    "populations:\n  - {name: a, share: 0.5}\n  - {name: b, share: 0.5}\n",
                    overrides: ["clients.count=7"]
                ).base) == ["a=4", "b=3"])
        // A count, and shares of what it leaves: 100, then 450 and 450 of the other 900.
        #expect(
            counts(try load("populations:\n  - {name: web, count: 100}\n  - {name: v1, share: 50%}\n  - {name: v2, share: 50%}\n").base)
                == ["web=100", "v1=450", "v2=450"])
        // Counts only: clients.count is their sum (when the file does not set it otherwise).
        let countsOnly = try ScenarioLoader.parse(
            text: "horizon: 60s\nclients: {rate: 0.2/s}\npopulations:\n  - {name: a, count: 30}\n  - {name: b, count: 12}\n", path: "p.yaml")
        #expect(countsOnly.base.clients.count == 42)
        #expect(counts(countsOnly.base) == ["a=30", "b=12"])
    }

    @Test("setting a share again scales the others to keep the total, or splits the rest equally when they are all 0")
    func rescale() throws {
        let l = try load("populations:\n  - {name: a, share: 0.6}\n  - {name: b, share: 0.2}\n  - {name: c, share: 0.2}\n")
        // b = 50%: a and c share the other 50% as 0.6 : 0.2, i.e. 375 and 125 of 1000.
        #expect(counts(try l.scenario(applying: [("populations.b.share", "50%")], source: "--vary")) == ["a=375", "b=500", "c=125"])
        #expect(counts(try l.scenario(applying: [("populations.b.share", "100%")], source: "--vary")) == ["a=0", "b=1000", "c=0"])
        let zeros = try load("populations:\n  - {name: a, share: 0}\n  - {name: b, share: 1}\n  - {name: c, share: 0}\n")
        #expect(counts(try zeros.scenario(applying: [("populations.b.share", "40%")], source: "--vary")) == ["a=300", "b=400", "c=300"])
        // --set does the same.
        #expect(
            counts(
                try load(
                    "populations:\n  - {name: a, share: 0.9}\n  - {name: b, share: 0.1}\n",
                    overrides: ["populations.b.share=25%"]
                ).base) == ["a=750", "b=250"])
    }

    @Test("a population's keys override the scenario's; its own preset starts from that preset, not from the scenario's policy keys")
    func overrides() throws {
        let s = try load(
            """
            populations:
              - name: old
                share: 0.5
                policy: {preset: naive-immediate}
              - name: new
                share: 0.5
                clients: {timeout: 3s, arrival: constant, rate: 0.1/s}
                policy.backoff.base: 250ms

            """
        ).base
        let naive = RetryPolicy.preset(named: "naive-immediate")!
        #expect(s.populations[0].policy == naive)
        #expect(s.populations[0].policy.maxAttempts == naive.maxAttempts)
        #expect(s.populations[0].clients.timeout == 1_000_000_000)
        #expect(s.populations[1].policy.maxAttempts == 5)
        #expect(s.populations[1].policy.backoff.base == 250_000_000)
        #expect(s.populations[1].clients.timeout == 3_000_000_000)
        #expect(s.populations[1].clients.arrival == .constant(ratePerClient: 0.1, start: 0, until: 60_000_000_000))
        #expect(s.policy.backoff.base == 100_000_000, "the scenario's own policy is unchanged")
        #expect(s.clients.count == 1000)
    }

    @Test(
        "bad populations: one error naming the file, line and field",
        arguments: [
            (
                "populations:\n  - {name: a, share: 0.5}\n  - {name: b, share: 0.4}\n", [String](),
                "p.yaml:14:22: field 'populations.b.share': the populations' shares add up to 0.9, not 1 (a 0.5, b 0.4)"
            ),
            (
                "populations:\n  - {name: a, share: 0.5}\n  - {name: a, share: 0.5}\n", [],
                "p.yaml:14:5: field 'populations.name': 'a' is used twice (first at p.yaml:13:5)"
            ),
            (
                "populations:\n  - {name: a.b, share: 1}\n", [],
                "p.yaml:13:5: field 'populations.name': 'a.b' may hold only letters, digits, - and _ (at most 64)"
            ),
            ("populations:\n  - {name: a}\n", [], "p.yaml:13:5: field 'populations.a': needs a share (of clients.count) or a count of clients"),
            ("populations:\n  - {name: a, share: 1, count: 3}\n", [], "p.yaml:13:5: field 'populations.a': has both a share and a count: give one"),
            (
                "populations:\n  - {name: a, share: 1, clients: {hosts: 3}}\n", [],
                "p.yaml:13:35: field 'populations.a.clients.hosts': clients.hosts is the fleet's, not a population's"
            ),
            (
                "populations:\n  - {name: a, count: 2000}\n  - {name: b, share: 1}\n", [],
                "p.yaml:13:22: field 'populations.a.count': the populations' counts add up to 2000, more than clients.count (1000) that the shares split"
            ),
            (
                "populations:\n  - {name: a, count: 20}\n", [],
                "p.yaml:13:22: field 'populations.a.count': the populations' counts add up to 20, but clients.count is 1000 (at p.yaml:3:10)"
            ),
            (
                "populations:\n  - {name: a, share: 1}\n", ["populations.v3.share=10%"],
                "--set populations.v3.share=10%: field 'populations.v3.share': names no population ('v3'; populations: a)"
            ),
            (
                "populations:\n  - {name: a, share: 1, policy: {max_attempts: 0}}\n", [],
                "field 'populations.a.policy.max_attempts': must be at least 1 (got 0)"
            ),
            (
                "", ["populations.a.share=10%"],
                "--set populations.a.share=10%: field 'populations.a.share': names no population ('a'; the scenario declares no populations)"
            )
        ])
    func bad(yaml: String, overrides: [String], message: String) {
        do {
            _ = try load(yaml, overrides: overrides)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(
                error.description.hasPrefix(message) || (message.hasPrefix("field") && error.description.contains(message)), "\(error.description)")
        }
    }

    @Test("per-population results add up to the fleet's, bucket by bucket; a population without retries has amplification 1")
    func sums() throws {
        let l = try load(
            """
            populations:
              - {name: retrying, share: 0.7}
              - {name: once, share: 0.3, policy.max_attempts: 1, clients.timeout: 500ms}

            """)
        for allEvents in [false, true] {
            let r = Simulator.run(l.base, replication: 0, options: EngineOptions(checkInvariants: true, allEvents: allEvents))
            #expect(r.invariantViolation == nil)
            let p = r.populations
            #expect(p.map(\.name) == ["retrying", "once"])
            #expect(p.map(\.clients) == [700, 300])
            #expect(p.reduce(0) { $0 + $1.operations } == r.summary.operations)
            #expect(p.reduce(0) { $0 + $1.attempts } == r.summary.attempts)
            #expect(p.reduce(0) { $0 + $1.succeeded } == r.summary.succeeded + r.summary.confirmed)
            #expect(p.reduce(0) { $0 + $1.gaveUp } == r.summary.gaveUp)
            for b in 0..<r.buckets {
                #expect(p[0].offered[b] + p[1].offered[b] == r.count(.offered, bucket: b), "bucket \(b)")
            }
            #expect(p[1].amplification == 1)
            #expect(p[0].amplification > 1, "the outage makes the retrying population retry")
            #expect(p[1].gaveUp > 0)
            // About 0.2/s × 60 s × clients operations each (Poisson: within 5 standard deviations).
            #expect(abs(Double(p[0].operations) - 8400) < 5 * 8400.squareRoot())
            #expect(abs(Double(p[1].operations) - 3600) < 5 * 3600.squareRoot())
        }
    }

    @Test("a population with no clients starts nothing; one population of the whole fleet runs as the fleet without populations")
    func degenerate() throws {
        let l = try load("populations:\n  - {name: a, share: 1}\n  - {name: b, share: 0}\n")
        let r = Simulator.run(l.base, replication: 0, checkInvariants: true)
        #expect(r.populations[1].operations == 0)
        #expect(r.populations[1].offered.allSatisfy { $0 == 0 })
        let plain = Simulator.run(try load("").base, replication: 0, checkInvariants: true)
        #expect(plain.populations.isEmpty)
        #expect("\(r.summary)" == "\(plain.summary)", "NaN fields: compared as text")
        #expect(r.counts == plain.counts)
    }
}
