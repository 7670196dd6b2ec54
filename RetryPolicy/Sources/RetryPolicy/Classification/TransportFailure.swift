/// Failures below HTTP.
public enum TransportFailure: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case dnsFailure, connectionRefused, connectionReset, tlsFailure
    /// No network at all (airplane mode, no route): fails fast, nothing sent.
    case offline
    case other
}
