/// A request as the server sees it.
struct Request {
    var slot: UInt32
    var generation: UInt32
    /// When its client will stop waiting (`Int64.max`: never). Servers that honour deadlines read it.
    var deadline: Int64
    /// A status query (reconciliation), not a write: it is served but applies nothing.
    var query: Bool
    /// The client that sent it, whose credentials the front door checks. A model that rebuilds a
    /// request from its own compact records, only to answer it, leaves it 0: nothing after the
    /// front door reads it.
    var client: UInt32 = 0
}
