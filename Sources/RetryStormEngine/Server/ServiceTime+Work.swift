import GSLSupport

extension Scenario.ServiceTime {
    /// One request's work in units of the nominal mean service time (mean 1 for every
    /// distribution), drawn from `random` — nothing is drawn for deterministic service.
    @inline(__always) func work(_ random: borrowing RandomStream) -> Double {
        switch self {
        case .deterministic: return 1
        case .exponential: return random.exponential(mean: 1)
        case .lognormal(let sigma): return random.lognormal(zeta: -sigma * sigma / 2, sigma: sigma)
        case .pareto(let shape): return random.pareto(shape: shape, scale: (shape - 1) / shape)
        }
    }
}
