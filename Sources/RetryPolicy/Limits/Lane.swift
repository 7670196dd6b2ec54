/// Which lane an operation runs in: user-initiated work goes before background work (the
/// offline-first chapter's priority lanes; Envoy's per-priority thresholds; the SRE book's
/// criticality classes).
public enum Lane: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// The user is waiting ("Send message").
    case userInitiated
    /// Maintenance, prefetch, background sync.
    case background
}
