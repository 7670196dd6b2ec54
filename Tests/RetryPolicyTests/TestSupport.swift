import Foundation
import RetryPolicy
import Testing

let second: Int64 = 1_000_000_000
let ms: Int64 = 1_000_000

/// A deterministic stream of uniforms (SplitMix64) for property tests: many different `r`s, the
/// same ones every run.
struct SplitMix: UniformSource {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func nextUniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

/// The delays of retries 1…n of `b` with `r` pinned, in nanoseconds.
func delays(_ b: Backoff, r: Double, retries: Int) -> [Int64] {
    var memory = 0.0
    var random = FixedUniformSource(r)
    return (1...retries).map { b.delay(retry: $0, memory: &memory, random: &random) }
}

/// One operation driven through a policy: attempts that fail with the given errors (nil =
/// success) until the policy stops or the script ends. Time jumps to each retry instant.
struct Driver {
    var policy: RetryPolicy
    var host: HostGuard
    var now: Int64 = 0
    var random: FixedUniformSource

    init(_ policy: RetryPolicy, r: Double = 0.5) {
        self.policy = policy
        host = HostGuard(policy: policy)
        random = FixedUniformSource(r)
    }

    /// Runs one operation; returns the decisions after each failure (and nothing for a success).
    @discardableResult
    mutating func run(_ outcomes: [NormalizedError?], record: inout OperationRecord) -> [RetryDecision] {
        var out: [RetryDecision] = []
        for outcome in outcomes {
            guard start(&record) else { break }
            guard let error = outcome else {
                policy.succeeded(record: &record, host: &host, now: now, random: &random)
                break
            }
            let d = fail(&record, error)
            out.append(d)
            guard case .retry(let at) = d else { break }
            now = at
        }
        return out
    }

    /// Admits and starts an attempt of `record` at `now`; false if the policy did not let it go.
    @discardableResult
    mutating func start(_ record: inout OperationRecord) -> Bool {
        guard policy.admit(record: &record, host: &host, now: now, random: &random) == .proceed else { return false }
        policy.attemptStarted(record: &record, host: &host, now: now)
        return true
    }

    /// The decision after a failure of the attempt of `record` in flight, at `now`.
    mutating func fail(_ record: inout OperationRecord, _ error: NormalizedError) -> RetryDecision {
        policy.decide(after: error, record: &record, host: &host, now: now, random: &random)
    }

    /// The decision after one failed attempt of a fresh operation.
    func runOnce(_ error: NormalizedError) -> RetryDecision? {
        var copy = self
        return copy.run([error]).first
    }

    @discardableResult
    mutating func run(_ outcomes: [NormalizedError?]) -> [RetryDecision] {
        var record = OperationRecord()
        return run(outcomes, record: &record)
    }
}

/// A breaker's phase without what it carries, for comparisons.
enum BreakerStage: Sendable { case closed, open, halfOpen }

extension CircuitBreakerState {
    var stage: BreakerStage {
        switch phase {
        case .closed: .closed
        case .open: .open
        case .halfOpen: .halfOpen
        }
    }

    /// The probes, while half-open.
    var probes: HalfOpen? {
        if case .halfOpen(let h) = phase { h } else { nil }
    }
}

/// How a test gets the policy it checks: the library's value itself, or that value written to a
/// policy file and read back (``RetryPolicyFile`` through `JSONEncoder` and `JSONDecoder`) — the
/// route from a simulation to an app. Vector tests run both, so a file keeps every decision.
enum Route: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case library
    case policyFile

    var testDescription: String { rawValue }

    func apply(_ p: RetryPolicy) throws -> RetryPolicy {
        switch self {
        case .library: p
        case .policyFile: try JSONDecoder().decode(RetryPolicyFile.self, from: JSONEncoder().encode(RetryPolicyFile(policy: p))).policy
        }
    }

    /// `b` inside a policy, through the route.
    func apply(_ b: Backoff) throws -> Backoff {
        try apply(RetryPolicy(backoff: b, maxAttempts: 1)).backoff
    }
}
