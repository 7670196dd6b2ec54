import Foundation
import RetryStormEngine
import TestSupport
import Testing

/// Capacity integrals and their inverse, against closed forms.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct CapacityProfileTests {
    static let s: Int64 = 1_000_000_000

    @Test("outage to 20% for 30 s then linear recovery over 60 s: ∫₀³⁰⁰ = 300 − 30·0.8 − 60·0.8/2 = 252")
    func linearIntegral() {
        let p = CapacityProfile.outage(at: 60 * Self.s, duration: 30 * Self.s, fraction: 0.2, recovery: .linear, ramp: 60 * Self.s)
        #expect(abs(p.integral(from: 0, to: 300 * Self.s) - 252) < 1e-9)
        #expect(p.fraction(at: 75 * Self.s) == 0.2)
        #expect(abs(p.fraction(at: 120 * Self.s) - 0.6) < 1e-12)
        #expect(p.fraction(at: 200 * Self.s) == 1)
        #expect(p.disturbedAt == 60 * Self.s && p.recoveredAt == 150 * Self.s)
    }

    @Test("exponential recovery reaches nominal exactly at the end; its area is (1 − f)·R·(1/(1 − e^−5) − 1/5) short of nominal")
    func exponentialIntegral() {
        let p = CapacityProfile.outage(at: 0, duration: 10 * Self.s, fraction: 0.5, recovery: .exponential, ramp: 20 * Self.s)
        #expect(abs(p.fraction(at: 30 * Self.s - 1) - 1) < 1e-8)
        let k = 5.0
        let deficit = 0.5 * 20 * (1 - (1 / (1 - exp(-k)) * (1 - (1 - exp(-k)) / k)))
        #expect(abs(p.integral(from: 10 * Self.s, to: 30 * Self.s) - (20 - deficit)) < 1e-9)
    }

    @Test("finishTime inverts the integral on every shape, to the nanosecond", arguments: ["instant", "linear", "exponential"])
    func inverse(shape: String) {
        let recovery: CapacityProfile.Shape = shape == "linear" ? .linear : shape == "exponential" ? .exponential : .constant
        let p = CapacityProfile.outage(at: 5 * Self.s, duration: 10 * Self.s, fraction: 0.1, recovery: recovery, ramp: 30 * Self.s)
        for startS in [0.0, 4.5, 7, 14.9, 20, 44, 60] {
            for work in [0.001, 0.5, 3, 17, 40] {
                let t0 = Int64(startS * 1e9)
                let t1 = p.finishTime(from: t0, work: work)
                #expect(abs(p.integral(from: t0, to: t1) - work) < 2e-9, "start \(startS) work \(work)")
            }
        }
    }

    @Test("a permanent outage to 0 never finishes")
    func zeroCapacity() {
        let p = CapacityProfile(segments: [.init(start: 0, end: .max, from: 0, to: 0, shape: .constant)])
        #expect(p.finishTime(from: Self.s, work: 1) == .max)
    }
}
