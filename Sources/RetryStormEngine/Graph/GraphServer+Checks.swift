/// The call graph's conservation laws, checked with the clients' (``Simulation/checkEvent()``)
/// when a run checks its invariants: the clients' laws see the first service only, so a service
/// behind it could lose a call, or an attempt, and nothing would fire.
extension GraphServer {
    /// The first law that does not hold, or nil:
    /// - per service behind the first: attempts (first attempts + retries, hedged copies
    ///   included) = succeeded + failed + timed out + rejected + abandoned + in flight, and the
    ///   calls made to it = succeeded + confirmed + gave up + blocked + cancelled + open;
    /// - per edge: calls = succeeded + confirmed + gave up + blocked + cancelled + open, and its open calls,
    ///   summed over the edges, are the call table's live slots; a hedged edge's copies wanted =
    ///   sent + refused + not needed, and none wanted beyond its policy's copies
    ///   (``lawBroken(_:)``).
    /// At the end (`atEnd`) the tables are walked: each edge's open calls are its live calls in
    /// the table, and the tables' free lists are whole (``SlotTable/_checkAllInvariants()``).
    mutating func invariantViolation(atEnd: Bool) -> String? {
        // Without the counts every law would hold vacuously or fire falsely.
        precondition(checksLaws, "the call graph's laws are checked on a graph made without keepTotals")
        if let brokenLaw { return brokenLaw }
        var open = Array(repeating: Int64(0), count: serviceCount)
        var openCalls: Int64 = 0
        for e in 0..<edgeCount {
            let t = edgeCalls[e]
            if t.open < 0 { return "edge \(e): calls \(t.calls) < succeeded + confirmed + gave up + blocked \(t.ended)" }
            open[Int(edges[e].to)] += t.open
            openCalls += t.open
            if hedging {
                let k = edgeCopies[e]
                if k.wanted != k.sent + k.refused + k.notNeeded {
                    return "edge \(e): copies wanted \(k.wanted) ≠ sent + refused + not needed \(k.sent + k.refused + k.notNeeded)"
                }
            }
        }
        if openCalls != Int64(calls.live) { return "open calls \(openCalls) ≠ the call table's \(calls.live) live slots" }
        for k in 1..<max(1, serviceCount) {
            if let v = serviceViolation(k, recorders[k - 1], open: open[k]) { return v }
        }
        guard atEnd else { return nil }
        calls._checkAllInvariants()
        requests._checkAllInvariants()
        var live = Array(repeating: Int64(0), count: edgeCount)
        calls.forEachInUse { live[Int($0.edge)] += 1 }
        for e in 0..<edgeCount where live[e] != edgeCalls[e].open {
            return "edge \(e): \(live[e]) calls in the table, \(edgeCalls[e].open) open by its counts"
        }
        return nil
    }

    /// Service `k`'s laws (see ``invariantViolation(atEnd:)``), `r` its recorder, `open` the calls
    /// to it still open.
    func serviceViolation(_ k: Int, _ r: borrowing Recorder, open: Int64) -> String? {
        let out = callsOut[k]
        let name = scenarioIndex[k]
        if out.attempts < 0 || out.queries < 0 { return "service \(name): negative count of calls' sends in flight" }
        let attempts = r.total(.firstAttempts) + r.total(.retries)
        let ended = r.total(.succeeded) + r.total(.failed) + r.total(.timedOut) + r.total(.rejected) + r.total(.abandoned)
        if attempts != ended + out.attempts {
            return "service \(name): attempts \(attempts) ≠ succeeded + failed + timed out + rejected + abandoned + in flight "
                + "\(ended + out.attempts)"
        }
        let finished = r.total(.succeeded) + r.total(.confirmed) + r.total(.gaveUp) + r.total(.blocked) + r.callsCancelled
        if r.total(.operations) != finished + open {
            return "service \(name): calls \(r.total(.operations)) ≠ succeeded + confirmed + gave up + blocked + cancelled + open \(finished + open)"
        }
        return nil
    }
}
