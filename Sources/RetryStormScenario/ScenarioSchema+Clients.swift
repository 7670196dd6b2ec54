import RetryStormEngine

extension ScenarioSchema {
    static let clients: [Field] = [
        Field("clients.count", .integer(min: 1, max: maxCount), "1000", "Number of simulated clients.", \.clientsCount, \.int),
        Field(
            "clients.arrival", .choice(["burst", "uniform", "poisson", "constant", "closed"]), "poisson",
            "When operations start: `burst` (every client at `start`), `uniform` (each client once, uniformly in [start, start + spread)), `poisson` (each client a Poisson process of `rate`, open loop), `constant` (each client every 1 / `rate` from a random phase, open loop: load tools' constant arrival rate), `closed` (each client one operation at a time, the next an exponential `think` time after the last ended; first ones uniform in [start, start + spread)).",
            \.arrival, \.string),
        Field("clients.start", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s", "When arrivals begin.") { d, v in
            d.start = v.nanoseconds ?? 0
        },
        Field(
            "clients.spread", .duration(min: 1, max: maxHorizon, allowsNone: false), "60s",
            "Width of the `uniform` arrival window, and of the `closed` clients' first starts."
        ) { d, v in
            d.spread = v.nanoseconds ?? 0
        },
        Field(
            "clients.rate", .rate(min: 0, max: 1e9), "0.01/s",
            "Operations per second per client, for `poisson` and `constant` (times load.profile, load.spike or load.csv).", \.ratePerClient, \.double),
        Field(
            "clients.think", .duration(min: 0, max: maxHorizon, allowsNone: false), "10s",
            "Mean think time of `closed` clients between an operation's end and the next one's start (exponential)."
        ) { d, v in
            d.think = v.nanoseconds ?? 0
        },
        Field(
            "clients.until", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "When `poisson`, `constant` and `closed` arrivals stop (none: at the horizon)."
        ) { d, v in d.until = v.nanoseconds },
        Field(
            "clients.timeout", .duration(min: 1_000, max: maxHorizon, allowsNone: true), "2s",
            "Per-attempt request timeout: the client abandons the attempt (the server may still do the work). none: wait forever.", \.timeout,
            \.nanoseconds),
        Field(
            "clients.deadline", .duration(min: 1_000, max: maxHorizon, allowsNone: true), "none",
            "An operation's end-to-end deadline from its start, as a gRPC call's: each attempt's timeout is the smaller of clients.timeout and the time left (the server sees that deadline: server.queue.drop_expired drops by it), and no attempt starts at or after it (the operation gives up there). none: no deadline.",
            \.deadline, \.nanoseconds),
        Field(
            "clients.connect_timeout", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "How long an offline client's attempt waits for a connection before failing (a connect timeout); 0s: it fails at once as offline."
        ) { d, v in
            d.connectTimeout = v.nanoseconds ?? 0
        },
        Field(
            "clients.background", .fraction, "0", "Share of operations that are background work (the low-priority lane of policy.concurrency).",
            \.background, \.double),
        Field(
            "clients.hosts", .integer(min: 1, max: 65_535), "1",
            "Hosts (endpoints) operations spread over uniformly; clients keep budgets, breakers and concurrency limits per host.", \.hosts, \.int),
        Field("clients.offline.at", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s", "When a share of the fleet loses the network.") {
            d, v in
            d.offlineAt = v.nanoseconds ?? 0
        },
        Field(
            "clients.offline.duration", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "How long it stays offline; its attempts fail without reaching the server. 0s: never."
        ) { d, v in
            d.offlineDuration = v.nanoseconds ?? 0
        },
        Field("clients.offline.fraction", .fraction, "0", "The share of clients that go offline.", \.offlineFraction, \.double),
        Field(
            "clients.offline.nudge", .boolean, "true",
            "When the network comes back, every waiting operation of those clients tries at once (a sync-on-reconnect trigger): the reconnect wave.",
            \.offlineNudge, \.bool),
        Field(
            "clients.restart.at", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "When a share of the fleet restarts the app: attempts in flight are abandoned, and policy.schedule_on_restart keeps or resets each operation's schedule.",
            \.restartAt, \.nanoseconds),
        Field("clients.restart.fraction", .fraction, "1", "The share of clients that restart.", \.restartFraction, \.double),
        Field(
            "clients.credentials.lifetime", .duration(min: 1_000_000, max: maxHorizon, allowsNone: true), "none",
            "Credentials expire this long after issue (issue times spread over one lifetime): an expired one gets 401 until the policy refreshes it. none: never.",
            \.credentialLifetime, \.nanoseconds),
        Field(
            "network.latency.shape", .choice(["none"] + Scenario.Delay.Shape.allCases.map(\.rawValue)), "none",
            "One-way delay of every hop between a client and the server (GSL): none, constant, exponential, lognormal (spread = σ of the log) or normal folded at 0 (spread = its standard deviation, seconds)."
        ) { d, v in
            d.latencyShape = v.string == "none" ? nil : v.choice(\Scenario.Delay.Shape.rawValue)
        },
        Field("network.latency.mean", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s", "Mean one-way delay.") { d, v in
            d.latencyMean = v.nanoseconds ?? 0
        },
        Field("network.latency.spread", .number(min: 0, max: 1_000), "0", "The delay's spread (see shape).", \.latencySpread, \.double)
    ]
}
