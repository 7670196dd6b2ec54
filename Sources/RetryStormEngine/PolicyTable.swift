@_spi(Simulation) import RetryPolicy

/// Where the engine's handlers find the policy of an operation's population: the one place the
/// engine looks a policy up.
///
/// The event loop is specialised for each conforming type, so a run with one population
/// (``SinglePolicy``) reads its policy from a borrowed local exactly as it did before populations
/// existed, and only a run with several (``PopulationPolicies``) pays for the lookup.
protocol PolicyTable: ~Copyable {
    /// The policy of population `population` (an index below the number of populations).
    subscript(population: UInt8) -> RetryPolicy { get }
}
