import RetryPolicy
import RetryStormEngine

extension ScenarioDraft {
    /// Puts the parts together and checks what no single field can: that they agree.
    func build(locations: [String: SourceLocation]) throws(ScenarioError) -> Scenario {
        func at(_ paths: String...) -> SourceLocation {
            for p in paths { if let l = locations[p] { return l } }
            return SourceLocation(origin: .defaultValue)
        }
        func check(_ ok: Bool, _ field: String, _ message: String, also: String...) throws(ScenarioError) {
            guard !ok else { return }
            var loc = at(field)
            for p in also where locations[p] != nil && locations[field] == nil { loc = locations[p]! }
            throw ScenarioError(loc, field: field, message)
        }

        try check(bucket <= horizon, "bucket", "(\(Format.duration(bucket))) must not be longer than the horizon (\(Format.duration(horizon)))", also: "horizon")
        try check(horizon / bucket <= 10_000_000, "bucket", "gives \(horizon / bucket) buckets; at most 10,000,000 fit (make the bucket longer)", also: "horizon")
        try check(start < horizon, "clients.start", "(\(Format.duration(start))) is at or after the horizon (\(Format.duration(horizon))): nothing would happen", also: "horizon")
        try check(capacity > 0, "server.capacity", "must be more than 0/s")

        let arrivalValue: Scenario.Arrival
        switch arrival {
        case "burst":
            arrivalValue = .burst(at: start)
        case "uniform":
            arrivalValue = .uniform(start: start, spread: spread)
        default:
            try check(ratePerClient > 0, "clients.rate", "must be more than 0/s for poisson arrivals", also: "clients.arrival")
            let end = until ?? horizon
            try check(end > start, "clients.until", "(\(Format.duration(end))) must be after clients.start (\(Format.duration(start)))", also: "clients.start")
            arrivalValue = .poisson(ratePerClient: ratePerClient, start: start, until: end)
        }

        let policy = try self.policy.build { (ok: Bool, field: String, message: String, also: [String]) throws(ScenarioError) in
            guard !ok else { return }
            var loc = at(field)
            for p in also where locations[p] != nil && locations[field] == nil { loc = locations[p]! }
            throw ScenarioError(loc, field: field, message)
        }

        var profile = CapacityProfile.constant
        if outageDuration > 0 {
            try check(outageAt < horizon, "server.outage.at", "(\(Format.duration(outageAt))) is at or after the horizon (\(Format.duration(horizon)))", also: "horizon")
            let shape: CapacityProfile.Shape = switch outageRecovery {
            case "instant": .constant
            case "exponential": .exponential
            default: .linear
            }
            profile = .outage(at: outageAt, duration: outageDuration, fraction: outageFraction, recovery: shape, ramp: outageRamp)
        }

        let model = Scenario.Model.queue(.init(
            workers: workers, service: service == "deterministic" ? .deterministic : .exponential,
            limit: queueLimit, dropExpired: dropExpired))
        return Scenario(
            name: name, seed: seed, horizon: horizon, bucket: bucket,
            clients: .init(count: clientsCount, arrival: arrivalValue, timeout: timeout),
            server: .init(capacity: capacity, profile: profile, model: model),
            policy: policy)
    }
}
