import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary

extension ScenarioDraft {
    /// Puts the parts together and checks what no single field can: that they agree. Files the
    /// keys name are read through `inputs`, once per command.
    func build(locations: [String: SourceLocation], inputs: InputFiles) throws(ScenarioError) -> Scenario {
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

        try check(
            bucket <= horizon, "bucket", "(\(Format.duration(bucket))) must not be longer than the horizon (\(Format.duration(horizon)))",
            also: "horizon")
        try check(
            horizon / bucket <= 10_000_000, "bucket", "gives \(horizon / bucket) buckets; at most 10,000,000 fit (make the bucket longer)",
            also: "horizon")
        try check(
            warmup < horizon, "warmup", "(\(Format.duration(warmup))) must be shorter than the horizon (\(Format.duration(horizon)))",
            also: "horizon")
        try check(
            start < horizon, "clients.start",
            "(\(Format.duration(start))) is at or after the horizon (\(Format.duration(horizon))): nothing would happen", also: "horizon")
        try check(capacity > 0, "server.capacity", "must be more than 0/s")
        try check(hosts <= 65_535, "clients.hosts", "must be at most 65535 (got \(hosts))")

        let end = until ?? horizon
        let arrivalValue: Scenario.Arrival
        switch arrival {
        case "burst":
            arrivalValue = .burst(at: start)
        case "uniform":
            arrivalValue = .uniform(start: start, spread: spread)
        case "constant":
            try check(ratePerClient > 0, "clients.rate", "must be more than 0/s for constant arrivals", also: "clients.arrival")
            try check(
                end > start, "clients.until", "(\(Format.duration(end))) must be after clients.start (\(Format.duration(start)))",
                also: "clients.start")
            arrivalValue = .constant(ratePerClient: ratePerClient, start: start, until: end)
        case "closed":
            try check(
                end > start, "clients.until", "(\(Format.duration(end))) must be after clients.start (\(Format.duration(start)))",
                also: "clients.start")
            arrivalValue = .closed(think: think, start: start, spread: spread, until: end)
        default:
            try check(ratePerClient > 0, "clients.rate", "must be more than 0/s for poisson arrivals", also: "clients.arrival")
            try check(
                end > start, "clients.until", "(\(Format.duration(end))) must be after clients.start (\(Format.duration(start)))",
                also: "clients.start")
            arrivalValue = .poisson(ratePerClient: ratePerClient, start: start, until: end)
        }

        let policy = try self.policy.build(locations: locations)

        let profile = try capacityProfile(check: check, at: at, inputs: inputs)
        let load = try loadProfile(check: check, at: at, inputs: inputs)
        if !load.isFlat {
            let source = ["load.profile", "load.spike.duration", "load.csv"].first { locations[$0] != nil } ?? "load.profile"
            switch arrivalValue {
            case .poisson, .constant: break
            default:
                try check(
                    false, source, "changes the rate of poisson and constant arrivals, but clients.arrival is \(arrival)", also: "clients.arrival")
            }
        }
        try check(
            errorsPermanent + errorsServer + errorsAmbiguous <= 1, "server.errors.permanent",
            "the error shares add up to more than 1", also: "server.errors.server", "server.errors.ambiguous")
        try check(
            errorsAmbiguous == 0 || timeout != nil, "server.errors.ambiguous",
            "lost answers need a client timeout (clients.timeout), or their operations would wait forever", also: "clients.timeout")
        let errorWindow = try errorWindow(check: check)

        let serviceTime: Scenario.ServiceTime =
            switch service {
            case "deterministic": .deterministic
            case "lognormal": .lognormal(sigma: serviceSigma)
            case "pareto": .pareto(shape: serviceShape)
            default: .exponential
            }
        if service == "pareto" {
            try check(
                serviceShape > 1, "server.service_shape", "a Pareto service time needs a shape above 1 to have a mean (got \(serviceShape))",
                also: "server.service")
        }
        let model: Scenario.Model
        switch self.model {
        case "contention":
            model = .contention(.init(hop: Scenario.Delay(shape: .normal, mean: hopMean, spread: Double(hopSpread))))
        case "flaky":
            model = .flaky(.init(failure: flakyFailure, latency: flakyLatency))
        default:
            model = .queue(
                .init(
                    workers: workers, service: serviceTime, limit: queueLimit, dropExpired: dropExpired, lifo: discipline == "lifo",
                    shedRetryAfter: shedRetryAfter, congestion: congestion, rejectCost: rejectCost))
        }
        try check(
            rejectCost == 0 || self.model == "queue", "server.reject_cost",
            "needs server.model: queue (a \(self.model) server has no workers for a rejection to cost)", also: "server.model")
        var network: Scenario.Delay?
        if let latencyShape {
            try check(
                latencyMean > 0, "network.latency.mean", "must be more than 0 with a latency shape (or set network.latency.shape: none)",
                also: "network.latency.shape")
            network = Scenario.Delay(
                shape: latencyShape, mean: latencyMean,
                spread: latencyShape == .normal ? latencySpread * 1e9 : latencySpread)
        }
        let offline: Scenario.Offline? =
            offlineDuration > 0 && offlineFraction > 0
            ? .init(at: offlineAt, duration: offlineDuration, fraction: offlineFraction, nudge: offlineNudge) : nil
        let restart: Scenario.Restart? = restartAt.map { .init(at: $0, fraction: restartFraction) }
        if let restartAt {
            try check(restartAt < horizon, "clients.restart.at", "(\(Format.duration(restartAt))) is at or after the horizon", also: "horizon")
        }
        let rate: Scenario.RateLimit? = rateLimit.map { .init(rate: $0, burst: max(1, rateBurst), retryAfter: rateRetryAfter) }
        var scenario = Scenario(
            name: name, seed: seed, horizon: horizon, bucket: bucket,
            clients: .init(
                count: clientsCount, arrival: arrivalValue, timeout: timeout, connectTimeout: connectTimeout,
                backgroundFraction: background, hosts: hosts, offline: offline, restart: restart,
                credentialLifetime: credentialLifetime, deadline: deadline),
            server: .init(
                capacity: capacity, profile: profile, model: model,
                errors: .init(
                    permanent: errorsPermanent, serverError: errorsServer, ambiguous: errorsAmbiguous,
                    serverErrorStatus: errorsStatus == "503" ? .unavailable : .internalError, window: errorWindow),
                rateLimit: rate),
            policy: policy, network: network, load: load)
        scenario.warmup = warmup
        scenario.recoveryWindow = recoveryWindow
        scenario.stuckWindow = stuckWindow
        return scenario
    }

    /// The error window from `server.errors.at` and `server.errors.duration`: nil without `at`
    /// (the shares apply throughout), open to the end without a duration.
    func errorWindow(check: (Bool, String, String, String...) throws(ScenarioError) -> Void) throws(ScenarioError) -> Range<Nanoseconds>? {
        guard let errorsAt else {
            try check(
                errorsDuration == nil, "server.errors.duration", "needs server.errors.at (when the error window starts)", "server.errors.at")
            return nil
        }
        try check(
            errorsAt < horizon, "server.errors.at", "(\(Format.duration(errorsAt))) is at or after the horizon (\(Format.duration(horizon)))",
            "horizon")
        guard let errorsDuration else { return errorsAt..<Int64.max }
        try check(errorsDuration > 0, "server.errors.duration", "must be more than 0s (or none: until the end of the run)")
        return errorsAt..<Time.adding(errorsAt, errorsDuration)
    }

    /// The load over time from `load.profile`, `load.spike` or `load.csv` (one of them at most).
    func loadProfile(
        check: (Bool, String, String, String...) throws(ScenarioError) -> Void,
        at: (String...) -> SourceLocation, inputs: InputFiles
    ) throws(ScenarioError) -> LoadProfile {
        let given = [(!loadProfile.isEmpty, "load.profile"), (spikeDuration > 0, "load.spike.duration"), (loadCSV != nil, "load.csv")]
            .filter(\.0).map(\.1)
        if given.count > 1 {
            try check(false, given[1], "conflicts with \(given[0]): give the load over time one way (a profile, a spike or a CSV file)", given[0])
        }
        if !loadProfile.isEmpty { return LoadProfile(points: loadProfile) }
        if spikeDuration > 0 {
            try check(
                spikeAt < horizon, "load.spike.at", "(\(Format.duration(spikeAt))) is at or after the horizon (\(Format.duration(horizon)))",
                "horizon")
            return .spike(at: spikeAt, duration: spikeDuration, multiplier: spikeMultiplier)
        }
        if let loadCSV {
            return try inputs.loadProfile(loadCSV, setAt: at("load.csv"))
        }
        return .flat
    }

    /// The outage, brownout and periodic dips as one profile; they may not overlap.
    func capacityProfile(
        check: (Bool, String, String, String...) throws(ScenarioError) -> Void,
        at: (String...) -> SourceLocation, inputs: InputFiles
    ) throws(ScenarioError) -> CapacityProfile {
        if let capacityCSV {
            for (set, key) in [
                (outageDuration > 0, "server.outage.duration"), (brownoutDuration > 0, "server.brownout.duration"),
                (dipsEvery != nil, "server.dips.every")
            ] where set {
                try check(false, "server.capacity_csv", "replaces the outage, brownout and dips profile: remove \(key) or the CSV file", key)
            }
            return try inputs.capacityProfile(
                capacityCSV, key: scope + "server.capacity_csv", setAt: at("server.capacity_csv"), capacity: capacity, horizon: horizon)
        }
        var segments: [(CapacityProfile.Segment, String)] = []
        if outageDuration > 0 {
            try check(
                outageAt < horizon, "server.outage.at", "(\(Format.duration(outageAt))) is at or after the horizon (\(Format.duration(horizon)))",
                "horizon")
            let shape: CapacityProfile.Shape =
                switch outageRecovery {
                case "instant": .constant
                case "exponential": .exponential
                default: .linear
                }
            for s in CapacityProfile.outage(at: outageAt, duration: outageDuration, fraction: outageFraction, recovery: shape, ramp: outageRamp)
                .segments
            {
                segments.append((s, "server.outage"))
            }
        }
        if brownoutDuration > 0 {
            segments.append(
                (
                    .init(
                        start: brownoutAt, end: Time.adding(brownoutAt, brownoutDuration), from: brownoutFraction,
                        to: brownoutFraction, shape: .constant), "server.brownout"
                ))
        }
        if let every = dipsEvery {
            try check(
                dipsDuration > 0 && dipsDuration < every, "server.dips.duration",
                "(\(Format.duration(dipsDuration))) must be more than 0 and shorter than the period (\(Format.duration(every)))", "server.dips.every")
            try check(horizon / every <= 100_000, "server.dips.every", "makes more than 100,000 dips before the horizon")
            var t = dipsFrom
            while t < horizon {
                segments.append(
                    (.init(start: t, end: Time.adding(t, dipsDuration), from: dipsFraction, to: dipsFraction, shape: .constant), "server.dips"))
                t = Time.adding(t, every)
            }
        }
        segments.sort { $0.0.start < $1.0.start }
        for (a, b) in zip(segments, segments.dropFirst()) where a.0.end > b.0.start {
            try check(
                false, b.1 == "server.dips" ? "server.dips.from" : "\(b.1).at",
                "overlaps \(a.1) (\(Format.duration(a.0.start))–\(Format.duration(a.0.end))): capacity triggers may not overlap", a.1)
        }
        return CapacityProfile(segments: segments.map(\.0))
    }
}
