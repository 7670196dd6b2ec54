@_spi(Simulation) import RetryPolicy

/// Where the engine's handlers find the policy of an operation's population: the one place the
/// engine looks a policy up.
///
/// The event loop is specialised for each conforming type, so a run with one population
/// (``SinglePolicy``) reads its policy from a borrowed local exactly as it did before populations
/// existed, and only a run with several (``PopulationPolicies``) pays for the lookup. The policy is
/// lent to a closure rather than returned: a `get` requirement returns a copy, and a copy of a
/// policy (hundreds of bytes) on every call cost bench-fleet 15% of its instructions.
protocol PolicyTable: ~Copyable {
    /// Calls `body` with the policy of population `population` (an index below the number of
    /// populations) and returns what it returns.
    func with<R>(_ population: UInt8, _ body: (borrowing RetryPolicy) -> R) -> R
}
