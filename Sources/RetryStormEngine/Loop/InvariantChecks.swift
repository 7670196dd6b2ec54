/// Whether a run checks its conservation laws and time order after every event
/// (``EngineOptions/checkInvariants``), and the first violation it found, which stops the run and
/// goes into ``ReplicationResult/invariantViolation``.
struct InvariantChecks {
    let enabled: Bool
    private(set) var violation: String?

    init(enabled: Bool) { self.enabled = enabled }

    /// Records `message` as found at `clock` (nanoseconds), unless an earlier violation was.
    mutating func fail(_ message: String, at clock: Int64) {
        if violation == nil { violation = "at t=\(Double(clock) / 1e9) s: \(message)" }
    }
}
