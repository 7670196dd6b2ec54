import GSLSupport
import RetryPolicy

/// Where operations come from: each population's ``Workload`` and the random stream of their
/// arrivals — which also picks an operation's host and lane, and a closed-loop client's start and
/// think times.
struct Arrivals: ~Copyable {
    /// Population 0's arrivals (the whole fleet's without populations). An arrival event's slot
    /// is its population.
    var workload: Workload
    /// Populations 1, 2, …'s (none without populations).
    var others: [Workload]
    let random: RandomStream

    /// - Parameter workloads: each population's, in order (at least one).
    init(_ workloads: [Workload], random: consuming RandomStream) {
        workload = workloads[0]
        others = Array(workloads.dropFirst())
        self.random = random
    }

    /// How population `k`'s clients arrive.
    /// The same workloads as `other`, at the same point, drawing from the copy of its stream.
    init(copying other: borrowing Arrivals, _ streams: inout StreamCopies) {
        workload = other.workload
        others = other.others
        random = streams.copy(other.random)
    }

    @inline(__always) func arrival(_ k: UInt8) -> Scenario.Arrival {
        k == 0 ? workload.arrival : others[Int(k) &- 1].arrival
    }
}
