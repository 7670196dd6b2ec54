import RetryPolicy

/// What every event checks first about an operation (8 bytes): is the event still current.
struct OperationHeader {
    /// Bumped when an attempt starts, when a pending attempt is superseded (a nudge, a restart)
    /// and when the slot is freed; events carry the value they saw.
    var generation: UInt32
    /// The owning client in the low 31 bits; the top bit is set while an attempt (or status
    /// query) is in flight and its client still waits for the answer.
    var clientAndAwaiting: UInt32

    @inline(__always) var client: UInt32 { clientAndAwaiting & 0x7FFF_FFFF }
    @inline(__always) var awaiting: Bool {
        get { clientAndAwaiting & 0x8000_0000 != 0 }
        set { clientAndAwaiting = newValue ? clientAndAwaiting | 0x8000_0000 : clientAndAwaiting & 0x7FFF_FFFF }
    }
}
