import RetryStormEngine
import RetryStormScenario
import Testing

/// A key that changes nothing is said (issue 40): `server.queue.drop_expired` with no deadline for
/// the server to read. `validate` and the simulating commands print these as warnings.
struct InertKeyWarningTests {
    static func scenario(_ yaml: String) throws -> Scenario {
        try ScenarioLoader.parse(text: "horizon: 30s\n" + yaml, path: "w.yaml").base
    }

    static let graph = """
        clients: {count: 50, rate: 1/s, timeout: 2s}
        services:
          - name: api
            calls: [{to: db, deadline: DEADLINE}]
          - name: db
            server: {queue: {drop_expired: true}}

        """

    @Test("drop_expired on a service no call propagates a deadline to drops nothing, and is said; with one it is not")
    func graph() throws {
        #expect(
            try Self.scenario(Self.graph.replacingOccurrences(of: "DEADLINE", with: "none")).inertKeyWarnings
                == ["services.db.server.queue.drop_expired is true, but no call to db propagates a deadline (deadline: propagate): it drops nothing"])
        #expect(try Self.scenario(Self.graph.replacingOccurrences(of: "DEADLINE", with: "propagate")).inertKeyWarnings.isEmpty)
    }

    @Test("at one hop the clients' timeout or deadline is the server's deadline: only without both is drop_expired inert")
    func oneHop() throws {
        #expect(try Self.scenario("clients: {timeout: 2s}\nserver: {queue: {drop_expired: true}}\n").inertKeyWarnings.isEmpty)
        #expect(try Self.scenario("clients: {timeout: none, deadline: 5s}\nserver: {queue: {drop_expired: true}}\n").inertKeyWarnings.isEmpty)
        #expect(
            try Self.scenario("clients: {timeout: none}\nserver: {queue: {drop_expired: true}}\n").inertKeyWarnings
                == [
                    "server.queue.drop_expired is true, but no request carries a deadline (clients.timeout and clients.deadline are none): it drops nothing"
                ])
        #expect(try Self.scenario("clients: {timeout: none}\n").inertKeyWarnings.isEmpty)
    }
}
