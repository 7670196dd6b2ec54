import GSLSupport

/// Injects the server's error mix (`server.errors`, ``Scenario/ErrorMix``) into the model's
/// answers: of the writes the model answered 200, a share is
/// answered 400 (permanent) or the transient status (500, or 503 after processing) instead, and a
/// share is applied but its answer is lost (ambiguous). One uniform draw per such answer, from its
/// own stream, in the order the model reported them; with an error window, only for the answers
/// reported in it (the others are left as they are, without a draw).
///
/// It keeps only what a draw needs — the shares' running sums, computed once as each draw computed
/// them before (the same additions in the same order), the window and the transient code — so
/// that the front door, stored inline in the event loop's state, grows as little as it can.
struct ErrorInjector: ~Copyable {
    /// A draw below it answers 400; below `transientBelow`, the transient status; below
    /// `lostBelow`, the answer is lost. `lostBelow` is the shares' sum: above 0 when the mix is on.
    private let permanentBelow: Double
    private let transientBelow: Double
    private let lostBelow: Double
    /// When the mix applies, nanoseconds: to the answers reported at `from ≤ now < from + span`
    /// (0 and `Int64.max` without a window, so that a run without one draws as before; a span of 0
    /// when the mix is off). One unsigned comparison, `now - from < span`, tells both.
    private let from: Int64
    private let span: UInt64
    private let random: RandomStream
    /// The code of the transient share: ``ResponseCode/serverError`` or ``ResponseCode/unavailable``.
    private let transient: ResponseCode

    init(_ mix: Scenario.ErrorMix, random: consuming RandomStream) {
        permanentBelow = mix.permanent
        transientBelow = mix.permanent + mix.serverError
        lostBelow = mix.permanent + mix.serverError + mix.ambiguous
        let from = mix.window?.lowerBound ?? 0
        self.from = from
        span = lostBelow > 0 ? UInt64(bitPattern: (mix.window?.upperBound ?? .max) &- from) : 0
        self.random = random
        transient = mix.serverErrorStatus == .unavailable ? .unavailable : .serverError
    }

    /// The same mix as `other`, drawing from the copy of its stream that `streams` gives.
    init(copying other: borrowing ErrorInjector, _ streams: inout StreamCopies) {
        permanentBelow = other.permanentBelow
        transientBelow = other.transientBelow
        lostBelow = other.lostBelow
        from = other.from
        span = other.span
        random = streams.copy(other.random)
        transient = other.transient
    }

    /// Where ``apply(to:from:)`` starts for the notes of a model call made at `now`: `count`, the
    /// notes' count before the call, when the mix applies at `now`, else `Int.max` (none of them).
    /// Taken before the call, so that only the index lives across it: off, or outside the window,
    /// the mix costs this comparison and the loop's first test.
    @inline(__always) func start(at now: Int64, count: Int) -> Int {
        UInt64(bitPattern: now &- from) < span ? count : .max
    }

    /// Applies the mix to the notes from index `first` on (those of the model call just made, from
    /// ``start(at:count:)``).
    @inline(__always) func apply(to notes: inout RawBuffer<ServerNote>, from first: Int) {
        var i = first
        while i < notes.count {
            var n = notes[i]
            if n.kind == .response && n.code == .ok && !n.query {
                let u = random.uniform()
                if u < permanentBelow {
                    n.code = .badRequest
                } else if u < transientBelow {
                    n.code = transient
                } else if u < lostBelow {
                    n.kind = .lost
                }
                notes[i] = n
            }
            i += 1
        }
    }
}
