import RetryPolicy

/// Everything one simulation needs, as plain values: what the scenario file and `--set` resolve to.
///
/// All times are ``Nanoseconds`` of virtual time from t = 0; rates are per second.
public struct Scenario: Sendable {
    /// A label for outputs (the scenario file's name without extension, unless it names itself).
    public var name: String
    /// The scenario seed: with the replication index it seeds every random stream.
    public var seed: UInt64
    /// The hard stop of simulated time: nothing happens after it, whatever is still pending.
    public var horizon: Nanoseconds
    /// The width of one time-series bucket.
    public var bucket: Nanoseconds
    /// Time at the start left out of every summary metric (what happened in it, and the
    /// operations that started in it); the time series keep it. 0: nothing left out. The
    /// engine uses whole buckets: the buckets that start before it are left out.
    public var warmup: Nanoseconds = 0
    /// How long failures must last to hold the recovery back, and how much of the run's end is
    /// read for saturation (`recovery_window`; ``Recovery``). Rounded up to whole buckets.
    public var recoveryWindow: Nanoseconds = 10_000_000_000
    /// How much of the run's end, wholly after the trigger, is read to judge whether the run is
    /// stuck (`stuck_window`; ``Stuck``). Rounded up to whole buckets.
    public var stuckWindow: Nanoseconds = 20_000_000_000

    /// The buckets over which a run of `buckets` buckets is judged stuck (``Stuck/tail(buckets:bucket:trigger:warm:window:)``).
    package func stuckTail(of buckets: Int) -> Range<Int>? {
        Stuck.tail(buckets: buckets, bucket: bucket, trigger: trigger, warm: firstBucketAfterWarmup(of: buckets), window: stuckWindow)
    }

    /// The first of `buckets` buckets after the warmup: a warmup is rounded up to whole buckets,
    /// and the buckets that start before it are left out of every summary metric.
    package func firstBucketAfterWarmup(of buckets: Int) -> Int {
        min(buckets, Int((warmup + bucket - 1) / bucket))
    }
    /// The fleet (`clients.*`): how many clients, when they start operations, timeouts, offline windows.
    public var clients: Clients
    /// The modelled server (`server.*`): capacity and its profile, the model, errors, rate limit.
    public var server: Server
    /// The retry policy of every client (`policy.*`); with populations, each runs its own, based on this one.
    public var policy: RetryPolicy
    /// One-way latency of every hop between a client and the server (nil: none).
    public var network: Delay?
    /// The arrival rate of `poisson` and `constant` clients over time, as a multiplier.
    public var load: LoadProfile
    /// Groups of clients with their own arrivals, timeouts and policy, in contiguous client index
    /// ranges in this order; their counts add up to `clients.count`. Empty: one population, the
    /// whole fleet, running `clients` and `policy`.
    public var populations: [Population] = []
    /// The call graph (`services:`), clients calling the first service, whose server is
    /// ``server``. Empty: one hop to ``server``, as without the key (see ``Service``).
    public var services: [Service] = []
    /// The service a call graph is judged at besides its users (`focus:`): one of ``services``'
    /// names. Nil: where the storm lands, found from the results. The engine never reads it.
    public var focus: String?
    /// Retry code of the caller's own that every client runs in place of `policy` and of every
    /// population's policy (nil: the library's ``RetryPolicy``). Set from Swift only — a scenario
    /// file cannot name code; `policy` then only sizes the run's resource estimate. The event loop
    /// is specialised for its type (see ``CustomPolicy``).
    package var customPolicy: CustomPolicy?

    /// A scenario with these values (`horizon` and `bucket` in nanoseconds), no warmup, no populations and
    /// no custom policy: set those afterwards. Nothing is checked here; the scenario loader checks a file's.
    public init(
        name: String, seed: UInt64, horizon: Nanoseconds, bucket: Nanoseconds,
        clients: Clients, server: Server, policy: RetryPolicy, network: Delay? = nil, load: LoadProfile = .flat
    ) {
        self.name = name
        self.seed = seed
        self.horizon = horizon
        self.bucket = bucket
        self.clients = clients
        self.server = server
        self.policy = policy
        self.network = network
        self.load = load
    }

    /// The trigger of the incident: from the first capacity disturbance, rise of the load above
    /// its base or start of an error window (``Server/errorWindow``), whichever comes first, to the
    /// last of capacity back at nominal for good, the load back at its base and the error window's
    /// end (nil when there is none of them). With a flat load and no error window it is the
    /// capacity profile's own window.
    /// In a call graph, every service's capacity and error window count: an outage of the
    /// database is the incident the clients see.
    public var trigger: (start: Nanoseconds, end: Nanoseconds)? {
        let servers = services.isEmpty ? [server] : services.map(\.server)
        var span: (start: Nanoseconds, end: Nanoseconds)?
        var windows = servers.map { s in s.profile.disturbedAt.map { (start: $0, end: s.profile.recoveredAt) } }
        windows.append(load.elevated)
        windows += servers.map { s in s.errorWindow.map { (start: $0.lowerBound, end: $0.upperBound) } }
        for other in windows {
            guard let other else { continue }
            span = span.map { (start: min($0.start, other.start), end: max($0.end, other.end)) } ?? other
        }
        return span
    }

    /// A group of clients with their own settings: a share of the fleet on one app or SDK version.
    public struct Population: Sendable {
        /// Letters, digits, `-` and `_`: it appears in CSV files and in `populations.NAME.KEY` paths.
        public var name: String
        /// The population's clients (`count` is its own) and how they behave. Only the arrival,
        /// the timeouts and the background share are per population; hosts, offline windows,
        /// restarts and credentials are the fleet's (``Scenario/clients``).
        public var clients: Clients
        /// The population's retry policy: the scenario's `policy.*` with its own `populations.NAME.policy.*` on
        /// top (from the preset alone when it sets its own `policy.preset`).
        public var policy: RetryPolicy

        /// A population named `name` (letters, digits, `-`, `_`; not checked here) with its clients and policy.
        public init(name: String, clients: Clients, policy: RetryPolicy) {
            self.name = name
            self.clients = clients
            self.policy = policy
        }
    }

    /// The populations the engine runs: the declared ones, or the whole fleet as one.
    package var effectivePopulations: [Population] {
        populations.isEmpty ? [Population(name: "", clients: clients, policy: policy)] : populations
    }

    /// The simulated clients and the operations they start.
    public struct Clients: Sendable {
        /// How many clients there are.
        public var count: Int
        /// When their operations start.
        public var arrival: Arrival
        /// The per-attempt (request) timeout after which a client abandons an attempt (nil: wait forever).
        public var timeout: Nanoseconds?
        /// How long an attempt waits for a connection when the client is offline before failing
        /// with a connect timeout; 0 fails at once with an "offline" transport error.
        public var connectTimeout: Nanoseconds
        /// The share of operations that are background work (the low-priority lane).
        public var backgroundFraction: Double
        /// Hosts (endpoints) the operations spread over, uniformly; clients keep policy state
        /// (budget, breaker, concurrency) per host.
        public var hosts: Int
        /// A window in which a share of the fleet has no network.
        public var offline: Offline?
        /// An instant at which a share of the fleet restarts the app.
        public var restart: Restart?
        /// Credentials expire this long after they were issued; an expired one gets 401 until refreshed.
        public var credentialLifetime: Nanoseconds?
        /// An operation's end-to-end deadline from its start (`clients.deadline`; nil: none), as a
        /// gRPC call deadline: each attempt's timeout is the smaller of ``timeout`` and the time
        /// left, the server sees that deadline (`drop_expired` drops by it), and no attempt starts
        /// at or after it: the operation gives up there (`elapsedExceeded`).
        public var deadline: Nanoseconds?

        /// The `clients.*` settings; the rest default as the keys do: a connect timeout of 0, no background work,
        /// one host, no offline window, no restart, credentials that never expire.
        public init(
            count: Int, arrival: Arrival, timeout: Nanoseconds?, connectTimeout: Nanoseconds = 0,
            backgroundFraction: Double = 0, hosts: Int = 1, offline: Offline? = nil, restart: Restart? = nil,
            credentialLifetime: Nanoseconds? = nil, deadline: Nanoseconds? = nil
        ) {
            self.count = count
            self.arrival = arrival
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.backgroundFraction = backgroundFraction
            self.hosts = hosts
            self.offline = offline
            self.restart = restart
            self.credentialLifetime = credentialLifetime
            self.deadline = deadline
        }
    }

    /// When operations start.
    public enum Arrival: Sendable, Hashable {
        /// Every client starts one operation at the same instant: the synchronised herd.
        case burst(at: Nanoseconds)
        /// Every client starts one operation at an independent uniform time in [start, start + spread).
        case uniform(start: Nanoseconds, spread: Nanoseconds)
        /// Each client starts operations as a Poisson process of `ratePerClient` per second,
        /// independently of how earlier ones fare (open loop), from `start` until `until`.
        case poisson(ratePerClient: Double, start: Nanoseconds, until: Nanoseconds)
        /// Each client starts operations every 1 / `ratePerClient` seconds from its own uniformly
        /// random phase in the first period (the "constant arrival rate" of load-testing tools),
        /// open loop, from `start` until `until`. Under a load profile the period is kept in
        /// operational time.
        case constant(ratePerClient: Double, start: Nanoseconds, until: Nanoseconds)
        /// Each client runs one operation at a time (closed loop): its first starts at a uniform
        /// time in [start, start + spread), each next one an exponential think time (mean `think`)
        /// after the previous one ended, until `until`.
        case closed(think: Nanoseconds, start: Nanoseconds, spread: Nanoseconds, until: Nanoseconds)
    }

    /// A share of the fleet loses the network from `at` for `duration`: their attempts fail fast
    /// (or after the connect timeout) without reaching the server. At the end they all come back
    /// at once — a reconnect wave — and, with `nudge`, retry every operation already due.
    public struct Offline: Sendable, Hashable {
        /// When the clients go offline (`clients.offline.at`), nanoseconds from t = 0.
        public var at: Nanoseconds
        /// How long they stay offline (`clients.offline.duration`), nanoseconds; a file's 0s gives no window (nil).
        public var duration: Nanoseconds
        /// The share of the fleet's clients that go offline (`clients.offline.fraction`), 0…1.
        public var fraction: Double
        /// Whether, when the network returns, every waiting operation of those clients tries at once
        /// (`clients.offline.nudge`): the reconnect wave.
        public var nudge: Bool

        /// `fraction` of the clients offline from `at` for `duration`, with or without the nudge at the end.
        public init(at: Nanoseconds, duration: Nanoseconds, fraction: Double, nudge: Bool) {
            self.at = at
            self.duration = duration
            self.fraction = fraction
            self.nudge = nudge
        }
    }

    /// A share of the fleet restarts the app at `at`: attempts in flight are abandoned and the
    /// policy's `scheduleOnRestart` decides whether the persisted schedule is kept or reset.
    public struct Restart: Sendable, Hashable {
        /// When the clients restart (`clients.restart.at`), nanoseconds from t = 0, before the horizon.
        public var at: Nanoseconds
        /// The share of the fleet's clients that restart (`clients.restart.fraction`), 0…1.
        public var fraction: Double

        /// `fraction` of the clients restart the app at `at`.
        public init(at: Nanoseconds, fraction: Double) {
            self.at = at
            self.fraction = fraction
        }
    }

    /// A random delay: constant, exponential, lognormal or normal (folded at 0), from GSL.
    public struct Delay: Sendable, Hashable {
        /// The distribution a delay is drawn from (`network.latency.shape`, whose `none` means no ``Delay``).
        public enum Shape: String, Sendable, Hashable, CaseIterable {
            /// `constant`: the mean exactly; `exponential` of that mean; `lognormal` of that mean (σ of the log =
            /// ``Delay/spread``); `normal` about the mean (standard deviation ``Delay/spread``), folded at 0.
            case constant, exponential, lognormal, normal
        }

        /// The distribution (`network.latency.shape`; always `normal` for the contention model's hop).
        public var shape: Shape
        /// The mean, nanoseconds.
        public var mean: Nanoseconds
        /// Lognormal: the standard deviation of the log; normal: the standard deviation in nanoseconds.
        public var spread: Double

        /// A delay of `shape` with `mean` nanoseconds and `spread` (see ``spread`` for its unit); no spread by default.
        public init(shape: Shape, mean: Nanoseconds, spread: Double = 0) {
            self.shape = shape
            self.mean = mean
            self.spread = spread
        }
    }

    /// The modelled server.
    public struct Server: Sendable {
        /// Nominal capacity, requests per second.
        public var capacity: Double
        /// Capacity over time, as fractions of nominal.
        public var profile: CapacityProfile
        /// What serves the requests (`server.model`): a queue, optimistic writes to one row, or a flaky server.
        public var model: Model
        /// Errors the server answers besides overload.
        public var errors: ErrorMix
        /// A token bucket in front of the server that answers 429.
        public var rateLimit: RateLimit?

        /// The error mix's window when it is a trigger: declared (`server.errors.at`) and with a
        /// share above 0; nil otherwise (a mix over the whole run is the server's steady state).
        package var errorWindow: Range<Nanoseconds>? { errors.any ? errors.window : nil }

        /// The most requests that may wait in its queue (nil: unbounded, or a model without a queue).
        package var queueLimit: Int? {
            if case .queue(let q) = model { q.limit } else { nil }
        }

        /// A server of nominal `capacity` requests per second, shaped over time by `profile`; by default no errors
        /// besides overload and no rate limit.
        public init(
            capacity: Double, profile: CapacityProfile, model: Model, errors: ErrorMix = .none,
            rateLimit: RateLimit? = nil
        ) {
            self.capacity = capacity
            self.profile = profile
            self.model = model
            self.errors = errors
            self.rateLimit = rateLimit
        }
    }

    /// The server model, chosen by `server.model`; each case carries its own keys' values.
    public enum Model: Sendable {
        /// `queue`: a queue in front of workers (`server.workers`, `server.service`, `server.queue.*`).
        case queue(QueueModel)
        /// `contention`: optimistic writes to one shared row (`server.contention.*`).
        case contention(ContentionModel)
        /// `flaky`: each attempt fails independently, with no capacity limit (`server.flaky.*`).
        case flaky(FlakyModel)
    }

    /// A queue in front of `workers` identical workers that together serve `capacity` requests
    /// per second.
    public struct QueueModel: Sendable {
        /// Parallel workers (`server.workers`), at least 1; each serves `capacity / workers` requests per second.
        public var workers: Int
        /// The work each request needs (`server.service`, with `server.service_sigma` or `server.service_shape`).
        public var service: ServiceTime
        /// The most requests that may wait (not counting those in service); nil: unbounded.
        /// A full queue rejects at once with a retryable 503.
        public var limit: Int?
        /// Skip requests whose client deadline has passed when they reach the head of the queue,
        /// instead of serving them for nobody (the fix for wasted work).
        public var dropExpired: Bool
        /// First in first out, or last in first out.
        public var lifo: Bool
        /// The Retry-After the full queue's 503 carries (nil: none).
        public var shedRetryAfter: Nanoseconds?
        /// Extra service time per request in the system when a request starts service: with
        /// 1 s + 10 ms × in flight, the server slows as work piles up — congestion collapse, the
        /// mechanism of metastable failures.
        public var congestion: Nanoseconds
        /// The work a rejection costs the workers, as a fraction of one request's work
        /// (`server.reject_cost`, 0…1): each 503 from a full queue and each 429 from the rate
        /// limiter takes that share of a service-time draw from the next worker to free, before
        /// it takes another request. 0: rejections are free (the default).
        public var rejectCost: Double

        /// The most rejections whose work may wait for a worker: as much work as a full queue of
        /// requests holds (`limit / rejectCost` of them), and at least one request's work per
        /// worker (all an unbounded queue allows); 0 when rejections are free. A rejection beyond
        /// them costs nothing, as a listen backlog that overflows refuses the connection before the
        /// process sees it: after an overload the server owes no more refusing than its queue
        /// could hold of requests.
        package var owedRejectionLimit: Int {
            guard rejectCost > 0 else { return 0 }
            let places = Double(max(workers, min(limit ?? 0, 1 << 30)))
            return Int(min(Double(1 << 30), (places / rejectCost).rounded(.up)))
        }

        /// A queue model; by default FIFO, no Retry-After on its 503, no congestion and free rejections.
        public init(
            workers: Int, service: ServiceTime, limit: Int?, dropExpired: Bool, lifo: Bool = false,
            shedRetryAfter: Nanoseconds? = nil, congestion: Nanoseconds = 0, rejectCost: Double = 0
        ) {
            self.workers = workers
            self.service = service
            self.limit = limit
            self.dropExpired = dropExpired
            self.lifo = lifo
            self.shedRetryAfter = shedRetryAfter
            self.congestion = congestion
            self.rejectCost = rejectCost
        }
    }

    /// The work one request needs, in units of one request at the current per-worker capacity.
    public enum ServiceTime: Sendable, Hashable {
        /// Exactly one unit: at constant capacity C with c workers, c / C seconds.
        case deterministic
        /// Exponentially distributed with mean one unit (M/M/c).
        case exponential
        /// Lognormal with mean one unit and this standard deviation of the log.
        case lognormal(sigma: Double)
        /// Pareto with mean one unit and this shape (> 1): heavy-tailed.
        case pareto(shape: Double)
    }

    /// Optimistic concurrency on one shared row (AWS Architecture Blog, "Exponential Backoff And
    /// Jitter", 2015): an attempt reads the row's version, then writes it back; the write succeeds
    /// only if no other write came in between (else 409). Each network hop takes `hop`.
    public struct ContentionModel: Sendable {
        /// One network hop, |N(mean, SD²)|: mean `server.contention.hop`, SD `server.contention.hop_sd`, both in ns.
        public var hop: Delay
        /// A contention model whose every hop takes `hop`.
        public init(hop: Delay) { self.hop = hop }
    }

    /// Each attempt fails independently with probability `failure`, with no capacity limit; the
    /// answer comes after `latency`.
    public struct FlakyModel: Sendable {
        /// Probability (0…1) that an attempt fails with a 500, independently (`server.flaky.failure`).
        public var failure: Double
        /// Time to answer an attempt, nanoseconds (`server.flaky.latency`).
        public var latency: Nanoseconds
        /// A flaky server failing a `failure` share of attempts, each answered after `latency`.
        public init(failure: Double, latency: Nanoseconds) {
            self.failure = failure
            self.latency = latency
        }
    }

    /// Errors a server answers besides overload, as shares of the requests it serves: throughout
    /// the run, or only in an error window (`server.errors.at`, `server.errors.duration`).
    public struct ErrorMix: Sendable, Hashable {
        /// The status of the transient share (`server.errors.status`).
        public enum Status: Sendable, Hashable, CaseIterable {
            /// 500 (INTERNAL): processed, failed.
            case internalError
            /// 503 (UNAVAILABLE): processed, then answered 503 — unlike a full queue's 503, which
            /// refuses without processing. Retried by classifiers that retry 503 but not 500 (gRPC).
            case unavailable

            /// The HTTP status: 500 or 503.
            public var code: Int { self == .unavailable ? 503 : 500 }
        }

        /// Answered 400: the request itself is wrong (permanent).
        public var permanent: Double
        /// Answered ``serverErrorStatus``: a transient server error.
        public var serverError: Double
        /// Applied, but the response is lost: the client times out not knowing (ambiguous).
        public var ambiguous: Double
        /// The status of the ``serverError`` share: 500 by default.
        public var serverErrorStatus: Status
        /// When the mix applies: to the answers the model reports from the lower bound (inclusive)
        /// to the upper (exclusive), nanoseconds; the upper bound is `Int64.max` when the window
        /// stays open to the end. nil: the whole run. A window is an incident trigger
        /// (``Scenario/trigger``) when a share is above 0.
        public var window: Range<Nanoseconds>?

        /// Shares (0…1) of served requests answered 400, answered `serverErrorStatus`, or applied without an
        /// answer; their sum is at most 1 (the loader checks it, not this). By default 500 for the transient share,
        /// throughout the run.
        public init(
            permanent: Double = 0, serverError: Double = 0, ambiguous: Double = 0, serverErrorStatus: Status = .internalError,
            window: Range<Nanoseconds>? = nil
        ) {
            self.permanent = permanent
            self.serverError = serverError
            self.ambiguous = ambiguous
            self.serverErrorStatus = serverErrorStatus
            self.window = window
        }

        /// No errors besides overload: every share 0.
        public static let none = ErrorMix()
        /// Whether any share is above 0.
        public var any: Bool { permanent > 0 || serverError > 0 || ambiguous > 0 }
        /// The share of answers the mix rewrites (400, the transient status or lost), 0…1.
        package var total: Double { permanent + serverError + ambiguous }
    }

    /// A token bucket at the server: `rate` requests per second with bursts of `burst`; beyond
    /// it, 429 at once, with `retryAfter` when set.
    public struct RateLimit: Sendable, Hashable {
        /// Requests per second the bucket refills at (`server.rate_limit.rate`).
        public var rate: Double
        /// The bucket's size, requests that may pass at once (`server.rate_limit.burst`); the loader makes it ≥ 1.
        public var burst: Double
        /// The Retry-After its 429 carries, nanoseconds (`server.rate_limit.retry_after`); nil: no header.
        public var retryAfter: Nanoseconds?

        /// A token bucket of `burst` requests refilled at `rate` per second, its 429s carrying `retryAfter` if set.
        public init(rate: Double, burst: Double, retryAfter: Nanoseconds?) {
            self.rate = rate
            self.burst = burst
            self.retryAfter = retryAfter
        }
    }
}
