import RetryPolicy
import Testing

/// `ClientPolicy`'s defaults keep an operation record exactly as the library's own policy does
/// where the two mean the same thing, so a custom policy that only decides is driven, restarted
/// and reconciled like `RetryPolicy`.
struct ClientPolicyTests {
    /// Decides only: retries at once, stops after `attempts` attempts.
    struct OnlyDecides: ClientPolicy {
        var attempts: Int32 = 3
        func decide<R: UniformSource & ~Copyable>(
            after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard,
            now: Nanoseconds, random: inout R
        ) -> RetryDecision {
            record.attemptCount < attempts ? record.retry(at: now + 5) : record.stop(.attemptsExhausted)
        }
    }

    /// The library's policy with no budget, breaker, throttle or limit, keeping its schedule on restart.
    static let library = RetryPolicy(backoff: .immediate, maxAttempts: 3, onRestart: .keep)

    @Test("admit proceeds; attemptStarted records the attempt as the library does (count, first and last instants, phase)")
    func startsLikeTheLibrary() {
        var custom = OperationRecord()
        var mine = OperationRecord()
        var h1 = HostGuard()
        var h2 = HostGuard(policy: Self.library)
        var random = FixedUniformSource(0.5)
        #expect(OnlyDecides().admit(record: &custom, host: &h1, now: 7, random: &random) == .proceed)
        OnlyDecides().attemptStarted(record: &custom, host: &h1, now: 7)
        Self.library.attemptStarted(record: &mine, host: &h2, now: 7)
        #expect(custom == mine)
        #expect(custom.attemptCount == 1 && custom.firstAttemptAt == 7 && custom.lastAttemptAt == 7 && custom.phase == .inFlight)
        // The default keeps no host state: the library counts the attempt in flight, the default does not.
        #expect(h1 == HostGuard() && h2.inFlight == 1)
    }

    @Test("retry(at:) and stop(_:) set the phase and the next attempt the decision names")
    func decisionHelpers() {
        var record = OperationRecord()
        #expect(record.retry(at: 42) == .retry(at: 42))
        #expect(record.phase == .willRetry && record.nextAttemptAt == 42)
        #expect(record.stop(.nonRetryable) == .stop(.nonRetryable))
        #expect(record.phase == .stopped(.nonRetryable) && record.nextAttemptAt == nil && record.isFinished)
    }

    @Test("succeeded ends the operation; a restart mid-flight keeps the schedule as RetryPolicy's `keep`: ambiguous, due now")
    func succeededAndRestart() {
        var random = FixedUniformSource(0.5)
        var host = HostGuard()
        var done = OperationRecord()
        OnlyDecides().attemptStarted(record: &done, host: &host, now: 1)
        OnlyDecides().succeeded(record: &done, host: &host, now: 2, random: &random)
        #expect(done.phase == .succeeded && OnlyDecides().restart(record: &done, now: 3) == nil)

        var custom = OperationRecord()
        var mine = OperationRecord()
        var h2 = HostGuard(policy: Self.library)
        OnlyDecides().attemptStarted(record: &custom, host: &host, now: 10)
        Self.library.attemptStarted(record: &mine, host: &h2, now: 10)
        #expect(OnlyDecides().restart(record: &custom, now: 20) == 20)
        #expect(Self.library.restart(record: &mine, now: 20) == 20)
        #expect(custom == mine && custom.phase == .unknown)

        var waiting = OperationRecord()
        OnlyDecides().attemptStarted(record: &waiting, host: &host, now: 10)
        _ = OnlyDecides().decide(after: .http(503), record: &waiting, host: &host, now: 10, random: &random)
        #expect(OnlyDecides().restart(record: &waiting, now: 12) == 15)
    }

    @Test("a status query's answer: applied confirms, anything else stops as an ambiguous outcome")
    func reconciled() {
        var random = FixedUniformSource(0.5)
        var host = HostGuard()
        var a = OperationRecord()
        var b = OperationRecord()
        #expect(OnlyDecides().reconciled(.applied, record: &a, host: &host, now: 1, random: &random) == .confirmed)
        #expect(a.phase == .succeeded)
        #expect(OnlyDecides().reconciled(.unknown, record: &b, host: &host, now: 1, random: &random) == .stop(.ambiguousOutcome))
    }

    @Test("the library's policy is a ClientPolicy whose host state and limits are its own")
    func libraryConforms() {
        func describe(_ p: some ClientPolicy) -> (Bool, ConcurrencyLimit?, AmbiguityPolicy) { (p.keepsHostState, p.concurrency, p.ambiguity) }
        let offline = describe(RetryPolicy.offlineFirst)
        #expect(offline.0 && offline.1 == RetryPolicy.offlineFirst.concurrency && offline.2 == RetryPolicy.offlineFirst.ambiguity)
        #expect(RetryPolicy.offlineFirst.makeHostGuard() == HostGuard(policy: .offlineFirst))
        let custom = describe(OnlyDecides())
        #expect(!custom.0 && custom.1 == nil && custom.2 == AmbiguityPolicy())
    }
}
