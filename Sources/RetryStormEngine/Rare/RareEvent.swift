import RetryPolicy

/// The events `retrystorm rare` estimates (docs/models.md, "Rare events").
package enum RareEvent: String, Sendable, CaseIterable {
    /// The first time the server holds ``threshold(_:)`` requests, waiting or in service, from a
    /// healthy start (the scenario without its trigger): its mean time, seconds.
    case collapse
    /// The replication is stuck at the horizon (``Stuck``), after the scenario's trigger: its probability.
    case stuck

    /// The backlog that is a collapse: capacity × the per-attempt timeout, ⌈μτ⌉ requests — past it a
    /// new request's wait exceeds its timeout at nominal capacity. Nil without a timeout.
    package static func threshold(_ s: Scenario) -> Int? {
        guard let timeout = s.clients.timeout, timeout > 0 else { return nil }
        let backlog = (s.server.capacity * Double(timeout) / 1e9).rounded(.up)
        return backlog < 1e9 ? Swift.max(1, Int(backlog)) : nil
    }

    /// The simulated time a collapse estimate's runs may take, nanoseconds: 10^5 s, more than its
    /// first stage's events take at any load above a few requests a second.
    package static let healthyHorizon: Int64 = 100_000 * 1_000_000_000

    /// The largest collapse backlog rare works with (it keeps a count per backlog up to it).
    package static let maxThreshold = 1_000_000

    /// The most requests the server can hold, waiting or in service (nil: no limit).
    package static func room(_ s: Scenario) -> Int? {
        guard case .queue(let q) = s.server.model, let limit = q.limit else { return nil }
        return limit + q.workers
    }

    /// Why `s` cannot be estimated for this event, in one line naming the key, or nil.
    package func refusal(_ s: Scenario) -> String? {
        if s.isCallGraph { return "services: rare estimates one server; a call graph's storms are not branched yet" }
        guard case .queue = s.server.model else { return "server.model: rare needs the queue model (its backlog is the level)" }
        if s.customPolicy != nil { return "policy: rare runs the library's policies, not a custom one" }
        guard let threshold = Self.threshold(s) else {
            return "clients.timeout: rare needs a per-attempt timeout (the collapse backlog is capacity × timeout)"
        }
        if threshold > Self.maxThreshold {
            return "clients.timeout: capacity × timeout is \(threshold) requests, more levels than rare places (at most \(Self.maxThreshold))"
        }
        switch self {
        case .collapse:
            if !Self.steadyLoad(s) {
                return "clients.arrival: --event collapse needs a steady load (poisson, constant or closed), not a burst or a single sweep"
            }
            if let room = Self.room(s), room < threshold {
                return
                    "server.queue.limit: the server holds at most \(room) requests, fewer than capacity × timeout = \(threshold): it cannot collapse"
            }
        case .stuck:
            guard s.trigger != nil else {
                return "server: --event stuck needs a trigger (a brownout, outage, load spike, error burst or restart wave)"
            }
            let buckets = Int((s.horizon + s.bucket - 1) / s.bucket)
            if s.stuckTail(of: buckets) == nil {
                return "horizon: the last stuck_window of the run must lie after the trigger's end, or no replication is judged stuck"
            }
        }
        return nil
    }

    /// The scenario a collapse is estimated in: `s` at its steady state — capacity nominal, the load
    /// at its base, no error burst, offline window or restart wave, no warmup — over
    /// ``healthyHorizon`` in ten buckets (a splitting run reads no time series, and every copy of
    /// its state copies them).
    package static func healthy(_ s: Scenario) -> Scenario {
        var h = s
        h.horizon = healthyHorizon
        h.bucket = healthyHorizon / 10
        h.warmup = 0
        h.server.profile = .constant
        h.load = LoadProfile(points: [])
        if h.server.errors.window != nil {
            h.server.errors.permanent = 0
            h.server.errors.serverError = 0
            h.server.errors.ambiguous = 0
            h.server.errors.window = nil
        }
        h.clients.offline = nil
        h.clients.restart = nil
        h.clients.arrival = steady(h.clients.arrival)
        for i in h.populations.indices { h.populations[i].clients.arrival = steady(h.populations[i].clients.arrival) }
        return h
    }

    /// `arrival` without an end: operations keep coming as long as the run lasts.
    static func steady(_ arrival: Scenario.Arrival) -> Scenario.Arrival {
        switch arrival {
        case .poisson(let rate, let start, _): .poisson(ratePerClient: rate, start: start, until: .max)
        case .constant(let rate, let start, _): .constant(ratePerClient: rate, start: start, until: .max)
        case .closed(let think, let start, let spread, _): .closed(think: think, start: start, spread: spread, until: .max)
        case .burst, .uniform: arrival
        }
    }

    /// Whether every population's operations keep coming (not a burst or a single sweep).
    static func steadyLoad(_ s: Scenario) -> Bool {
        s.effectivePopulations.allSatisfy {
            switch $0.clients.arrival {
            case .burst, .uniform: false
            default: true
            }
        }
    }
}
