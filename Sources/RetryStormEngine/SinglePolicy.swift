@_spi(Simulation) import RetryPolicy

/// The policy table of a scenario with one population: every index names the same policy, held
/// inline so that a borrowed table is read in place, with no copy and no branch.
struct SinglePolicy: PolicyTable {
    let policy: RetryPolicy

    @inline(__always) subscript(population: UInt8) -> RetryPolicy {
        _read { yield policy }
    }
}
