@_spi(Simulation) import RetryPolicy

/// The policy table of a scenario with one population: every index names the same policy, held
/// inline so that a borrowed table lends it in place, with no copy and no branch.
struct SinglePolicy: PolicyTable {
    let policy: RetryPolicy

    @inline(__always) func with<R>(_ population: UInt8, _ body: (borrowing RetryPolicy) -> R) -> R {
        body(policy)
    }
}
