import RetryPolicy
import RetryStormEngine

/// Small scenario builders for engine tests. Times in seconds unless named otherwise.
enum Scenarios {
    static let s: Int64 = 1_000_000_000

    static func ns(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }

    static func make(
        clients: Int, arrival: Scenario.Arrival, timeout: Double?, capacity: Double,
        service: Scenario.ServiceTime = .deterministic, workers: Int = 1, limit: Int? = nil,
        dropExpired: Bool = false, profile: CapacityProfile = .constant,
        policy: RetryPolicy, horizon: Double = 100, bucket: Double = 1, seed: UInt64 = 1
    ) -> Scenario {
        Scenario(
            name: "test", seed: seed, horizon: ns(horizon), bucket: ns(bucket),
            clients: .init(count: clients, arrival: arrival, timeout: timeout.map(ns)),
            server: .init(
                capacity: capacity, profile: profile,
                model: .queue(.init(workers: workers, service: service, limit: limit, dropExpired: dropExpired))),
            policy: policy)
    }

    static func constantBackoff(_ seconds: Double, attempts: Int) -> RetryPolicy {
        RetryPolicy(backoff: Backoff(kind: .constant, base: ns(seconds), max: ns(seconds), jitter: .none), maxAttempts: attempts)
    }

    static let noRetries = RetryPolicy(backoff: .immediate, maxAttempts: 1)
}
