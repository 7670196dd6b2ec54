/// What a workload event (``EventKind/workload``) stands for, in its aux byte.
enum WorkloadEvent: UInt8 {
    /// A closed-loop client starts its next operation (slot: the client; generation: its population).
    case next = 1
    /// The offline window ends and its clients are nudged to try at once.
    case reconnect = 2
    /// The restart wave.
    case restart = 3
}
