/// What a client does with its persisted retry state when the app restarts.
public enum RestartSchedule: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Keep the persisted records (attempt counts, `nextAttemptAt`) and host state: the chapter's
    /// advice ("on app resume … do not reset nextAttemptAt").
    case keep
    /// Forget them: every operation starts over at attempt 1, immediately — the pitfall that
    /// turns force-quits into retry storms.
    case reset
}
