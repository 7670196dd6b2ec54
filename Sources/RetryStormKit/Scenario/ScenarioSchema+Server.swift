extension ScenarioSchema {
    static let server: [Field] = [
        Field("server.model", .choice(["queue"]), "queue", "The server model. `queue`: a FIFO queue in front of `workers` workers.") { d, v in
            d.model = v.string
        },
        Field("server.capacity", .rate(min: 0, max: 1e10), "1000/s", "Nominal capacity, requests per second, all workers together.") { d, v in
            d.capacity = v.double
        },
        Field("server.workers", .integer(min: 1, max: 1_000_000), "1",
              "Parallel workers; each serves capacity / workers requests per second.") { d, v in d.workers = v.int },
        Field("server.service", .choice(["deterministic", "exponential"]), "exponential",
              "Service time: exactly workers / capacity, or exponential with that mean (M/M/c).") { d, v in d.service = v.string },
        Field("server.queue.limit", .integer(min: 0, max: 1_000_000_000, allowsNone: true), "none",
              "Most requests that may wait; a full queue answers 503 at once. none: unbounded.") { d, v in
            d.queueLimit = v.optionalInt
        },
        Field("server.queue.drop_expired", .boolean, "false",
              "Drop requests whose client deadline has passed when they reach the head of the queue, instead of serving them for nobody.") { d, v in
            d.dropExpired = v.bool
        },
        Field("server.outage.at", .duration(min: 0, max: maxHorizon, allowsNone: false), "60s", "When capacity drops.") { d, v in
            d.outageAt = v.nanoseconds ?? 0
        },
        Field("server.outage.duration", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
              "How long capacity stays at `fraction` before recovery starts; 0s: no outage.") { d, v in
            d.outageDuration = v.nanoseconds ?? 0
        },
        Field("server.outage.fraction", .fraction, "0.2", "Capacity during the outage, as a fraction of nominal (0: down).") { d, v in
            d.outageFraction = v.double
        },
        Field("server.outage.recovery", .choice(["instant", "linear", "exponential"]), "linear",
              "How capacity returns to nominal over `ramp`: at once, along a line, or fast then slow (1 − e^(−5t/ramp), normalised).") { d, v in
            d.outageRecovery = v.string
        },
        Field("server.outage.ramp", .duration(min: 0, max: maxHorizon, allowsNone: false), "60s", "Duration of the recovery.") { d, v in
            d.outageRamp = v.nanoseconds ?? 0
        },
    ]
}
