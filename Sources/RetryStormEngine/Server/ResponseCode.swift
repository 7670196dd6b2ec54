/// What a server answers. Each code knows whether the request was processed at all.
package enum ResponseCode: UInt8 {
    /// 200: done (a write is applied).
    case ok = 0
    /// 503 from a full queue: refused without processing.
    case shed = 1
    /// 429 from the rate limiter: refused without processing.
    case rateLimited = 2
    /// 401: the client's credentials expired; refused without processing.
    case unauthorized = 3
    /// 400: processed, and wrong.
    case badRequest = 4
    /// 500: processed, failed.
    case serverError = 5
    /// 409: the optimistic write lost a race (contention).
    case conflict = 6
    /// 503 after processing (UNAVAILABLE, `server.errors.status: 503`): the work was done and the
    /// answer is 503 all the same, unlike ``shed``'s refusal. The last value that fits the
    /// contention model's three bits of the aux byte.
    case unavailable = 7

    var status: Int {
        switch self {
        case .ok: 200
        case .shed: 503
        case .rateLimited: 429
        case .unauthorized: 401
        case .badRequest: 400
        case .serverError: 500
        case .conflict: 409
        case .unavailable: 503
        }
    }

    /// Refused without any work done for it.
    var unprocessed: Bool { self == .shed || self == .rateLimited || self == .unauthorized }

    /// Decodes a code this module packed into an event's aux byte. Every packer stores a
    /// `rawValue`, so another value means a corrupted event: a bug, stopped here rather than
    /// answered with a guessed code.
    @inline(__always) package init(packed raw: UInt8) {
        guard let code = ResponseCode(rawValue: raw) else { preconditionFailure("corrupt packed response code \(raw)") }
        self = code
    }
}
