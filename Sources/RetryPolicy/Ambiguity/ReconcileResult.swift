/// The server's answer to a reconciliation query.
public enum ReconcileResult: UInt8, Sendable, Hashable, Codable {
    /// The operation took effect: it succeeded.
    case applied
    /// It did not: retry it.
    case notApplied
    /// The query failed too: ask again later.
    case unknown
}
