/// The error ``retrying(_:clock:isolation:operation:)`` throws when the policy stops: why, the last error
/// the operation threw (nil if it never ran, e.g. rejected by the throttle), and the record.
public struct RetryStopped: Error, Sendable {
    public let reason: StopReason
    public let lastError: (any Error)?
    public let record: OperationRecord

    public init(reason: StopReason, lastError: (any Error)?, record: OperationRecord) {
        self.reason = reason
        self.lastError = lastError
        self.record = record
    }
}
