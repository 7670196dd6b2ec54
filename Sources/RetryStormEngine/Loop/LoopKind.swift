/// Which of the two event loops a run takes, as a type: the loop is specialised for each, so the
/// lean loop keeps no code for what it leaves out.
///
/// - ``LeanLoop``: one policy (population 0's), no operation deadlines, no hedging. bench-fleet
///   runs it.
/// - ``GeneralLoop``: everything else — populations, each with its own policy; operations'
///   deadlines (`clients.deadline`); hedging. Code under `C.general` is compiled out of the lean
///   loop.
///
/// Handlers receive population 0's policy as a borrowed parameter and ask
/// ``PopulationPolicies/lend(_:_:_:_:)`` for an operation's. Why a type and not a value: a policy read
/// through memory (a pointer, a table, a generic value) is copied before every call, because the
/// optimiser cannot rule out that the call writes that memory (the C random-number calls could,
/// for all it knows) — hundreds of bytes per call, 15% of bench-fleet's instructions
/// (`scripts/profile.sh`). A borrowed parameter is read in place.
protocol LoopKind {
    /// Whether this is the general loop: operations may belong to populations other than 0, and
    /// may have deadlines or hedged attempts.
    static var general: Bool { get }
}

/// The lean loop: every operation has population 0's policy, no deadline and no hedging.
enum LeanLoop: LoopKind {
    @inline(__always) static var general: Bool { false }
}

/// The general loop: populations, deadlines and hedging.
enum GeneralLoop: LoopKind {
    @inline(__always) static var general: Bool { true }
}
