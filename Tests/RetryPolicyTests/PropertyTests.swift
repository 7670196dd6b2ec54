@_spi(Simulation) import RetryPolicy
import Testing

/// Properties over random traffic for every preset: delays never negative and within the
/// formula's bounds, attempts and elapsed time within the caps.
struct PropertyTests {
    /// The longest wait a policy's formula allows (no server hints involved).
    static func bound(_ p: RetryPolicy) -> Int64 {
        let f: Double =
            switch p.backoff.jitter {
            case .proportional(let f), .additive(let f): f
            default: 0
            }
        let base = Swift.max(p.backoff.max, p.throttlingBase ?? 0)
        return Swift.max(Int64(Double(base) * (1 + f)) + 1, p.coolOff ?? 0, p.authRefreshDelay)
    }

    @Test(
        "delays ≥ 0 and ≤ the formula's bound; attempts ≤ max_attempts per cycle; retries start within max_elapsed",
        arguments: RetryPolicy.presets.map(\.name))
    func caps(_ name: String) throws {
        let p = try #require(RetryPolicy.preset(named: name))
        var host = HostGuard(policy: p)
        var random = SplitMix(seed: UInt64(name.utf8.count))
        let errors: [NormalizedError] = [
            .http(503), .http(500), .http(429), .timedOut(.response), .timedOut(.connect),
            .transport(.connectionReset, reached: .unknown), .http(503, unprocessed: true), .http(404)
        ]
        var now: Int64 = 0
        for _ in 0..<500 {
            var record = OperationRecord()
            now += Int64(random.nextUniform() * Double(10 * second))
            var t = now
            var attemptsThisCycle = 0
            for _ in 0..<200 {
                switch p.admit(record: &record, host: &host, now: t, random: &random) {
                case .proceed: break
                case .wait(let until):
                    #expect(until >= t)
                    t = until
                    continue
                case .waitForSlot:
                    Issue.record("one operation at a time never waits for a slot")
                case .reject: break
                }
                if record.isFinished { break }
                p.attemptStarted(record: &record, host: &host, now: t)
                attemptsThisCycle += 1
                #expect(attemptsThisCycle <= p.maxAttempts)
                if random.nextUniform() < 0.1 {
                    p.succeeded(record: &record, host: &host, now: t, random: &random)
                    break
                }
                let e = errors[Int(random.nextUniform() * Double(errors.count))]
                var d = p.decide(after: e, record: &record, host: &host, now: t, random: &random)
                if case .reconcile = d { d = p.reconciled(.notApplied, record: &record, host: &host, now: t, random: &random) }
                guard case .retry(let at) = d else {
                    if case .refreshCredentials(let at) = d {
                        t = at
                        continue
                    }
                    break
                }
                #expect(at >= t)
                #expect(at - t <= Self.bound(p), "\(name): waited \(at - t) ns")
                if record.phase == .coolingOff { attemptsThisCycle = 0 }
                if let maxElapsed = p.maxElapsed, let first = record.firstAttemptAt { #expect(at - first <= maxElapsed) }
                t = at
            }
            p.cancelled(record: &record, host: &host, now: t)
            now = Swift.max(now, t)
        }
        #expect(host.inFlight == 0)
    }

    @Test(
        "every jitter stays within its bounds for random r, and decorrelated jitters never go negative",
        arguments: [Jitter.none, .full, .equal, .decorrelated, .decorrelatedV2, .proportional(0.2), .proportional(0.5), .additive(1)])
    func jitterBounds(_ jitter: Jitter) {
        let b = Backoff(kind: .exponential, base: 100 * ms, max: 30 * second, jitter: jitter)
        var random = SplitMix(seed: 99)
        for _ in 0..<200 {
            var memory = 0.0
            for n in 1...30 {
                let d = b.delay(retry: n, memory: &memory, random: &random)
                let e = Int64(b.envelope(retry: n))
                #expect(d >= 0)
                switch jitter {
                case .none: #expect(d == e)
                case .full: #expect(d <= e)
                case .equal: #expect(d >= e / 2 && d <= e)
                case .decorrelated, .decorrelatedV2: #expect(d <= 30 * second)
                case .proportional(let f): #expect(Double(d) >= Double(e) * (1 - f) - 1 && Double(d) <= Double(e) * (1 + f) + 1)
                case .additive(let f): #expect(d >= e && Double(d) <= Double(e) * (1 + f) + 1)
                }
            }
        }
    }
}
