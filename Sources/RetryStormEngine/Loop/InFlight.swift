/// Attempts and status queries whose client is waiting for an answer: sent, not yet answered,
/// timed out or abandoned. The conservation laws count them as still open
/// (``Simulation/checkEvent()``); neither ever goes below zero.
struct InFlight {
    var attempts: Int64 = 0
    var queries: Int64 = 0
}
