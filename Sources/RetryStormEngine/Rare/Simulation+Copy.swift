import GSLSupport
import RetryPolicy

extension Simulation where Server == QueueServer {
    /// A replication in `other`'s state between two events: every table, count and pending event
    /// copied, its random streams as `streams` gives them (the same states for a snapshot, fresh
    /// ones for a branch). Only the times to success are left behind (``Recorder/init(copying:)``).
    ///
    /// The one-hop queue server only: the splitting runs of `rare` need nothing else, and a model
    /// added here must copy every stream it holds, or its branches would all draw the same future.
    init(copying other: borrowing Simulation<QueueServer, Policy>, _ streams: inout StreamCopies) {
        precondition(other.sink.notes.count == 0, "a simulation is copied between events, its sink drained")
        horizon = other.horizon
        features = other.features
        policies = PopulationPolicies(copying: other.policies, &streams)
        arrivals = Arrivals(copying: other.arrivals, &streams)
        network = NetworkHop(copying: other.network, &streams)
        agenda = Agenda(copying: other.agenda)
        ops = OperationTable(copying: other.ops)
        fleet = ClientFleet(copying: other.fleet)
        server = FrontDoor(copying: other.server, &streams)
        recorder = Recorder(copying: other.recorder)
        populationRecorder = PopulationRecorder(copying: other.populationRecorder)
        inFlight = other.inFlight
        progress = other.progress
        checks = other.checks
        hedges = RawBuffer(copying: other.hedges)
        windows = other.windows
    }
}
