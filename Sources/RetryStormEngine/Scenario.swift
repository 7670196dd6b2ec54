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
    public var clients: Clients
    public var server: Server
    public var policy: RetryPolicy

    public init(name: String, seed: UInt64, horizon: Nanoseconds, bucket: Nanoseconds,
                clients: Clients, server: Server, policy: RetryPolicy) {
        self.name = name
        self.seed = seed
        self.horizon = horizon
        self.bucket = bucket
        self.clients = clients
        self.server = server
        self.policy = policy
    }

    /// The simulated clients and the operations they start.
    public struct Clients: Sendable {
        /// How many clients there are.
        public var count: Int
        /// When their operations start.
        public var arrival: Arrival
        /// The per-attempt timeout after which a client abandons an attempt (nil: wait forever).
        public var timeout: Nanoseconds?

        public init(count: Int, arrival: Arrival, timeout: Nanoseconds?) {
            self.count = count
            self.arrival = arrival
            self.timeout = timeout
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
    }

    /// The modelled server.
    public struct Server: Sendable {
        /// Nominal capacity, requests per second.
        public var capacity: Double
        /// Capacity over time, as fractions of nominal.
        public var profile: CapacityProfile
        public var model: Model

        public init(capacity: Double, profile: CapacityProfile, model: Model) {
            self.capacity = capacity
            self.profile = profile
            self.model = model
        }
    }

    public enum Model: Sendable {
        case queue(QueueModel)
    }

    /// A FIFO queue in front of `workers` identical workers that together serve `capacity`
    /// requests per second.
    public struct QueueModel: Sendable {
        public var workers: Int
        public var service: ServiceTime
        /// The most requests that may wait (not counting those in service); nil: unbounded.
        /// A full queue rejects at once with a retryable 503.
        public var limit: Int?
        /// Skip requests whose client deadline has passed when they reach the head of the queue,
        /// instead of serving them for nobody (the fix for wasted work).
        public var dropExpired: Bool

        public init(workers: Int, service: ServiceTime, limit: Int?, dropExpired: Bool) {
            self.workers = workers
            self.service = service
            self.limit = limit
            self.dropExpired = dropExpired
        }
    }

    /// The work one request needs, in units of one request at the current per-worker capacity.
    public enum ServiceTime: String, Sendable, CaseIterable {
        /// Exactly one unit: at constant capacity C with c workers, c / C seconds.
        case deterministic
        /// Exponentially distributed with mean one unit (M/M/c).
        case exponential
    }
}
