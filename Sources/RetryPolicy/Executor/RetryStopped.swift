/// The error ``retrying(_:clock:isolation:operation:)`` throws when the policy stops: why, the last error
/// the operation threw (nil if it never ran, e.g. rejected by the throttle), and the record.
///
/// ```swift
/// do {
///     try await retrying(.offlineFirst) { _ in try await api.send(message) }
/// } catch let stopped as RetryStopped where !stopped.reason.isGiveUp {
///     showNeedsAttention(stopped.reason)  // sign in again, fix the data, free space, check the write
/// }
/// ```
public struct RetryStopped: Error, Sendable {
    /// Why the policy stopped: gave up (``StopReason/isGiveUp``) or needs attention.
    public let reason: StopReason
    /// What the operation threw last, as thrown (not normalised); nil if no attempt ran.
    public let lastError: (any Error)?
    /// The operation's record as the policy left it (phase ``OperationRecord/Phase/stopped(_:)``);
    /// persist it to show the operation as blocked or failed.
    public let record: OperationRecord

    /// The error the executor throws; public so that tests and wrappers can build one.
    public init(reason: StopReason, lastError: (any Error)?, record: OperationRecord) {
        self.reason = reason
        self.lastError = lastError
        self.record = record
    }
}
