/// Whether a run has one policy or several (one per population), as a type: the event loop is
/// specialised for each, so the one-policy loop has no lookup at all.
///
/// Handlers receive population 0's policy as a borrowed parameter and ask
/// ``PopulationPolicies/lend(_:_:_:_:)`` for an operation's. Why a type and not a value: a policy read
/// through memory (a pointer, a table, a generic value) is copied before every call, because the
/// optimiser cannot rule out that the call writes that memory (the C random-number calls could,
/// for all it knows) — hundreds of bytes per call, 15% of bench-fleet's instructions
/// (`scripts/profile.sh`). A borrowed parameter is read in place.
protocol PolicyCount {
    /// Whether operations may belong to populations other than 0.
    static var several: Bool { get }
}

/// A run with one policy: every operation has population 0's.
enum OnePolicy: PolicyCount {
    @inline(__always) static var several: Bool { false }
}

/// A run with populations, each with its own policy; also the general loop for what the
/// one-policy loop leaves out to stay lean (operations' deadlines, `clients.deadline`; hedging): code under
/// `C.several` is compiled out of the one-policy loop, which bench-fleet runs.
enum SeveralPolicies: PolicyCount {
    @inline(__always) static var several: Bool { true }
}
