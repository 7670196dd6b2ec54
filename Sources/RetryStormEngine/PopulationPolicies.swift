@_spi(Simulation) import RetryPolicy

/// The policy table of a scenario with several populations, indexed by the population index an
/// operation carries (``OperationBody/population``), all policies in one allocation.
///
/// Noncopyable: it owns that allocation and frees it when it goes.
struct PopulationPolicies: PolicyTable, ~Copyable {
    private let base: UnsafeMutablePointer<RetryPolicy>
    /// How many populations there are (between 2 and 256).
    let count: Int

    /// - Parameter policies: one per population, in population order; at most 256.
    init(_ policies: [RetryPolicy]) {
        precondition(policies.count <= 256, "at most 256 populations (got \(policies.count))")
        count = policies.count
        base = .allocate(capacity: max(1, count))
        base.initialize(from: policies, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Lends population `population`'s policy to `body`. Unchecked: the scenario gives every
    /// operation a population below ``count``.
    @inline(__always) func with<R>(_ population: UInt8, _ body: (borrowing RetryPolicy) -> R) -> R {
        body(base[Int(population)])
    }
}
