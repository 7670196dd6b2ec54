@_spi(Simulation) import RetryPolicy
import Testing

/// Backoff and jitter formulas with the random input pinned (`FixedUniformSource`), checked against
/// the formulas of the AWS Architecture Blog "Exponential Backoff And Jitter" (2015; the code behind
/// it: aws-samples/aws-arch-backoff-simulator `src/backoff_simulator.py`) and the libraries'
/// published vectors (ReferenceVectorTests).
struct BackoffTests {
    static let second: Int64 = 1_000_000_000
    static let ms: Int64 = 1_000_000

    func delays(_ b: Backoff, r: Double, retries: Int) -> [Int64] {
        var memory = 0.0
        var random = FixedUniformSource(r)
        return (1...retries).map { b.delay(retry: $0, memory: &memory, random: &random) }
    }

    @Test("no jitter: base·2^(n−1) capped — the synchronised schedule 1, 2, 4, 8, 16, 20, 20 s")
    func exponentialWithoutJitter() {
        let b = Backoff(kind: .exponential, base: Self.second, max: 20 * Self.second, jitter: .none)
        #expect(delays(b, r: 0.3, retries: 7) == [1, 2, 4, 8, 16, 20, 20].map { $0 * Self.second })
    }

    @Test("full jitter U[0, d): r → 1 gives botocore's upper bounds 1, 2, 4, 8, 16, 20, 20 s (§11)")
    func fullJitterUpperBounds() {
        let b = Backoff(kind: .exponential, base: Self.second, max: 20 * Self.second, jitter: .full)
        let top = delays(b, r: 1, retries: 7)
        let expected: [Double] = [1, 2, 4, 8, 16, 20, 20]
        for (d, e) in zip(top, expected) {
            // r is clamped just below 1, so the delay is the bound less one ulp, rounded to the nanosecond.
            #expect(d == Int64(e * 1e9))
        }
        #expect(delays(b, r: 0, retries: 7) == Array(repeating: 0, count: 7))
        #expect(delays(b, r: 0.5, retries: 3) == [500 * Self.ms, Self.second, 2 * Self.second])
    }

    @Test("equal jitter d/2 + U[0, d/2): r = 0 gives d/2, r = 0.5 gives 3d/4")
    func equalJitter() {
        let b = Backoff(kind: .exponential, base: 100 * Self.ms, max: 10 * Self.second, jitter: .equal)
        #expect(delays(b, r: 0, retries: 4) == [50, 100, 200, 400].map { $0 * Self.ms })
        #expect(delays(b, r: 0.5, retries: 3) == [75, 150, 300].map { $0 * Self.ms })
    }

    @Test("decorrelated min(cap, U[base, 3·prev)), prev₀ = base: r = 0.5 → 10, 17.5, 28.75 ms; r = 1 grows ×3 to the cap")
    func decorrelatedJitter() {
        let b = Backoff(kind: .exponential, base: 5 * Self.ms, max: 2 * Self.second, jitter: .decorrelated)
        // 5 + 0.5·(15 − 5) = 10; 5 + 0.5·(30 − 5) = 17.5; 5 + 0.5·(52.5 − 5) = 28.75.
        #expect(delays(b, r: 0.5, retries: 3) == [10_000_000, 17_500_000, 28_750_000])
        // r = 0 always returns to base: the walk can fall back (Polly issue #530).
        #expect(delays(b, r: 0, retries: 3) == [5, 5, 5].map { $0 * Self.ms })
        let top = delays(b, r: 1, retries: 8)
        #expect(top.last == 2 * Self.second)
        #expect(top[0] == 15 * Self.ms && top[1] == 45 * Self.ms && top[2] == 135 * Self.ms)
    }

    @Test("Polly DecorrelatedJitterBackoffV2, Delay 1 s, r = 0.5: 0.897, 1.093, 2.036, 4.046, 8.084 s (§11)")
    func pollyV2() {
        let b = Backoff(kind: .exponential, base: Self.second, max: 3600 * Self.second, jitter: .decorrelatedV2)
        let got = delays(b, r: 0.5, retries: 5).map { Double($0) / 1e9 }
        for (g, e) in zip(got, [0.897, 1.093, 2.036, 4.046, 8.084]) {
            #expect(abs(g - e) < 0.0005, "\(g) vs \(e)")
        }
        let zero = delays(b, r: 0, retries: 5).map { Double($0) / 1e9 }
        for (g, e) in zip(zero, [0, 1.377, 1.460, 2.866, 5.718]) {
            #expect(abs(g - e) < 0.0005, "\(g) vs \(e)")
        }
    }

    @Test("gRPC ±20%: min(0.1·2^(n−1), 1) × U[0.8, 1.2) (§2, §11)")
    func grpcProportional() {
        let b = Backoff(kind: .exponential, base: 100 * Self.ms, max: Self.second, jitter: .proportional(0.2))
        #expect(delays(b, r: 0, retries: 5) == [80, 160, 320, 640, 800].map { $0 * Self.ms })
        #expect(delays(b, r: 0.5, retries: 5) == [100, 200, 400, 800, 1000].map { $0 * Self.ms })
    }

    @Test("cenkalti/backoff v4 defaults: 500 ms × 1.5^(n−1), ±50% → [0.25, 0.75], [0.375, 1.125], [0.5625, 1.6875] (§11)")
    func cenkaltiRanges() {
        let b = Backoff(kind: .exponential, base: 500 * Self.ms, max: 60 * Self.second, multiplier: 1.5, jitter: .proportional(0.5))
        #expect(delays(b, r: 0, retries: 3) == [250_000_000, 375_000_000, 562_500_000])
        #expect(delays(b, r: 0.5, retries: 3) == [500_000_000, 750_000_000, 1_125_000_000])
    }

    @Test("RudderStack: 3 s × 2^k + U[0, that) → U[3,6), U[6,12), U[12,24) … (§10)")
    func rudderstackAdditive() {
        let b = Backoff(kind: .exponential, base: 3 * Self.second, max: 3600 * Self.second, jitter: .additive(1))
        #expect(delays(b, r: 0, retries: 5) == [3, 6, 12, 24, 48].map { $0 * Self.second })
        #expect(delays(b, r: 0.5, retries: 2) == [4_500_000_000, 9_000_000_000])
    }

    @Test("exponent offset 1: the AWS blog simulator's first term is base·2")
    func exponentOffset() {
        let b = Backoff(kind: .exponential, base: 5 * Self.ms, max: 2 * Self.second, jitter: .none, exponentOffset: 1)
        #expect(delays(b, r: 0, retries: 3) == [10, 20, 40].map { $0 * Self.ms })
    }

    @Test("constant, linear and none")
    func shapes() {
        #expect(
            delays(Backoff(kind: .constant, base: 2 * Self.second, max: 60 * Self.second), r: 0.7, retries: 3)
                == [2, 2, 2].map { $0 * Self.second })
        #expect(
            delays(Backoff(kind: .linear, base: 2 * Self.second, max: 5 * Self.second), r: 0.7, retries: 4)
                == [2, 4, 5, 5].map { $0 * Self.second })
        #expect(delays(.immediate, r: 0.7, retries: 3) == [0, 0, 0])
    }

    @Test("resilience4j: cap after randomisation, min(v·U[0.5, 1.5), max)")
    func capAfterJitter() {
        let b = Backoff(kind: .exponential, base: Self.second, max: 2 * Self.second, jitter: .proportional(0.5), capAfterJitter: true)
        // n = 2: 2 s × U[0.5,1.5) at r → 1 would be 3 s, capped to 2 s; at r = 0, 1 s.
        #expect(delays(b, r: 1, retries: 2)[1] == 2 * Self.second)
        #expect(delays(b, r: 0, retries: 2)[1] == Self.second)
    }

    @Test("delays are never negative and stay within the formula's bounds", arguments: [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])
    func bounds(r: Double) {
        for jitter in [Jitter.none, .full, .equal, .decorrelated, .proportional(0.2), .additive(1)] {
            let b = Backoff(kind: .exponential, base: 250 * Self.ms, max: 30 * Self.second, jitter: jitter)
            var memory = 0.0
            var random = FixedUniformSource(r)
            for n in 1...40 {
                let d = b.delay(retry: n, memory: &memory, random: &random)
                let envelope = Int64(b.envelope(retry: n))
                #expect(d >= 0)
                switch jitter {
                case .none, .full: #expect(d <= envelope)
                case .equal: #expect(d >= envelope / 2 && d <= envelope)
                case .decorrelated: #expect(d >= 250 * Self.ms && d <= 30 * Self.second)
                case .proportional(let f): #expect(Double(d) >= Double(envelope) * (1 - f) - 1 && Double(d) <= Double(envelope) * (1 + f) + 1)
                case .additive(let f): #expect(d >= envelope && Double(d) <= Double(envelope) * (1 + f) + 1)
                default: break
                }
            }
        }
    }
}
