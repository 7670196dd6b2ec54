import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The order the `queue` model serves waiting requests in, with every departure worked out by
/// hand. No committed experiment uses `lifo`, so only this test tells LIFO from FIFO.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct QueueDisciplineTests {
    static let s = Scenarios.s

    /// Three clients, one in each of the populations a, b and c, start one operation each at 0,
    /// 0.1 and 0.2 s. One worker serves 1 s per request (capacity 1/s, deterministic); the queue is
    /// unbounded; no timeout, no retries.
    static func scenario(lifo: Bool) -> Scenario {
        var sc = Scenarios.make(clients: 3, arrival: .burst(at: 0), timeout: nil, capacity: 1, policy: Scenarios.noRetries, horizon: 10)
        sc.server.model = .queue(.init(workers: 1, service: .deterministic, limit: nil, dropExpired: false, lifo: lifo))
        sc.populations = [("a", 0.0), ("b", 0.1), ("c", 0.2)].map { name, at in
            Scenario.Population(
                name: name, clients: .init(count: 1, arrival: .burst(at: Scenarios.ns(at)), timeout: nil),
                policy: Scenarios.noRetries)
        }
        return sc
    }

    /// a arrives at 0 to an idle worker and leaves at 1.0. b (0.1) and c (0.2) wait. When a
    /// leaves, LIFO takes the newest, c: served 1.0–2.0, then b 2.0–3.0. FIFO takes b first
    /// (1.0–2.0), then c (2.0–3.0). Time to success is departure − arrival:
    ///
    ///     LIFO: a 1.0 − 0 = 1.0, b 3.0 − 0.1 = 2.9, c 2.0 − 0.2 = 1.8   (longest 2.9)
    ///     FIFO: a 1.0,           b 2.0 − 0.1 = 1.9, c 3.0 − 0.2 = 2.8   (longest 2.8)
    ///
    /// Each population has one operation, so its p50 is that operation's time. FIFO runs both
    /// ways (solved on arrival and event by event); LIFO always runs event by event.
    @Test(
        "LIFO serves the newest waiting request first: departures at 1, 3 and 2 s for arrivals at 0, 0.1 and 0.2 s",
        arguments: [(true, false), (false, false), (false, true)])
    func lastInFirstOut(lifo: Bool, allEvents: Bool) {
        let r = Simulator.run(
            Self.scenario(lifo: lifo), replication: 0,
            options: EngineOptions(checkInvariants: true, allEvents: allEvents, maxEvents: 1000))
        #expect(r.invariantViolation == nil)
        #expect(r.summary.succeeded == 3 && r.summary.served == 3)
        #expect(r.populations.map(\.ttsP50) == (lifo ? [1.0, 2.9, 1.8] : [1.0, 1.9, 2.8]))
        #expect(r.summary.ttsMax == (lifo ? 2.9 : 2.8))
        // The last departure is at 3 s whichever the order.
        #expect(r.summary.simEndSeconds == 3)
    }
}
