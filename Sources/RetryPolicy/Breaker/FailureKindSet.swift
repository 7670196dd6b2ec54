/// A set of ``FailureKind``s as bits: which failures a circuit breaker counts against its host.
public struct FailureKindSet: OptionSet, Sendable, Hashable, Codable {
    /// One bit per kind: bit `k` is the ``FailureKind`` whose raw value is `k`.
    public var rawValue: UInt16
    /// The set whose bits are `rawValue` (bits above the last ``FailureKind`` mean nothing).
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The set holding only `kind`.
    public init(_ kind: FailureKind) { rawValue = 1 << UInt16(kind.rawValue) }

    /// Whether `kind` is in the set: a shift and a mask, for the breaker's check of every outcome.
    @inlinable public func contains(_ kind: FailureKind) -> Bool { rawValue & (1 << UInt16(kind.rawValue)) != 0 }

    /// Failures that say the host is unwell: transport errors, timeouts, 5xx, throttling, overload.
    public static let hostFailures: FailureKindSet = [
        .init(.transientNetwork), .init(.timeout), .init(.serverError), .init(.throttled), .init(.overloaded)
    ]
    /// Every failure that reached (or tried to reach) the host, 4xx included: resilience4j's and
    /// Polly's defaults, which record every exception.
    public static let allFailures: FailureKindSet = hostFailures.union([
        .init(.authExpired), .init(.permanent), .init(.conflict), .init(.otherStatus)
    ])
}
