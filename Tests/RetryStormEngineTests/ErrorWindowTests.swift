import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The error window (`server.errors.at`, `server.errors.duration`) and the transient share's
/// status (`server.errors.status`, issue 28): the mix rewrites exactly the answers the server
/// reports in [at, at + duration), a 503 after processing is retried by a classifier that retries
/// 503 but not 500, and the window is the incident's trigger. The servers here are far below
/// capacity (the `flaky` model with no failures, a queue of 1,000 workers at 1,000,000/s), so every
/// failure comes from the window.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct ErrorWindowTests {
    static let s = Scenarios.s
    static let ms: Int64 = 1_000_000

    /// `clients` clients each starting an operation every 50 ms (`constant` arrivals, 20/s each,
    /// from a random phase in the first period) until 3 s — exactly 60 each, all answered before
    /// the horizon — against `model`, with every answer in `window` rewritten to the transient status.
    static func scenario(
        model: Scenario.Model, window: Range<Int64>?, status: Scenario.ErrorMix.Status = .internalError,
        policy: RetryPolicy = Scenarios.noRetries, clients: Int = 100, horizon: Int64 = 4 * s
    ) -> Scenario {
        Scenario(
            name: "error-window", seed: 5, horizon: horizon, bucket: s,
            clients: .init(count: clients, arrival: .constant(ratePerClient: 20, start: 0, until: 3 * s), timeout: s),
            server: .init(
                capacity: 1_000_000, profile: .constant, model: model,
                errors: .init(serverError: 1, serverErrorStatus: status, window: window)),
            policy: policy)
    }

    static let flaky = Scenario.Model.flaky(.init(failure: 0, latency: 10 * ms))
    /// 1,000 workers, each serving a request in exactly 1 ms: at 2,000 requests a second about 2
    /// are in service at once, so none ever waits and every answer comes 1 ms after its request.
    static let queue = Scenario.Model.queue(.init(workers: 1000, service: .deterministic, limit: nil, dropExpired: false))

    /// Constant arrivals every 50 ms from a phase in [0, 50 ms): each client sends exactly one
    /// request in any 50 ms span, so 100 clients send exactly 100 whose answers (a fixed latency
    /// later) fall in [2 s, 2.05 s) — those, and no other, fail. Nobody retries, so each is an
    /// operation that gives up; every other operation succeeds.
    @Test("a 50 ms window with server: 1 fails exactly one answer per client and none outside", arguments: [0, 1])
    func exactCount(model: Int) {
        let m = model == 0 ? Self.flaky : Self.queue
        let r = Simulator.run(Self.scenario(model: m, window: 2 * Self.s..<(2 * Self.s + 50 * Self.ms)), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        #expect(r.summary.operations == 6000)
        #expect(r.summary.failed == 100)
        #expect(r.summary.gaveUp == 100)
        #expect(r.summary.succeeded == 5900)
        // All of them in the bucket [2 s, 3 s), none elsewhere.
        #expect((0..<r.buckets).map { r.count(.failed, bucket: $0) } == [0, 0, 100, 0])
    }

    /// Ten clients start an operation each at exactly 2 s against the `flaky` model answering at
    /// once, so every answer is reported at 2 s: a window [2 s, 3 s) starts there and fails all ten,
    /// a window [1 s, 2 s) ends there and fails none (the window is half-open, as a bucket is).
    @Test("the window is half-open: an answer at its start gets the mix, one at its end does not")
    func halfOpen() {
        func failed(_ window: Range<Int64>) -> Int64 {
            var sc = Self.scenario(model: .flaky(.init(failure: 0, latency: 0)), window: window)
            sc.clients = .init(count: 10, arrival: .burst(at: 2 * Self.s), timeout: Self.s)
            let r = Simulator.run(sc, replication: 0, options: EngineOptions(checkInvariants: true, maxEvents: 1000))
            #expect(r.invariantViolation == nil && r.summary.operations == 10)
            return r.summary.failed
        }
        #expect(failed(2 * Self.s..<3 * Self.s) == 10)
        #expect(failed(1 * Self.s..<2 * Self.s) == 0)
    }

    /// Poisson arrivals (1,000 clients at 0.2/s: 200/s) against the `flaky` model answering at
    /// once: an answer falls in the bucket of its request. Over the window [10 s, 15 s), which is
    /// whole buckets, every first attempt of buckets 10 to 14 fails and none of any other bucket.
    @Test("Poisson arrivals: in the window's buckets failed answers equal first attempts; outside, none fail")
    func poissonBuckets() {
        var sc = Self.scenario(model: .flaky(.init(failure: 0, latency: 0)), window: 10 * Self.s..<15 * Self.s, horizon: 30 * Self.s)
        sc.clients = .init(count: 1000, arrival: .poisson(ratePerClient: 0.2, start: 0, until: .max), timeout: Self.s)
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        for b in 0..<r.buckets {
            let first = r.count(.firstAttempts, bucket: b)
            let inWindow = (10..<15).contains(b)
            #expect(r.count(.failed, bucket: b) == (inWindow ? first : 0), "bucket \(b)")
            #expect(r.count(.succeeded, bucket: b) == (inWindow ? 0 : first), "bucket \(b)")
        }
        // 200/s for 5 s: Poisson, 1,000 ± 4.5 × √1,000.
        #expect(abs(Double(r.summary.failed) - 1000) < 4.5 * 1000.0.squareRoot())
    }

    /// The gRPC preset (RetryPolicy.grpc, Classifier.grpcUnavailable) retries 502, 503 and 504
    /// (UNAVAILABLE) and not 500 (INTERNAL/UNKNOWN). Its first retry waits 100 ms ± 20%, at least
    /// 80 ms: a request answered in [2 s, 2.05 s) is retried after the window, and succeeds. Its
    /// retry throttling starts each client at 10 tokens and a failure takes one (9 > 5: the retry
    /// goes). So with 503 the 100 failed operations retry once each and all succeed; with 500 none
    /// retries and the 100 give up.
    @Test("status 503 under the grpc preset: each failed operation retries once and succeeds; 500: none retries", arguments: [0, 1])
    func grpcRetriesUnavailable(model: Int) {
        let m = model == 0 ? Self.flaky : Self.queue
        let window = 2 * Self.s..<(2 * Self.s + 50 * Self.ms)
        let unavailable = Simulator.run(
            Self.scenario(model: m, window: window, status: .unavailable, policy: .grpc), replication: 0, checkInvariants: true)
        #expect(unavailable.invariantViolation == nil)
        #expect(unavailable.summary.failed == 100)
        #expect(unavailable.summary.retries == 100)
        #expect(unavailable.summary.gaveUp == 0)
        #expect(unavailable.summary.succeeded == 6000)
        // Processed, then 503: a failure, not a refusal (which a full queue's 503 is).
        #expect(unavailable.summary.rejected == 0)

        let internalError = Simulator.run(Self.scenario(model: m, window: window, policy: .grpc), replication: 0, checkInvariants: true)
        #expect(internalError.summary.failed == 100)
        #expect(internalError.summary.retries == 0)
        #expect(internalError.summary.gaveUp == 100)
    }

    /// Finagle's default client retries only what surely did not take effect (a shed request, never
    /// processed). The window's 503 was processed, so it is not retried — unlike a full queue's.
    @Test("a processed 503 is not a requeue: the finagle preset does not retry it")
    func finagleDoesNotRequeue() {
        let r = Simulator.run(
            Self.scenario(model: Self.flaky, window: 2 * Self.s..<(2 * Self.s + 50 * Self.ms), status: .unavailable, policy: .finagle),
            replication: 0, checkInvariants: true)
        #expect(r.summary.failed == 100)
        #expect(r.summary.retries == 0)
    }

    /// Without a window the mix applies throughout, one draw per answer. A window that covers the
    /// whole run rewrites the same answers with the same draws, so the runs agree count for count;
    /// the default status is 500. (Byte-identical outputs without the keys are checked against
    /// the committed results by `make results`.)
    @Test("a window over the whole run gives the run without a window, count for count")
    func wholeRunWindowIsNoWindow() {
        var sc = FrontDoorTests.scenario(ratePerSecond: 500, errors: .init(permanent: 0.1, serverError: 0.2, ambiguous: 0.05))
        sc.horizon = 20 * Self.s
        let plain = Simulator.run(sc, replication: 0)
        sc.server.errors.window = 0..<sc.horizon
        let windowed = Simulator.run(sc, replication: 0)
        sc.server.errors.window = nil
        sc.server.errors.serverErrorStatus = .internalError
        let explicit = Simulator.run(sc, replication: 0)
        #expect(plain.counts == windowed.counts)
        #expect(plain.counts == explicit.counts)
        #expect(plain.summary.failed > 0)
        // Not a trigger: a mix over the whole run is the server's steady state.
        #expect(plain.summary.recoveryAfterTriggerSeconds.isNaN)
        #expect(!windowed.summary.recoveryAfterTriggerSeconds.isNaN)
    }

    /// The window is a trigger: `Scenario.trigger` and `triggerWindows` have it, with a load
    /// spike the incident spans both, and with no share above 0 it is none.
    @Test("the error window is a trigger window, alone or with a load spike")
    func triggerWindow() {
        var sc = Self.scenario(model: Self.flaky, window: 10 * Self.s..<20 * Self.s, horizon: 60 * Self.s)
        let mix = sc.server.errors
        #expect(sc.triggerWindows() == [TriggerWindow(kind: .errors(mix), start: 10 * Self.s, end: 20 * Self.s)])
        #expect(sc.trigger?.start == 10 * Self.s && sc.trigger?.end == 20 * Self.s)
        sc.load = .spike(at: 5 * Self.s, duration: 10 * Self.s, multiplier: 2)
        #expect(sc.trigger?.start == 5 * Self.s && sc.trigger?.end == 20 * Self.s)
        #expect(sc.triggerWindows(limit: 1).count == 2)
        sc.server.errors.serverError = 0
        #expect(sc.trigger?.start == 5 * Self.s && sc.trigger?.end == 15 * Self.s)
        #expect(TriggerWindow.errors(sc.server).isEmpty)
    }

    /// Lost answers (`ambiguous: 1`) in [10 s, 20 s) with a 1 s timeout and no retries: the
    /// clients time out 1 s after each, in [11 s, 21 s), and nothing fails before 10 s (a zero
    /// baseline: any failure makes a bucket failing, `RecoveryRule`). The last failing bucket is
    /// [20 s, 21 s), so the run is healthy from 21 s: 11 s after the trigger began, 1 s after the
    /// window ended. (Without the window as a trigger recovery would count from 0 s: 21 s.)
    @Test("recovery is measured from the window: 11 s after it began, 1 s after it ended")
    func recoveryAfterWindow() {
        var sc = FrontDoorTests.scenario(ratePerSecond: 200, errors: .init(ambiguous: 1, window: 10 * Self.s..<20 * Self.s))
        sc.horizon = 40 * Self.s
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        #expect(r.summary.recovered == 1)
        #expect(r.summary.recoverySeconds == 11)
        #expect(r.summary.recoveryAfterTriggerSeconds == 1)
        #expect(r.count(.timedOut, bucket: 10) == 0 && r.count(.timedOut, bucket: 20) > 0 && r.count(.timedOut, bucket: 21) == 0)
    }
}
