import RetryPolicy

/// The rest of an operation: the policy's record and what the engine keeps around it.
struct OperationBody {
    /// The policy library's state for this operation: the same type an app persists.
    var record: OperationRecord
    /// When the operation started.
    var createdAt: Int64
    /// When the client stops waiting for the attempt in flight.
    var deadline: Int64
    /// The generation of the operation's first attempt: requests with an older one belong to an
    /// earlier operation of the slot.
    var firstGeneration: UInt32
    /// Writes of this operation the server applied (saturating).
    var applied: UInt16
    /// Requests of this operation the server has not finished with (on the wire, queued, in
    /// service), counted only when applied writes are tracked.
    var outstanding: UInt16
    /// The host (endpoint) it targets.
    var host: UInt16
    var flags: Flags
    /// The population of its client (an index into the scenario's populations; 0 without them).
    var population: UInt8

    struct Flags: OptionSet {
        let rawValue: UInt8
        /// Allocated to an operation that has not ended.
        static let live = Flags(rawValue: 1)
        /// Ended, but requests of it are still at the server: the slot waits for them before reuse.
        static let zombie = Flags(rawValue: 2)
        /// The next send is a status query (reconciliation), not an attempt.
        static let reconciling = Flags(rawValue: 4)
        /// Waiting for a concurrency slot of its host.
        static let waitingForSlot = Flags(rawValue: 8)
        /// Linked into its host's slot queue. A slot stays linked until popped, even if its
        /// operation stopped waiting or ended (it is then skipped), so it is never linked twice.
        static let inSlotQueue = Flags(rawValue: 32)
        /// Woken from that queue; its send event is on the agenda.
        static let woken = Flags(rawValue: 16)
    }
}
