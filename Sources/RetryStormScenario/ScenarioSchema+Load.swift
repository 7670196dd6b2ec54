extension ScenarioSchema {
    static let load: [Field] = [
        Field(
            "load.profile", .points, "none",
            "The arrival rate of `poisson` and `constant` clients over time, as a multiplier of clients.rate: `[[0s, 1], [20s, 2], [25s, 1]]`, linear between points, the first value before the first point and the last after the last; a time given twice makes a step. Arrivals are an exact inhomogeneous process (time change through the multiplier's integral). none: 1 throughout.",
            \.loadProfile, \.points),
        Field("load.spike.at", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s", "When a load spike starts (a step of the arrival rate).")
        { d, v in
            d.spikeAt = v.nanoseconds ?? 0
        },
        Field(
            "load.spike.duration", .duration(min: 0, max: maxHorizon, allowsNone: false), "0s",
            "How long the spike lasts; 0s: no spike. A spike is a trigger like an outage: incident metrics and chart shading cover it."
        ) { d, v in
            d.spikeDuration = v.nanoseconds ?? 0
        },
        Field(
            "load.spike.multiplier", .number(min: 0, max: 1_000_000), "2", "The arrival rate during the spike, as a multiple of clients.rate.",
            \.spikeMultiplier, \.double),
        Field(
            "load.csv", .file(column: "multiplier"), "none",
            "Replays traffic: a CSV file with the header `t_s,multiplier` (seconds, multiple of clients.rate), linear between rows, like load.profile. Relative to the scenario file (to the working directory from --set, --vary or --grid); results keep a copy. none: no file."
        ) { d, v in
            d.loadCSV = v.string == "none" ? nil : v.string
        }
    ]
}
