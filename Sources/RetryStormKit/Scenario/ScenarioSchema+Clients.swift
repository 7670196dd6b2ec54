extension ScenarioSchema {
    static let clients: [Field] = [
        Field("clients.count", .integer(min: 1, max: 1_000_000_000), "1000", "Number of simulated clients.") { d, v in
            d.clientsCount = v.int
        },
        Field("clients.arrival", .choice(["burst", "uniform", "poisson"]), "poisson",
              "When operations start: `burst` (every client at `start`), `uniform` (each client once, uniformly in [start, start + spread)), `poisson` (each client a Poisson process of `rate`, open loop).") { d, v in
            d.arrival = v.string
        },
        Field("clients.start", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s", "When arrivals begin.") { d, v in
            d.start = v.nanoseconds ?? 0
        },
        Field("clients.spread", .duration(min: 1, max: maxHorizon, allowsNone: false), "60s", "Width of the `uniform` arrival window.") { d, v in
            d.spread = v.nanoseconds ?? 0
        },
        Field("clients.rate", .rate(min: 0, max: 1e9), "0.01/s", "Operations per second per client, for `poisson`.") { d, v in
            d.ratePerClient = v.double
        },
        Field("clients.until", .duration(min: 0, max: maxHorizon, allowsNone: true), "none",
              "When `poisson` arrivals stop (none: at the horizon).") { d, v in d.until = v.nanoseconds },
        Field("clients.timeout", .duration(min: 1_000, max: maxHorizon, allowsNone: true), "2s",
              "Per-attempt timeout: the client abandons the attempt (the server may still do the work). none: wait forever.") { d, v in
            d.timeout = v.nanoseconds
        },
    ]
}
