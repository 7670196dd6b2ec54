import GSLSupport
import RetryPolicy

/// The policy of every population of a run, and the random stream all their draws come from.
///
/// Population 0's policy (the only one without populations) is what ``Simulation/run()`` copies
/// once into a local that every handler borrows, so no call copies it again; the others are read
/// through a pointer when an operation of theirs asks (``lend(_:_:_:_:)``, see ``LoopKind``).
struct PopulationPolicies<Policy: ClientPolicy>: ~Copyable {
    /// Population 0's policy.
    let first: UnsafeMutablePointer<Policy>
    /// The policies of populations 1, 2, … (none without populations).
    let others: UnsafeMutablePointer<Policy>
    let otherCount: Int
    /// Every policy's random draws (jitter, throttling), in the order the handlers ask.
    let random: RandomStream

    /// - Parameter policies: the policy of each population, in order (at least one).
    init(_ policies: [Policy], random: consuming RandomStream) {
        first = .allocate(capacity: 1)
        first.initialize(to: policies[0])
        otherCount = policies.count - 1
        others = .allocate(capacity: max(1, otherCount))
        others.initialize(from: Array(policies.dropFirst()), count: otherCount)
        self.random = random
    }

    /// The same policies as `other`, drawing from the copy of its stream.
    init(copying other: borrowing PopulationPolicies<Policy>, _ streams: inout StreamCopies) {
        first = .allocate(capacity: 1)
        first.initialize(to: other.first.pointee)
        otherCount = other.otherCount
        others = .allocate(capacity: max(1, otherCount))
        others.initialize(from: other.others, count: otherCount)
        random = streams.copy(other.random)
    }

    deinit {
        first.deinitialize(count: 1)
        first.deallocate()
        others.deinitialize(count: otherCount)
        others.deallocate()
    }

    /// Lends the policy of `population` to `body`: `first` (population 0's, borrowed from
    /// ``Simulation/run()``) in the lean loop — no branch, no copy — else the population's
    /// own. The other populations' policies are read through a pointer, so a run with populations
    /// copies them per call (see ``LoopKind``).
    @inline(__always) func lend<R, C: LoopKind>(
        _ population: UInt8, _ first: borrowing Policy, _: C.Type,
        _ body: (borrowing Policy) -> R
    ) -> R {
        if C.general && population != 0 { return body(others[Int(population) &- 1]) }
        return body(first)
    }
}
