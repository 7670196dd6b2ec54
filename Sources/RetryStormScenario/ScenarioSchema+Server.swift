extension ScenarioSchema {
    static let server: [Field] = [
        Field(
            "server.model", .choice(["queue", "contention", "flaky"]), "queue",
            "The server model: `queue` (a queue in front of `workers` workers serving `capacity`), `contention` (optimistic writes to one shared row, the AWS blog's simulator), `flaky` (each attempt fails with probability server.flaky.failure, no capacity limit).",
            \.model, \.string),
        Field(
            "server.capacity", .rate(min: 0, max: 1e10), "1000/s", "Nominal capacity, requests per second, all workers together.", \.capacity,
            \.double),
        Field(
            "server.workers", .integer(min: 1, max: 1_000_000), "1",
            "Parallel workers; each serves capacity / workers requests per second."
        ) { d, v in d.workers = v.int },
        Field(
            "server.service", .choice(["deterministic", "exponential", "lognormal", "pareto"]), "exponential",
            "Service time, mean workers / capacity: exactly that, exponential (M/M/c), lognormal (σ = service_sigma) or Pareto (shape = service_shape, heavy-tailed).",
            \.service, \.string),
        Field("server.service_sigma", .number(min: 0.01, max: 10), "1", "σ of the log of a lognormal service time.", \.serviceSigma, \.double),
        Field("server.service_shape", .number(min: 1.0001, max: 100), "2.5", "Shape of a Pareto service time (above 1).", \.serviceShape, \.double),
        Field(
            "server.queue.limit", .integer(min: 0, max: maxCount, allowsNone: true), "none",
            "Most requests that may wait; a full queue answers 503 at once (load shedding). none: unbounded.", \.queueLimit, \.optionalInt),
        Field(
            "server.queue.discipline", .choice(["fifo", "lifo"]), "fifo", "Which waiting request is served next: the oldest or the newest.",
            \.discipline, \.string),
        Field(
            "server.queue.retry_after", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "The Retry-After a full queue's 503 carries. none: no header.", \.shedRetryAfter, \.nanoseconds),
        Field(
            "server.queue.drop_expired", .boolean, "false",
            "Drop requests whose client deadline has passed when they reach the head of the queue, instead of serving them for nobody.",
            \.dropExpired, \.bool),
        Field(
            "server.congestion", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "Extra service time per request in the system when a request starts service (1 s + 10 ms × in flight): congestion collapse, the mechanism of metastable failures."
        ) { d, v in
            d.congestion = v.nanoseconds ?? 0
        },
        Field(
            "server.reject_cost", .fraction, "0",
            "The work a rejection costs the server (a 503 from a full queue, a 429 from the rate limiter), as a fraction of a served request's: the next worker to free spends it before its next request. At most a full queue's worth of refusing waits for a worker (queue.limit / reject_cost refusals, at least workers / reject_cost); beyond that a refusal costs nothing, so no debt outlives an overload. model: queue only."
        ) { d, v in d.rejectCost = v.double },
        Field("server.errors.permanent", .fraction, "0", "Share of served requests answered 400 (permanent).", \.errorsPermanent, \.double),
        Field(
            "server.errors.server", .fraction, "0", "Share of served requests answered server.errors.status (transient: 500 unless set).",
            \.errorsServer, \.double),
        Field(
            "server.errors.ambiguous", .fraction, "0",
            "Share of served writes applied but whose answer is lost: the client times out not knowing (ambiguous).", \.errorsAmbiguous, \.double),
        Field(
            "server.errors.status", .choice(["500", "503"]), "500",
            "The status of server.errors.server's share: 500 (INTERNAL), or 503 (UNAVAILABLE: processed, then answered 503; a full queue's 503 is refused unprocessed). Classifiers that retry 503 but not 500 (policy.preset: grpc) retry only the second.",
            \.errorsStatus, \.string),
        Field(
            "server.errors.at", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "When an error window starts: the server.errors.* shares apply only to answers the server gives from then on, for server.errors.duration. An error window is a trigger like an outage: incident metrics and chart shading cover it. none: the shares apply throughout the run (no trigger).",
            \.errorsAt, \.nanoseconds),
        Field(
            "server.errors.duration", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "How long the error window lasts (more than 0s; needs server.errors.at). none: until the end of the run.", \.errorsDuration,
            \.nanoseconds),
        Field(
            "server.rate_limit.rate", .rate(min: 0, max: 1e10, allowsNone: true), "none",
            "A token bucket in front of the server: requests per second beyond which it answers 429. none: no limit.", \.rateLimit, \.optionalDouble),
        Field(
            "server.rate_limit.burst", .number(min: 1, max: 1e12), "1", "The bucket's size: requests that may pass in a burst.", \.rateBurst, \.double
        ),
        Field(
            "server.rate_limit.retry_after", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
            "The Retry-After the 429 carries. none: no header.", \.rateRetryAfter, \.nanoseconds),
        Field(
            "server.contention.hop", .duration(min: 0, max: maxHorizon, allowsNone: false), "10ms",
            "Mean of one network hop of the contention model (|N(hop, hop_sd)|)."
        ) { d, v in
            d.hopMean = v.nanoseconds ?? 0
        },
        Field("server.contention.hop_sd", .duration(min: 0, max: maxHorizon, allowsNone: false), "2ms", "Standard deviation of a hop.") { d, v in
            d.hopSpread = v.nanoseconds ?? 0
        },
        Field("server.flaky.failure", .fraction, "0.1", "Probability that an attempt fails (500), independently.", \.flakyFailure, \.double),
        Field("server.flaky.latency", .duration(min: 0, max: maxHorizon, allowsNone: false), "10ms", "Time to answer an attempt.") { d, v in
            d.flakyLatency = v.nanoseconds ?? 0
        },
        Field(
            "server.capacity_csv", .file(column: "capacity_per_s"), "none",
            "Replays capacity: a CSV file with the header `t_s,capacity_per_s`, linear between rows, the first row's value before it and the last row's after it. Replaces server.outage, server.brownout and server.dips; server.capacity stays the nominal. Relative to the scenario file (to the working directory from --set, --vary or --grid); results keep a copy. none: no file."
        ) { d, v in
            d.capacityCSV = v.string == "none" ? nil : v.string
        },
        Field("server.outage.at", .duration(min: 0, max: maxHorizon, allowsNone: false), "60s", "When capacity drops.") { d, v in
            d.outageAt = v.nanoseconds ?? 0
        },
        Field(
            "server.outage.duration", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "How long capacity stays at `fraction` before recovery starts; 0s: no outage."
        ) { d, v in
            d.outageDuration = v.nanoseconds ?? 0
        },
        Field(
            "server.outage.fraction", .fraction, "0.2", "Capacity during the outage, as a fraction of nominal (0: down).", \.outageFraction, \.double),
        Field(
            "server.outage.recovery", .choice(["instant", "linear", "exponential"]), "linear",
            "How capacity returns to nominal over `ramp`: at once, along a line, or fast then slow (1 − e^(−5t/ramp), normalised).", \.outageRecovery,
            \.string),
        Field("server.outage.ramp", .duration(min: 0, max: maxHorizon, allowsNone: false), "60s", "Duration of the recovery.") { d, v in
            d.outageRamp = v.nanoseconds ?? 0
        },
        Field(
            "server.brownout.at", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "When a brownout (a drop with an instant return) starts."
        ) { d, v in
            d.brownoutAt = v.nanoseconds ?? 0
        },
        Field("server.brownout.duration", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s", "How long it lasts; 0s: none.") { d, v in
            d.brownoutDuration = v.nanoseconds ?? 0
        },
        Field("server.brownout.fraction", .fraction, "0.5", "Capacity during the brownout, as a fraction of nominal.", \.brownoutFraction, \.double),
        Field(
            "server.dips.every", .duration(min: 1_000_000, max: maxHorizon, allowsNone: true), "none",
            "Period of recurring capacity dips (garbage collection, cron jobs). none: no dips.", \.dipsEvery, \.nanoseconds),
        Field("server.dips.duration", .duration(min: 0, max: maxHorizon, allowsNone: false), "1s", "How long each dip lasts.") { d, v in
            d.dipsDuration = v.nanoseconds ?? 0
        },
        Field("server.dips.fraction", .fraction, "0.5", "Capacity during a dip, as a fraction of nominal.", \.dipsFraction, \.double),
        Field("server.dips.from", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s", "When the first dip starts.") { d, v in
            d.dipsFrom = v.nanoseconds ?? 0
        }
    ]
}
