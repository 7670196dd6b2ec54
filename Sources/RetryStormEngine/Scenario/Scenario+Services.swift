import RetryPolicy

extension Scenario {
    /// One service of a call graph (`services:`): its own server, and what each of its requests
    /// calls downstream once the request's own work is done.
    ///
    /// The clients call the first service. A scenario with services runs ``Scenario/server`` as the
    /// first service's server (the loader sets it so), so every output that describes "the server"
    /// describes the service the clients call; the others are in the services' own outputs.
    public struct Service: Sendable {
        /// Letters, digits, `-` and `_` (at most 64): it appears in CSV files and in
        /// `services.NAME.KEY` paths.
        public var name: String
        /// The service's server: every `server.*` key, per service. A service of a call graph runs
        /// the `queue` model; a leaf behind the first (a service that makes no calls) may run `flaky`.
        public var server: Server
        /// Whether a request frees its worker when its own work is done, before its calls end
        /// (`server.release_while_calling`: an event-loop server). false: it holds the worker until
        /// its calls end (thread-per-request, the default).
        public var releaseWhileCalling: Bool
        /// What one request does downstream, in order (empty: a leaf).
        public var calls: [Call]

        /// A service named `name` with `server`; by default a leaf holding its workers.
        public init(name: String, server: Server, releaseWhileCalling: Bool = false, calls: [Call] = []) {
            self.name = name
            self.server = server
            self.releaseWhileCalling = releaseWhileCalling
            self.calls = calls
        }
    }

    /// One `calls[]` entry of a service: `count` calls to the service at index `to` (always a
    /// later service: the graph is a DAG in the order the services are listed), each an operation
    /// of `policy` run by the calling service.
    public struct Call: Sendable {
        /// The index of the called service in ``Scenario/services`` (greater than the caller's).
        public var to: Int
        /// Calls per request, at least 1.
        public var count: Int
        /// true: the `count` calls go out at once and the request waits for all of them (fan-out);
        /// false: one after another, the next when the one before succeeded.
        public var parallel: Bool
        /// The call's stage (`calls[].stage`): the entries of one service with the same stage go
        /// out together, stages in increasing order, and the request waits for every call of a
        /// stage. nil: a stage of its own, in the list's order. A service's ``Service/calls`` are
        /// in the order they run: where one entry has a stage, every entry has one, not
        /// decreasing (the loader resolves and orders them).
        public var stage: Int?
        /// Each attempt's timeout, nanoseconds (nil: none).
        public var timeout: Nanoseconds?
        /// The calling service's retry policy on this edge. Its budget, breaker and concurrency
        /// limit are the calling service's: one per edge, shared by all its requests.
        public var policy: RetryPolicy
        /// The status a request answers its caller with when one of these calls failed after its
        /// retries (`calls[].failure_status`: 429, 500, 502, 503 or 504; default 503). The caller's
        /// classifier reads it like any status: 429 says "overloaded, don't retry" one layer up.
        public var failureStatus: Int
        /// Whether each call carries the time left of its request's deadline
        /// (`calls[].deadline: propagate`): an attempt's timeout is the smaller of its own and the
        /// time left, and no attempt starts at or after the deadline (gRPC's deadline propagation).
        public var propagateDeadline: Bool
        /// Whether an attempt of this call that the calling service abandons is cancelled at the
        /// called service (`calls[].cancellation: propagate`): a queued one leaves the queue, one
        /// in service makes no calls, one making calls abandons them. false: it runs on unwatched.
        public var propagateCancellation: Bool

        /// The statuses a failed call may answer its caller with.
        public static let failureStatuses = [429, 500, 502, 503, 504]

        /// A call to service `to`; by default one call, sequential, answered 503 when it fails,
        /// without deadline propagation.
        public init(
            to: Int, count: Int = 1, parallel: Bool = false, stage: Int? = nil, timeout: Nanoseconds?, policy: RetryPolicy,
            failureStatus: Int = 503, propagateDeadline: Bool = false, propagateCancellation: Bool = false
        ) {
            self.propagateCancellation = propagateCancellation
            self.to = to
            self.count = count
            self.parallel = parallel
            self.stage = stage
            self.timeout = timeout
            self.policy = policy
            self.failureStatus = failureStatus
            self.propagateDeadline = propagateDeadline
        }
    }

    /// Whether the run needs the call-graph engine: more than one service, or one with calls. A
    /// scenario without `services:`, or with one service and no calls, runs the one-hop engine.
    package var isCallGraph: Bool { services.count > 1 || services.first.map { !$0.calls.isEmpty } ?? false }
}
