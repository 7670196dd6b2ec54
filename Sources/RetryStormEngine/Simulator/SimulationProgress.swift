import Synchronization

/// Where running replications post how far they got, for a progress display on another thread.
///
/// The engine posts its simulated time every 65,536 events; a display reads the sum over
/// replications. Posting is a relaxed atomic store: it orders nothing and costs next to nothing.
package final class SimulationProgress: Sendable {
    private let simulated = Atomic<Int64>(0)

    package init() {}

    /// The latest simulated time posted, nanoseconds.
    package var simulatedNanoseconds: Int64 { simulated.load(ordering: .relaxed) }

    func post(_ now: Int64) { simulated.store(now, ordering: .relaxed) }
}
