/// What an event does when its time comes.
package enum EventKind: UInt8 {
    /// The workload's next operation starts.
    case arrival = 0
    /// An operation's next attempt is due (backoff elapsed, breaker wait over).
    case send = 1
    /// An attempt's client-side timeout expires.
    case timeout = 2
    /// A server model's own event (a worker finishes a request, a write reaches the row).
    case serviceDone = 3
    /// A request reaches the server after its network hop.
    case deliverRequest = 4
    /// A response reaches its client after its network hop (the code in `aux`).
    case deliverResponse = 5
    /// An offline client's connect attempt times out.
    case connectTimeout = 6
    /// A workload happening: a closed-loop client's next operation (slot = client), the end of an
    /// offline window, a restart wave.
    case workload = 7
}
