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
    /// A service of a call graph answers its caller with its failed call's `failure_status`
    /// (``Scenario/Call/failureStatus``): the request's own work was done, a call it made failed
    /// after its retries. Only the call graph makes these (never the contention model's 3 bits).
    case dependencyRateLimited = 8
    /// 500 for a failed call.
    case dependencyError = 9
    /// 502 for a failed call.
    case badGateway = 10
    /// 503 for a failed call (the default `failure_status`).
    case dependencyUnavailable = 11
    /// 504 for a failed call.
    case gatewayTimeout = 12

    /// The code a request answers with when a call failed and its edge says `failure_status`
    /// (one of ``Scenario/Call/failureStatuses``).
    package init(failureStatus status: Int) {
        switch status {
        case 429: self = .dependencyRateLimited
        case 500: self = .dependencyError
        case 502: self = .badGateway
        case 504: self = .gatewayTimeout
        default: self = .dependencyUnavailable
        }
    }

    package var status: Int {
        switch self {
        case .ok: 200
        case .shed: 503
        case .rateLimited: 429
        case .unauthorized: 401
        case .badRequest: 400
        case .serverError: 500
        case .conflict: 409
        case .unavailable: 503
        case .dependencyRateLimited: 429
        case .dependencyError: 500
        case .badGateway: 502
        case .dependencyUnavailable: 503
        case .gatewayTimeout: 504
        }
    }

    /// Refused without any work done for it.
    /// A call graph's answer for a failed call (``init(failureStatus:)``).
    var dependencyFailure: Bool { rawValue >= ResponseCode.dependencyRateLimited.rawValue }

    var unprocessed: Bool { self == .shed || self == .rateLimited || self == .unauthorized }

    /// Decodes a code this module packed into an event's aux byte. Every packer stores a
    /// `rawValue`, so another value means a corrupted event: a bug, stopped here rather than
    /// answered with a guessed code.
    @inline(__always) package init(packed raw: UInt8) {
        guard let code = ResponseCode(rawValue: raw) else { preconditionFailure("corrupt packed response code \(raw)") }
        self = code
    }
}
