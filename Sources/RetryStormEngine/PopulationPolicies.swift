/// The policy of every population, indexed by the population index an operation carries
/// (``OperationBody/population``): the one place the engine looks a policy up.
///
/// The first population's policy is held inline, so a run with one population reads it from the
/// local copy `Simulation.run()` makes, exactly as before populations existed; the others sit
/// behind a pointer. Generic over the policy value so that the engine's policy type can change
/// without touching the lookup.
///
/// - Warning: Copies share the storage of the other populations' policies: the owner (the
///   simulation) calls ``deallocate()`` once, after the last copy is gone.
struct PopulationPolicies<Policy> {
    let first: Policy
    /// Populations 1, 2, … (`count - 1` of them).
    private let others: UnsafeMutablePointer<Policy>
    /// How many populations there are (at least one).
    let count: Int

    /// - Parameter policies: one per population, in population order; at least one, at most 256.
    init(_ policies: [Policy]) {
        precondition(!policies.isEmpty && policies.count <= 256, "between 1 and 256 populations (got \(policies.count))")
        first = policies[0]
        count = policies.count
        others = .allocate(capacity: max(1, policies.count - 1))
        others.initialize(from: Array(policies.dropFirst()), count: policies.count - 1)
    }

    /// Frees the storage of populations 1, 2, …; the value must not be used afterwards.
    func deallocate() {
        others.deinitialize(count: count - 1)
        others.deallocate()
    }

    /// Population `population`'s policy, read in place (no copy).
    @inline(__always) subscript(population: UInt8) -> Policy {
        _read {
            if population == 0 {
                yield first
            } else {
                yield others[Int(population) &- 1]
            }
        }
    }
}
