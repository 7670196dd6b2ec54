import RetryPolicy
import Testing

/// The circuit breaker's state machine (Finagle's `liveness/FailureAccrualPolicy.scala`,
/// resilience4j's `CircuitBreakerConfig.java` and `CircuitBreakerStateMachine.java`, Polly.Core's
/// `CircuitBreaker/Controller/AdvancedCircuitBehavior.cs`, and the offline-first chapter's "simple
/// per-host breaker"), alone and through `RetryPolicy.admit`.
struct CircuitBreakerTests {
    /// Feeds outcomes to a breaker at `now`, all in the current epoch.
    static func feed(_ state: inout CircuitBreakerState, _ b: CircuitBreaker, failures: Int, successes: Int = 0, now: Int64 = 0) {
        var random = FixedUniformSource(0)
        for _ in 0..<successes { state.record(b, failed: false, epoch: state.epoch, now: now, random: &random) }
        for _ in 0..<failures { state.record(b, failed: true, epoch: state.epoch, now: now, random: &random) }
    }

    @Test("the chapter's breaker: > 50 % of the last 20 with at least 5 failures; 4 of 4 failed is not enough")
    func chapterThreshold() {
        let b = CircuitBreaker.offlineFirst
        var s = CircuitBreakerState()
        Self.feed(&s, b, failures: 4)
        #expect(s.stage == .closed)
        Self.feed(&s, b, failures: 1)
        #expect(s.stage == .open)
        // Exactly 50 % is not "more than 50 %".
        var half = CircuitBreakerState()
        Self.feed(&half, b, failures: 10, successes: 10)
        #expect(half.stage == .closed)
    }

    @Test("open durations grow 30 s, 60 s, 2 min and stay at the cap; closing resets them (chapter; resilience4j attempts)")
    func growingOpen() {
        let b = CircuitBreaker.offlineFirst
        var s = CircuitBreakerState()
        var random = FixedUniformSource(0)
        var now: Int64 = 0
        var durations: [Int64] = []
        Self.feed(&s, b, failures: 5, now: now)
        for _ in 0..<4 {
            durations.append(s.openUntil! - now)
            now = s.openUntil!
            #expect(s.check(b, now: now) == .probe)
            s.admitProbe(now: now)
            s.record(b, failed: true, epoch: s.epoch, now: now, random: &random)
            #expect(s.stage == .open)
        }
        #expect(durations == [30, 60, 120, 120].map { $0 * second })
        now = s.openUntil!
        #expect(s.check(b, now: now) == .probe)
        s.admitProbe(now: now)
        s.record(b, failed: false, epoch: s.epoch, now: now, random: &random)
        #expect(s.stage == .closed && s.trips == 0)
        Self.feed(&s, b, failures: 5, now: now)
        #expect(s.openUntil! - now == 30 * second)
    }

    @Test("open: blocked until openUntil; the first attempt after it is the probe (lazy, as resilience4j and Polly)")
    func openThenHalfOpen() {
        let b = CircuitBreaker.offlineFirst
        var s = CircuitBreakerState()
        Self.feed(&s, b, failures: 5)
        #expect(s.check(b, now: 10 * second) == .blocked(until: 30 * second))
        #expect(s.check(b, now: 30 * second) == .probe)
        #expect(s.stage == .halfOpen)
        s.admitProbe(now: 30 * second)
        // The others wait one open duration more (Polly pushes blockedUntil while the probe runs).
        #expect(s.check(b, now: 31 * second) == .blocked(until: 60 * second))
    }

    @Test("an outcome of an attempt admitted before the breaker opened does not count after it")
    func staleOutcomes() {
        let b = CircuitBreaker.offlineFirst
        var s = CircuitBreakerState()
        let closedEpoch = s.epoch
        Self.feed(&s, b, failures: 5)
        var random = FixedUniformSource(0)
        _ = s.check(b, now: 30 * second)
        s.admitProbe(now: 30 * second)
        // A late success from the closed epoch must not close the half-open breaker.
        s.record(b, failed: false, epoch: closedEpoch, now: 30 * second, random: &random)
        #expect(s.stage == .halfOpen && s.probes?.probeOutcomes == 0)
    }

    @Test(
        "resilience4j half-open: 10 probes, decided when all ended: 5 of 10 failed reopens (≥ 50 %), 4 of 10 closes",
        arguments: [(5, BreakerStage.open), (4, .closed)] as [(Int, BreakerStage)])
    func halfOpenRate(failures: Int, phase: BreakerStage) {
        var b = CircuitBreaker.resilience4j
        b.minimumCalls = 1
        var s = CircuitBreakerState()
        Self.feed(&s, b, failures: 1)
        #expect(s.stage == .open)
        let now = 60 * second
        var random = FixedUniformSource(0)
        for _ in 0..<10 {
            #expect(s.check(b, now: now) == .probe)
            s.admitProbe(now: now)
        }
        #expect(s.check(b, now: now) == .blocked(until: 120 * second))
        for i in 0..<10 {
            #expect(s.stage == .halfOpen)
            s.record(b, failed: i < failures, epoch: s.epoch, now: now, random: &random)
        }
        #expect(s.stage == phase)
    }

    @Test("Polly: 10 % of at least 100 calls within 30 s, checked on failures; buckets older than the window drop out (§6.3)")
    func pollyTimeWindow() {
        let b = CircuitBreaker.polly
        var s = CircuitBreakerState()
        var random = FixedUniformSource(0)
        // 90 successes and 9 failures at t = 0 s: 99 calls, below the minimum throughput.
        Self.feed(&s, b, failures: 9, successes: 90)
        #expect(s.stage == .closed)
        // 35 s later the first 99 have left the window: 1 more failure is 1 call, not 100.
        s.record(b, failed: true, epoch: s.epoch, now: 35 * second, random: &random)
        #expect(s.stage == .closed)
        // 99 more calls within the window then a failure: 100 calls, 10 % failed → open for 5 s.
        Self.feed(&s, b, failures: 8, successes: 90, now: 36 * second)
        #expect(s.stage == .closed)
        s.record(b, failed: true, epoch: s.epoch, now: 37 * second, random: &random)
        #expect(s.stage == .open)
        #expect(s.openUntil == 42 * second)
    }

    @Test("Finagle failure accrual: 5 consecutive failures; a success in between resets the run (§3.3)")
    func consecutive() {
        let b = CircuitBreaker.finagle
        var s = CircuitBreakerState()
        Self.feed(&s, b, failures: 4)
        Self.feed(&s, b, failures: 0, successes: 1)
        Self.feed(&s, b, failures: 4)
        #expect(s.stage == .closed)
        Self.feed(&s, b, failures: 1)
        #expect(s.stage == .open)
        #expect(s.openUntil == 5 * second)
    }

    @Test("through the policy: `wait` sets nextAttemptAt = openUntil; `reject` stops; `fail-attempt` spends an attempt and backs off")
    func whenOpen() {
        func opened(_ mode: CircuitBreaker.WhenOpen) -> (RetryPolicy, HostGuard) {
            var b = CircuitBreaker.offlineFirst
            b.whenOpen = mode
            let p = RetryPolicy(backoff: Backoff(kind: .constant, base: second, max: second), maxAttempts: 3, breaker: b)
            var host = HostGuard(policy: p)
            Self.feed(&host.breaker, b, failures: 5)
            return (p, host)
        }
        var random = FixedUniformSource(0.5)
        var (p, host) = opened(.wait)
        var record = OperationRecord()
        #expect(p.admit(record: &record, host: &host, now: second, random: &random) == .wait(until: 30 * second))
        #expect(record.nextAttemptAt == 30 * second)

        (p, host) = opened(.reject)
        record = OperationRecord()
        #expect(p.admit(record: &record, host: &host, now: second, random: &random) == .reject(.circuitOpen))
        #expect(record.blockedReason == .circuitOpen)

        (p, host) = opened(.failAttempt)
        record = OperationRecord()
        #expect(p.admit(record: &record, host: &host, now: second, random: &random) == .wait(until: 2 * second))
        #expect(p.admit(record: &record, host: &host, now: 2 * second, random: &random) == .wait(until: 3 * second))
        #expect(p.admit(record: &record, host: &host, now: 3 * second, random: &random) == .reject(.attemptsExhausted))
        #expect(record.attemptCount == 0 && record.lastErrorClass == .circuitOpen)
    }

    @Test("a zero open duration or backoff never answers `wait until now`: waits are at least 1 ms")
    func minimumWait() {
        var b = CircuitBreaker.offlineFirst
        b.openDuration = CircuitBreaker.fixed(0)
        b.whenOpen = .failAttempt
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 5, breaker: b)
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        Self.feed(&host.breaker, b, failures: 5, now: 10 * second)
        var probe = OperationRecord()
        var other = OperationRecord()
        #expect(p.admit(record: &probe, host: &host, now: 10 * second, random: &random) == .proceed)
        p.attemptStarted(record: &probe, host: &host, now: 10 * second)
        #expect(p.admit(record: &other, host: &host, now: 10 * second, random: &random) == .wait(until: 10 * second + ms))
        #expect(other.cycleFailures == 1 && other.nextAttemptAt == 10 * second + ms)
    }

    @Test("4xx answers are the host working: they count as successes unless the breaker records all failures")
    func recordedKinds() {
        let p = RetryPolicy(backoff: .immediate, maxAttempts: 1, breaker: .offlineFirst)
        var driver = Driver(p)
        for _ in 0..<10 { driver.run([.http(404)]) }
        #expect(driver.host.breaker.stage == .closed)
        // 10 successes and 10 failures are 50 %, not more: the 11th failure pushes out a success.
        for _ in 0..<10 { driver.run([.http(503)]) }
        #expect(driver.host.breaker.stage == .closed)
        driver.run([.http(503)])
        #expect(driver.host.breaker.stage == .open)
    }

    /// Property: however many operations ask at random times, a half-open breaker lets at most
    /// `halfOpenProbes` attempts through before it decides.
    @Test("property: never more than the probes through while half-open", arguments: [1, 3, 10])
    func probesProperty(probes: Int) {
        var b = CircuitBreaker.offlineFirst
        b.halfOpenProbes = probes
        let p = RetryPolicy(backoff: Backoff(kind: .constant, base: second, max: second), maxAttempts: 1_000, breaker: b)
        var host = HostGuard(policy: p)
        var random = SplitMix(seed: UInt64(probes))
        var records = (0..<50).map { _ in OperationRecord() }
        var inFlight: [Int] = []
        var now: Int64 = 0
        var probesByEpoch: [UInt32: Int] = [:]
        for _ in 0..<20_000 {
            now += Int64(random.nextUniform() * Double(2 * second))
            // End a random attempt in flight, failing most of the time.
            if !inFlight.isEmpty && random.nextUniform() < 0.5 {
                let i = inFlight.remove(at: Int(random.nextUniform() * Double(inFlight.count)))
                if random.nextUniform() < 0.7 {
                    _ = p.decide(after: .http(503), record: &records[i], host: &host, now: now, random: &random)
                } else {
                    p.succeeded(record: &records[i], host: &host, now: now, random: &random)
                }
                records[i] = OperationRecord()
                continue
            }
            let i = Int(random.nextUniform() * Double(records.count))
            guard records[i].phase != .inFlight else { continue }
            if p.admit(record: &records[i], host: &host, now: now, random: &random) == .proceed {
                p.attemptStarted(record: &records[i], host: &host, now: now)
                inFlight.append(i)
                if host.breaker.stage == .halfOpen { probesByEpoch[host.breaker.epoch, default: 0] += 1 }
            }
        }
        let maxThroughInHalfOpen = probesByEpoch.values.max() ?? 0
        #expect(maxThroughInHalfOpen <= probes)
        #expect(maxThroughInHalfOpen == probes, "the breaker should have been half-open with every probe out at least once")
    }
}
