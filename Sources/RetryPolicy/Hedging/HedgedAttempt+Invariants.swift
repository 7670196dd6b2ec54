// Internal checks of the policy library's state machines. RetryPolicy has no dependency on the
// engine, so it has its own check, on `assert`'s terms: it runs where assertions do (debug
// builds, and every test run of this package) and compiles to nothing in a release (-O) build of
// the module that inlines it. Under RETRYSTORM_INTERNAL_CHECKS (`make check-debug`) it traps in
// every configuration, as the engine's `_internalInvariant` does.

/// Traps when `condition` is false, where assertions run or under RETRYSTORM_INTERNAL_CHECKS;
/// nothing otherwise.
@inlinable @inline(__always)
func _policyInvariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = String(),
    file: StaticString = #fileID, line: UInt = #line
) {
    #if RETRYSTORM_INTERNAL_CHECKS
        precondition(condition(), message(), file: file, line: line)
    #else
        assert(condition(), message(), file: file, line: line)
    #endif
}

extension HedgedAttempt {
    /// Checks the copies' bookkeeping (``_policyInvariant``; O(``Hedging/maxCopies``)): at most
    /// five copies sent, only sent copies out, sent in time order, and each copy after the first
    /// wanted once: `wanted = sent − 1`, plus one while a copy waits for the policy or after
    /// hedging froze (the refused or not-needed copy).
    @inlinable public func _checkInvariants() {
        guard case .hedging(let c) = state else { return }
        let sent = Int(c.sent)
        _policyInvariant(sent >= 1 && sent <= Hedging.maxCopies, "\(sent) copies sent (1 to \(Hedging.maxCopies))")
        _policyInvariant(c.out.bits & ~UInt8((1 << sent) - 1) == 0, "copies \(c.out.bits) out of \(sent) sent")
        _policyInvariant(!(c.asking && c.frozen != nil), "a copy asked for after hedging froze")
        let extra = c.asking || c.frozen != nil ? 1 : 0
        _policyInvariant(Int(c.wanted) == sent - 1 + extra, "copies wanted \(c.wanted) ≠ sent \(sent) − 1 + \(extra)")
        for k in 1..<sent { _policyInvariant(c.sentAt[k - 1] <= c.sentAt[k], "copy \(k) went out before copy \(k - 1)") }
    }
}
