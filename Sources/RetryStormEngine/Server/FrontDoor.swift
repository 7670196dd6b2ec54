import GSLSupport

/// What stands between the clients and every server model: the credential check (401), the rate
/// limiter (429) and the error mix, a decorator that is itself a ``ServerModel``. The door answers
/// a refused request at once, without the model seeing it, and passes the rest on; the error mix
/// rewrites the model's answers as it reports them. Each part is off when the scenario does not
/// declare it, at the cost of one branch.
///
/// One decorator of three parts rather than one decorator per part: the engine is specialised for
/// each server type, and a stack of optional decorators would multiply those specialisations.
struct FrontDoor<Model: ServerModel & ~Copyable>: ServerModel, ~Copyable {
    var model: Model
    var credentials: CredentialCheck
    var rateLimiter: RateLimiter
    let errorMix: ErrorInjector
    /// The Retry-After a full queue sends with its 503, nanoseconds (`server.shed_retry_after`).
    let shedRetryAfter: Int64?

    /// The door of `scenario.server`. In a call graph (``Scenario/isCallGraph``) the clients' door
    /// keeps the credentials and the first service's rate limiter, and the error mix is the first
    /// service's own, applied inside the graph when its own work is done (``GraphServer``), as
    /// every service's is.
    /// - Parameter errorStream: the error mix's random stream (each service of a graph has its own).
    init(_ model: consuming Model, scenario: Scenario, replication: Int, errorStream: UInt64 = StreamID.errors.rawValue) {
        self.model = model
        credentials = CredentialCheck(lifetime: scenario.clients.credentialLifetime, clients: scenario.clients.count, seed: scenario.seed)
        rateLimiter = RateLimiter(scenario.server.rateLimit)
        errorMix = ErrorInjector(
            scenario.isCallGraph ? .none : scenario.server.errors,
            random: RandomStream(seed: SeedDerivation.seed(scenario: scenario.seed, replication: replication, stream: errorStream)))
        if case .queue(let q) = scenario.server.model { shedRetryAfter = q.shedRetryAfter } else { shedRetryAfter = nil }
    }

    /// The Retry-After the server sends with `code`, nanoseconds, if any.
    @inline(__always) func retryAfter(_ code: ResponseCode) -> Int64? {
        code == .shed ? shedRetryAfter : code == .rateLimited ? rateLimiter.limit?.retryAfter : nil
    }

    @inline(__always) mutating func receive(
        _ r: Request, now: Int64, agenda: inout Agenda, recorder: inout Recorder,
        sink: inout ServerSink
    ) -> Int64 {
        if credentials.refuses(client: r.client, now: now) {
            recorder.offered()
            sink.respond(r, .unauthorized)
            return .max
        }
        if !rateLimiter.admits(now: now) {
            recorder.offered()
            sink.respond(r, .rateLimited)
            model.rejected(now: now, agenda: &agenda)
            return .max
        }
        let first = errorMix.start(at: now, count: sink.notes.count)
        let answerAt = model.receive(r, now: now, agenda: &agenda, recorder: &recorder, sink: &sink)
        errorMix.apply(to: &sink.notes, from: first)
        return answerAt
    }

    @inline(__always) func peekEvent() -> Event? { model.peekEvent() }

    @inline(__always) mutating func handleNext(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        let first = errorMix.start(at: now, count: sink.notes.count)
        model.handleNext(now: now, agenda: &agenda, recorder: &recorder, sink: &sink)
        errorMix.apply(to: &sink.notes, from: first)
    }

    var inService: Int { model.inService }
    var admitted: Int64 { model.admitted }
    var settleAhead: Bool { model.settleAhead }
    @inline(__always) func upcomingSlot() -> UInt32? { model.upcomingSlot() }
    @inline(__always) mutating func queueLength(before t: Int64) -> Int { model.queueLength(before: t) }
    var busyUntil: Int64 { model.busyUntil }
    func waitingArea(until now: Int64) -> Double { model.waitingArea(until: now) }
    @inline(__always) mutating func rejected(now: Int64, agenda: inout Agenda) { model.rejected(now: now, agenda: &agenda) }
    @inline(__always) var exhausted: Bool { model.exhausted }
    mutating func serviceResults(_ scenario: Scenario, first: borrowing Recorder) -> [ServiceResult] {
        model.serviceResults(scenario, first: first)
    }
    func edgeResults(_ scenario: Scenario) -> [EdgeResult] { model.edgeResults(scenario) }
}

extension FrontDoor where Model == QueueServer {
    /// The same door and server as `other` (see ``QueueServer/init(copying:_:)``).
    init(copying other: borrowing FrontDoor<QueueServer>, _ streams: inout StreamCopies) {
        model = QueueServer(copying: other.model, &streams)
        credentials = CredentialCheck(copying: other.credentials)
        rateLimiter = other.rateLimiter
        errorMix = ErrorInjector(copying: other.errorMix, &streams)
        shedRetryAfter = other.shedRetryAfter
    }

    /// The request that held a worker of this service while it called others is done (see
    /// ``QueueServer/holdsWorkers``).
    @inline(__always) mutating func release(now: Int64, agenda: inout Agenda, recorder: inout Recorder, sink: inout ServerSink) {
        // What it reports is the next request's drop (an expired one), never an answer to rewrite.
        model.release(now: now, agenda: &agenda, recorder: &recorder, sink: &sink)
    }

    /// Requests waiting in the queue (not in service), whenever asked: this model's count does
    /// not depend on `before`.
    var waiting: Int { model.queueLength(before: 0) }

}

extension FrontDoor where Model: ~Copyable {
    /// Cancels request `r` and its slot's earlier ones if still waiting (see ``ServerModel/cancel(_:)``).
    @inline(__always) mutating func cancel(_ r: Request) { model.cancel(r) }

    /// See ``ServerModel/expectCancellations()``.
    mutating func expectCancellations() { model.expectCancellations() }

    /// See ``ServerModel/invariantViolation(atEnd:)``.
    mutating func invariantViolation(atEnd: Bool) -> String? { model.invariantViolation(atEnd: atEnd) }
}
