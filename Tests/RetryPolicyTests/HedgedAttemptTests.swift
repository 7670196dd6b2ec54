import RetryPolicy
import Testing

/// ``HedgedAttempt``, the copies' bookkeeping every host (the simulator's clients, a call graph's
/// edges, the app's `hedging(host:…)`) applies: each input in each state (idle, hedging, frozen,
/// ended) and the exact action it returns. Expected values follow from the type's contract:
/// copy k carries `base + k`, the timer carries the latest copy's generation, at most
/// `Hedging.maxCopies` (5) copies, and each wanted copy is sent, refused or not needed.
struct HedgedAttemptTests {
    /// An attempt with base 100 whose copies went out at `times` (copy k at `times[k]`).
    static func out(_ times: [Int64], base: UInt32 = 100) -> HedgedAttempt {
        var a = HedgedAttempt(base: base)
        for (k, t) in times.enumerated() {
            if k > 0 { #expect(a.wantCopy(at: t, deadline: .max) == .admit) }
            #expect(a.sent(generation: base &+ UInt32(k), at: t) == .armTimer(generation: base &+ UInt32(k)))
        }
        return a
    }

    @Test("idle: nothing is out, every input but the first send is stale, and abandoning ends it with nothing to cancel")
    func idle() {
        var a = HedgedAttempt(base: 7)
        #expect(a.copiesOut.isEmpty && a.sent == 0 && a.wanted == 0 && a.timerGeneration == nil && !a.isEnded)
        #expect(a.answered(generation: 7, ok: true, at: 1) == .stale)
        #expect(a.timedOut(generation: 7, at: 1) == .stale)
        #expect(a.delayElapsed(generation: 7, at: 1, deadline: .max) == .stale)
        #expect(a.wantCopy(at: 1, deadline: .max) == .stale)
        #expect(a.sentAt(generation: 7) == nil)
        var b = a
        #expect(b.abandonAll() == HedgedAttempt.AbandonAction.none)
        #expect(b.isEnded)
        // Copy 0 carries the base; the timer carries copy 0's generation.
        #expect(a.sent(generation: 7, at: 5) == .armTimer(generation: 7))
        #expect(a.copiesOut == CopySet(bits: 0b1) && a.sent == 1 && a.timerGeneration == 7 && a.sentAt(generation: 7) == 5)
    }

    @Test("copy k carries base + k, wrapping past UInt32.max; the timer follows the latest copy")
    func generations() {
        var a = Self.out([0, 10], base: .max)
        // Copy 1 carries UInt32.max + 1 = 0 (wrapping).
        #expect(a.timerGeneration == 0 && a.sentAt(generation: 0) == 10 && a.sentAt(generation: .max) == 0)
        // A timer armed for copy 0 is stale once copy 1 went out.
        #expect(a.delayElapsed(generation: .max, at: 20, deadline: .max) == .stale)
        #expect(a.wanted == 1)
        #expect(a.delayElapsed(generation: 0, at: 20, deadline: .max) == .admit)
        #expect(a.wanted == 2)
    }

    /// Copies at 0, 10 and 30 ns; copy 1 answers at 50: latency 50 − 10 = 40, outrun copies 0
    /// and 2, out for 50 and 20 (Finagle counts all three in the window).
    @Test("a success wins: the winner, its latency, the copies it outran and their times out; the attempt ends")
    func won() {
        var a = Self.out([0, 10, 30])
        guard case .won(let win) = a.answered(generation: 101, ok: true, at: 50) else {
            Issue.record("expected a win")
            return
        }
        #expect(win.copy == 1 && win.latency == 40 && win.outrun == CopySet(bits: 0b101) && win.base == 100 && win.at == 50)
        #expect(win.outFor(0) == 50 && win.outFor(2) == 20)
        #expect(Array(win.outrun) == [0, 2] && win.outrun.last == 2)
        var window = LatencyWindow(window: 1_000_000_000)
        win.record(into: &window)
        #expect(window.count == 3)
        #expect(a.isEnded && a.copiesOut.isEmpty)
        // After the end, every input is stale and nothing is left to cancel.
        #expect(a.answered(generation: 100, ok: true, at: 60) == .stale)
        #expect(a.timedOut(generation: 102, at: 60) == .stale)
        #expect(a.delayElapsed(generation: 102, at: 60, deadline: .max) == .stale)
        #expect(a.wantCopy(at: 60, deadline: .max) == .stale)
        #expect(a.abandonAll() == HedgedAttempt.AbandonAction.none)
    }

    /// The only copy out wins: nothing outrun.
    @Test("a lone copy's success outruns nothing")
    func wonAlone() {
        var a = Self.out([0])
        guard case .won(let win) = a.answered(generation: 100, ok: true, at: 8) else {
            Issue.record("expected a win")
            return
        }
        #expect(win.outrun.isEmpty && win.latency == 8 && win.outrun.last == nil)
    }

    @Test("a failure or a timeout takes the copy out, with the others still out and its time out")
    func failed() {
        var a = Self.out([0, 10])
        #expect(a.answered(generation: 100, ok: false, at: 25) == .failed(copy: 0, othersOut: 1, outFor: 25))
        #expect(a.copiesOut == CopySet(bits: 0b10))
        // The same copy again, a copy never sent, and one out of range: stale.
        #expect(a.answered(generation: 100, ok: true, at: 26) == .stale)
        #expect(a.answered(generation: 102, ok: true, at: 26) == .stale)
        #expect(a.timedOut(generation: 99, at: 26) == .stale)
        #expect(a.timedOut(generation: 101, at: 40) == .failed(copy: 1, othersOut: 0, outFor: 30))
        // None out, not ended: the policy's `.sendNow` asks for the next copy.
        #expect(!a.isEnded && a.copiesOut.isEmpty)
        #expect(a.wantCopy(at: 40, deadline: .max) == .admit)
        #expect(a.sent(generation: 102, at: 40) == .armTimer(generation: 102))
    }

    /// One refusal freezes hedging: later delays and failures ask nothing and count nothing, and
    /// the attempt ends for the refusal's reason when its last copy is gone (gRPC's RetriableStream).
    @Test("a refusal with copies out freezes hedging; the last copy's failure then ends it for that reason")
    func refusalFreezes() {
        var a = Self.out([0])
        #expect(a.delayElapsed(generation: 100, at: 10, deadline: .max) == .admit)
        #expect(a.refused(.budgetExhausted) == .wait)
        #expect(a.frozen == .budgetExhausted && a.wanted == 1)
        #expect(a.delayElapsed(generation: 100, at: 20, deadline: .max) == .notWanted(.wait))
        #expect(a.wanted == 1)
        #expect(a.answered(generation: 100, ok: false, at: 30) == .failed(copy: 0, othersOut: 0, outFor: 30))
        #expect(a.wantCopy(at: 30, deadline: .max) == .notWanted(.end(.budgetExhausted)))
        #expect(a.isEnded)
    }

    @Test("a refusal with no copy out ends the attempt for its reason")
    func refusalEnds() {
        var a = Self.out([0])
        _ = a.answered(generation: 100, ok: false, at: 5)
        #expect(a.wantCopy(at: 5, deadline: .max) == .admit)
        #expect(a.refused(.circuitOpen) == .end(.circuitOpen))
        #expect(a.isEnded && a.wanted == 0)
    }

    /// At or past the deadline a wanted copy is counted and not needed, and hedging freezes with
    /// `elapsedExceeded`; the deadline is inclusive (`now >= deadline`).
    @Test("past the deadline a wanted copy is not needed, and hedging freezes")
    func deadline() {
        var a = Self.out([0])
        #expect(a.wantCopy(at: 99, deadline: 100) == .admit)
        _ = a.sent(generation: 101, at: 99)
        #expect(a.delayElapsed(generation: 101, at: 100, deadline: 100) == .notNeeded(.wait))
        #expect(a.frozen == .elapsedExceeded && a.wanted == 2)
        var b = Self.out([0])
        _ = b.answered(generation: 100, ok: false, at: 200)
        #expect(b.wantCopy(at: 200, deadline: 100) == .notNeeded(.end(.elapsedExceeded)))
        #expect(b.isEnded)
    }

    /// Five copies out (gRPC's cap): a sixth is not wanted and not counted; with none out the
    /// attempt ends, attempts exhausted.
    @Test("the five-copy guard: no sixth copy, not counted")
    func fiveCopies() {
        var a = Self.out([0, 1, 2, 3, 4])
        #expect(a.sent == Hedging.maxCopies && a.wanted == Hedging.maxCopies - 1)
        #expect(a.delayElapsed(generation: 104, at: 5, deadline: .max) == .notWanted(.wait))
        #expect(a.wanted == 4)
        for k in 0..<5 { _ = a.answered(generation: 100 + UInt32(k), ok: false, at: 6) }
        #expect(a.wantCopy(at: 6, deadline: .max) == .notWanted(.end(.attemptsExhausted)))
        #expect(a.isEnded)
    }

    @Test("abandoning hands back the copies out to cancel, with their base, and ends the attempt")
    func abandon() {
        var a = Self.out([0, 10, 20])
        _ = a.answered(generation: 101, ok: false, at: 30)
        #expect(a.abandonAll() == .cancel(CopySet(bits: 0b101), base: 100))
        #expect(a.isEnded && a.abandonAll() == HedgedAttempt.AbandonAction.none)
        var b = Self.out([0])
        _ = b.answered(generation: 100, ok: false, at: 1)
        #expect(b.abandonAll() == HedgedAttempt.AbandonAction.none)
    }

    /// The copies' law on one attempt: 4 wanted = 2 sent + 1 refused + 1 not needed is not
    /// reachable (one freeze at most), so it checks the two reachable ends: sent + refused, and
    /// sent + not needed, each wanted = sent − 1 + 1.
    @Test("each wanted copy is sent, refused or not needed, and one freeze ends the asking")
    func wantedLaw() {
        var a = Self.out([0, 10, 20])
        #expect(a.wantCopy(at: 30, deadline: .max) == .admit)
        #expect(a.refused(.throttledLocally) == .wait)
        #expect(a.wanted == (a.sent - 1) + 1)
        var b = Self.out([0, 10])
        #expect(b.wantCopy(at: 30, deadline: 30) == .notNeeded(.wait))
        #expect(b.wanted == (b.sent - 1) + 1)
        a._checkInvariants()
        b._checkInvariants()
    }

    @Test("CopySet and PerCopy: ascending iteration, the last copy, five values by index")
    func storage() {
        let s = CopySet(bits: 0b10110)
        #expect(Array(s) == [1, 2, 4] && s.count == 3 && s.last == 4 && s.contains(2) && !s.contains(0) && !s.contains(9))
        var v = PerCopy<Int64>(repeating: -1)
        for k in 0..<Hedging.maxCopies { v[k] = Int64(k * 10) }
        #expect((0..<Hedging.maxCopies).map { v[$0] } == [0, 10, 20, 30, 40])
        // No heap storage: the whole state is inline (five 8-byte times and 9 bytes of counts).
        #expect(MemoryLayout<HedgedAttempt>.size <= 56)
    }

    #if DEBUG
        /// The contract: a later copy is sent only after `.admit` (the invariant check traps).
        @Test("a copy sent without being admitted traps under the checks")
        func sentWithoutAdmit() async {
            await #expect(processExitsWith: .failure) {
                var a = HedgedAttempt(base: 0)
                _ = a.sent(generation: 0, at: 0)
                _ = a.sent(generation: 1, at: 1)
            }
        }
    #endif
}
