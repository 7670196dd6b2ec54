/// Local failures that happen before anything is sent.
public enum LocalResourceFailure: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Lock contention: retrying soon usually helps.
    case databaseLocked
    /// Needs the user or the system to free space.
    case diskFull
    /// The encryption key is unavailable (device locked): wait for the system.
    case keyUnavailable
}
