/// Which part of an attempt timed out.
public enum TimeoutPhase: UInt8, Sendable, Hashable, Codable {
    /// Establishing the connection (TCP/TLS): nothing was sent, always safe to retry.
    case connect
    /// Waiting for the response after the request was sent: the server may have applied it.
    case response
}
