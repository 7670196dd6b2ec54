import RetryPolicy

/// One operation's slot: the header, the body and its link in a slot queue in 128 bytes, aligned
/// to 128. An event touches a slot at random (a million of them do not fit in cache), and x86
/// cores fetch the 128-byte-aligned pair of a missed line together, so a slot costs one miss —
/// the header and body in separate arrays cost two or three.
///
/// The policy library's ``OperationRecord`` takes 88 of the 128 bytes at most: a larger record
/// makes the slot 256 bytes apart, and `bench-fleet` slower. The engine's tests check the layout
/// (`OperationSlotLayoutTests`); the policy library's own tests pin no sizes.
package struct OperationSlot {
    var header: OperationHeader
    var body: OperationBody
    /// The next slot in the same concurrency queue (`UInt32.max`: none).
    var nextWaiting: UInt32

    static let alignment = 128
}

/// What every event checks first about an operation (8 bytes): is the event still current.
struct OperationHeader {
    /// Bumped when an attempt starts, when a pending attempt is superseded (a nudge, a restart)
    /// and when the slot is freed; events carry the value they saw.
    var generation: UInt32
    /// The owning client in the low 31 bits; the top bit is set while an attempt (or status
    /// query) is in flight and its client still waits for the answer.
    var clientAndAwaiting: UInt32

    @inline(__always) var client: UInt32 { clientAndAwaiting & 0x7FFF_FFFF }
    @inline(__always) var awaiting: Bool {
        get { clientAndAwaiting & 0x8000_0000 != 0 }
        set { clientAndAwaiting = newValue ? clientAndAwaiting | 0x8000_0000 : clientAndAwaiting & 0x7FFF_FFFF }
    }
}

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
        /// Its next send may come at or after its deadline (`clients.deadline`): the send checks
        /// the deadline first (``AttemptHost/sendOther(_:_:_:_:)``).
        static let checkDeadline = Flags(rawValue: 64)
        /// A hedged operation: its attempts are copies, kept in ``Simulation/hedges``.
        static let hedged = Flags(rawValue: 128)
        /// The sends that take the out-of-line path: a status query, or one that checks the deadline.
        /// Computed from raw bits, not a stored `static let` of an array literal: that one is a lazy
        /// global, behind an initialisation check on every send.
        @inline(__always) static var unusualSend: Flags { Flags(rawValue: reconciling.rawValue | checkDeadline.rawValue) }
    }
}
