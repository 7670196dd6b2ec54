/// What a server call produced, for the engine to act on after it returns.
struct ServerNote {
    enum Kind: UInt8 {
        /// An answer for the request's client (it may arrive after the client gave up).
        case response
        /// The request was applied but its answer is lost: the client will time out not knowing.
        case lost
        /// The request was dropped unserved (its deadline had passed).
        case dropped
    }

    var slot: UInt32
    var generation: UInt32
    var kind: Kind
    var code: ResponseCode
    var query: Bool
}
