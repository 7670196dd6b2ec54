import Foundation
import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// Load over time: the multiplier's integral and its inverse (the time change that turns a
/// homogeneous arrival process into one that follows the profile), and the arrivals it gives.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct LoadProfileTests {
    static let s: Int64 = 1_000_000_000
    typealias P = LoadProfile.Point

    static let ramp = LoadProfile(points: [P(time: 0, multiplier: 1), P(time: 20 * s, multiplier: 2), P(time: 25 * s, multiplier: 1)])

    @Test(
        "Λ of [[0s, 1], [20s, 2], [25s, 1]]: 30 at 20 s (trapezoid 20·1.5), 37.5 at 25 s, then 1 per second; the last value holds after the last point"
    )
    func integral() {
        let p = Self.ramp
        #expect(p.integral(to: 20 * Self.s) == 30)
        #expect(p.integral(to: 25 * Self.s) == 37.5)
        #expect(p.integral(to: 35 * Self.s) == 47.5)
        // Halfway up the ramp: ∫₀¹⁰ (1 + t/20) dt = 10 + 2.5.
        #expect(p.integral(to: 10 * Self.s) == 12.5)
        #expect(p.multiplier(at: 10 * Self.s) == 1.5)
        #expect(p.multiplier(at: 100 * Self.s) == 1)
        #expect(p.peak == 2)
    }

    @Test(
        "Λ⁻¹(Λ(t)) = t to the nanosecond on every piece where the multiplier is at least 0.01, and Λ⁻¹ finds the first time a flat stretch of 0 is left"
    )
    func inverse() {
        let p = LoadProfile(points: [
            P(time: 5 * Self.s, multiplier: 3), P(time: 10 * Self.s, multiplier: 0), P(time: 12 * Self.s, multiplier: 0),
            P(time: 20 * Self.s, multiplier: 4)
        ])
        for t in stride(from: Int64(0), through: 40 * Self.s, by: 123_456_789) {
            let back = p.time(atIntegral: p.integral(to: t))
            // Where the multiplier nears 0, Λ is flat and its inverse ill-conditioned: a Double's
            // 5e-15 s of Λ is 5e-15 / m seconds of t.
            if p.multiplier(at: t) >= 0.01 { #expect(abs(back - t) <= 1, "t = \(t): \(back)") }
        }
        // Λ is 15 + 7.5 = 22.5 from 10 s to 12 s: the first time it is reached is 10 s.
        #expect(p.time(atIntegral: 22.5) == 10 * Self.s)
        // A profile that ends at 0 never reaches more than its total.
        let ending = LoadProfile(points: [P(time: 0, multiplier: 1), P(time: 10 * Self.s, multiplier: 1), P(time: 10 * Self.s, multiplier: 0)])
        #expect(ending.time(atIntegral: 10.5) == .max)
    }

    @Test("a spike is a step: 1 before, the multiplier during [at, at + duration), 1 after; its elevated window is exactly that")
    func spike() {
        let p = LoadProfile.spike(at: 20 * Self.s, duration: 5 * Self.s, multiplier: 2)
        #expect(p.multiplier(at: 20 * Self.s - 1) == 1)
        #expect(p.multiplier(at: 20 * Self.s) == 2)
        #expect(p.multiplier(at: 25 * Self.s - 1) == 2)
        #expect(p.multiplier(at: 25 * Self.s) == 1)
        #expect(p.integral(to: 30 * Self.s) == 35)
        #expect(p.elevated?.start == 20 * Self.s && p.elevated?.end == 25 * Self.s)
        #expect(Self.ramp.elevated?.start == 0 && Self.ramp.elevated?.end == 25 * Self.s)
        #expect(LoadProfile(points: [P(time: 0, multiplier: 0.5)]).elevated == nil)
        #expect(LoadProfile(points: [P(time: 0, multiplier: 1), P(time: 10 * Self.s, multiplier: 1)]).isFlat)
    }

    static func poisson(_ load: LoadProfile, horizon: Double = 100, seed: UInt64 = 1) -> Scenario {
        var sc = Scenarios.make(
            clients: 100, arrival: .poisson(ratePerClient: 1, start: 0, until: .max), timeout: nil, capacity: 1e6,
            policy: Scenarios.noRetries, horizon: horizon, seed: seed)
        sc.load = load
        return sc
    }

    @Test("a flat profile written as points gives exactly the run without one (same draws, same arithmetic)")
    func flatIsIdentical() {
        let plain = Simulator.run(Self.poisson(.flat), replication: 0)
        let points = Simulator.run(
            Self.poisson(LoadProfile(points: [P(time: 0, multiplier: 1), P(time: 50 * Self.s, multiplier: 1)])), replication: 0)
        #expect("\(plain.summary)" == "\(points.summary)")
        #expect(plain.counts == points.counts)
    }

    @Test(
        "inhomogeneous Poisson along a ramp 1 → 3 → 1 over 100 s at 100/s: every 10 s window holds 100·∫m within 4σ (σ = √mean), and the whole run Λ = 200 s worth"
    )
    func poissonFollowsProfile() {
        let load = LoadProfile(points: [P(time: 0, multiplier: 1), P(time: 50 * Self.s, multiplier: 3), P(time: 100 * Self.s, multiplier: 1)])
        var total: Int64 = 0
        for seed: UInt64 in 1...3 {
            let r = Simulator.run(Self.poisson(load, seed: seed), replication: 0)
            for w in 0..<10 {
                let observed = (w * 10..<(w + 1) * 10).reduce(Int64(0)) { $0 + r.count(.operations, bucket: $1) }
                let expected = 100 * load.integral(from: Int64(w) * 10 * Self.s, to: Int64(w + 1) * 10 * Self.s)
                #expect(abs(Double(observed) - expected) < 4 * expected.squareRoot(), "seed \(seed), window \(w): \(observed) vs \(expected)")
            }
            total += r.summary.operations
        }
        // Λ(100 s) = 200: 20,000 expected per run, σ of the sum over 3 runs ≈ 245.
        #expect(abs(Double(total) - 60_000) < 4 * 60_000.0.squareRoot())
    }

    static func constant(clients: Int, rate: Double, load: LoadProfile = .flat, horizon: Double = 30) -> Scenario {
        var sc = Scenarios.make(
            clients: clients, arrival: .constant(ratePerClient: rate, start: 0, until: .max), timeout: nil,
            capacity: 1e6, policy: Scenarios.noRetries, horizon: horizon)
        sc.load = load
        return sc
    }

    @Test("constant arrivals: 100 clients at 1/s start exactly 100 operations in every 1 s bucket, one per client per period")
    func constantRate() {
        let r = Simulator.run(Self.constant(clients: 100, rate: 1), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        for b in 0..<r.buckets { #expect(r.count(.operations, bucket: b) == 100, "bucket \(b)") }
    }

    @Test("constant arrivals under a step to ×2 at 10 s: the period is kept in operational time, so every bucket after the step holds exactly 200")
    func constantUnderProfile() {
        let load = LoadProfile(points: [P(time: 10 * Self.s, multiplier: 1), P(time: 10 * Self.s, multiplier: 2)])
        let r = Simulator.run(Self.constant(clients: 100, rate: 1, load: load), replication: 0)
        for b in 0..<10 { #expect(r.count(.operations, bucket: b) == 100, "bucket \(b)") }
        for b in 10..<r.buckets { #expect(r.count(.operations, bucket: b) == 200, "bucket \(b)") }
    }

    @Test("a load spike is a trigger: incident metrics cover it and recovery is measured from its start")
    func spikeIsTrigger() {
        // 1,000/s on a 1,500/s server with 0.5 s timeouts: the spike to ×3 overloads it for 5 s.
        var sc = Scenarios.make(
            clients: 1000, arrival: .poisson(ratePerClient: 1, start: 0, until: .max), timeout: 0.5, capacity: 1500,
            policy: Scenarios.noRetries, horizon: 60)
        sc.load = .spike(at: 20 * Self.s, duration: 5 * Self.s, multiplier: 3)
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        #expect(r.summary.incidentGaveUpFraction > 0.1)
        #expect(r.summary.recovered == 1)
        // Healthy again once the backlog drains: (3·1000 − 1500)·5 s of work at 500/s spare is 15 s at most.
        #expect(r.summary.recoverySeconds > 5 && r.summary.recoverySeconds <= 21)
        #expect(r.summary.recoveryAfterTriggerSeconds.isFinite)
    }
}
