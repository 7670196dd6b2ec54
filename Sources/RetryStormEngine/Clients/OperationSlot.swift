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
