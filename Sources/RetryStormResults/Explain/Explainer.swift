@_spi(Simulation) import RetryPolicy
import RetryStormEngine

/// Builds a scenario's ``Explanation`` from the laws, in well under a second: checks where the
/// laws hold, then applies ``ServerLaw``, ``FluidModel``, ``CollapseLaw`` and ``BudgetLaw``.
package enum Explainer {
    /// The laws of `scenario` (its base; a variant is a scenario of its own). Without `scan`, the
    /// trigger law judges the scenario's own trigger only, leaving out the scan of lengths that
    /// finds the tipping interval (most of the time: about 0.3 s of metastable.yaml's).
    package static func explain(_ scenario: Scenario, scan: Bool = true) -> Explanation {
        let policy = scenario.policy
        let budgetLaw = budgetLaw(scenario)
        let budget = budgetSection(budgetLaw)
        var warnings: [String] = []
        var services: [Explanation.Service] = []
        if scenario.services.count > 1 {
            for s in scenario.services {
                services.append(blank(s.name, scenario, reason: "a call graph: the laws are those of one server its clients call directly"))
            }
        } else {
            let name = scenario.services.first?.name ?? "server"
            var service = blank(name, scenario, reason: reason(scenario))
            if service.reason == nil, case .queue(let q) = scenario.server.model {
                let law = ServerLaw(
                    capacity: scenario.server.capacity, workers: q.workers, congestion: Double(q.congestion) / 1e9,
                    room: q.limit.map { Double($0 + q.workers) } ?? .infinity)
                fill(&service, law: law, queue: q, scenario: scenario, policy: policy, budget: budgetLaw, scan: scan)
                if service.load >= law.peakRate {
                    warnings.append(
                        "the baseline is unstable: \(Explanation.rate(service.load)) of first attempts against the \(Explanation.rate(law.peakRate)) the server can serve, before any trigger"
                    )
                }
                if let t = service.trigger, t.drainsAfterHorizon, !t.tips {
                    warnings.append(
                        "the trigger does not tip the server, but its backlog drains \(t.drainTime.map { "\(Explanation.seconds($0)) after it, " } ?? "more than an hour after the horizon, ")after the horizon: a run says stuck at the horizon, where it is recovering slowly"
                    )
                }
            }
            services.append(service)
        }
        return Explanation(scenario: scenario.name, services: services, budget: budget, warnings: warnings)
    }

    /// First attempts per second across the fleet at the load's base (0 for a fleet that is not
    /// an open-loop rate).
    static func firstAttemptLoad(_ scenario: Scenario) -> Double {
        switch scenario.clients.arrival {
        case .poisson(let r, _, _), .constant(let r, _, _): return r * Double(scenario.clients.count)
        default: return 0
        }
    }

    /// Attempts an operation makes when every attempt times out. The fluid model keeps a cohort
    /// per attempt, so more than 1,000 count as 1,000: past that many, an operation's retries
    /// outlast any trigger the laws judge.
    static func attempts(_ policy: RetryPolicy) -> Int {
        policy.classifier.retryTimeouts || policy.classifier.retryEverything ? Swift.min(Swift.max(1, policy.maxAttempts), 1000) : 1
    }

    /// An entry with the scenario's figures and no law yet.
    static func blank(_ name: String, _ scenario: Scenario, reason: String?) -> Explanation.Service {
        Explanation.Service(
            name: name, reason: reason, load: firstAttemptLoad(scenario), capacity: scenario.server.capacity,
            timeout: scenario.clients.timeout.map { Double($0) / 1e9 } ?? .infinity, attempts: attempts(scenario.policy))
    }

    /// Why the laws of one retrying FIFO server serving abandoned work do not describe the
    /// scenario, or nil when they do. The first reason found.
    static func reason(_ s: Scenario) -> String? {
        let p = s.policy
        guard case .queue(let q) = s.server.model else { return "the server is not a queue (server.model)" }
        if !s.populations.isEmpty { return "populations with policies of their own" }
        if q.lifo { return "a LIFO queue serves the newest request first" }
        if q.dropExpired { return "the server drops expired requests rather than serve abandoned work: drop_expired" }
        if q.rejectCost > 0 { return "refusals cost work (reject_cost)" }
        if s.clients.timeout == nil { return "the clients have no timeout: no attempt is abandoned" }
        if firstAttemptLoad(s) <= 0 { return "the clients are not an open-loop rate: clients.arrival is neither poisson nor constant" }
        if s.server.rateLimit != nil { return "a rate limit at the server's door" }
        if s.server.errors.any { return "an error mix (server.errors)" }
        if s.network != nil { return "network latency" }
        if s.clients.offline != nil || s.clients.restart != nil || s.clients.credentialLifetime != nil {
            return "offline windows, restarts or expiring credentials"
        }
        if s.clients.deadline != nil || p.maxElapsed != nil || p.coolOff != nil { return "a deadline, maximum elapsed time or cool-off" }
        if p.hedging != nil { return "hedging" }
        if p.breaker != nil { return "a circuit breaker" }
        if p.throttle != nil { return "an adaptive throttle" }
        if p.concurrency != nil { return "a concurrency limit" }
        return nil
    }

    /// Fills in the sustain, trigger and collapse laws of a server where the laws hold.
    static func fill(
        _ service: inout Explanation.Service, law: ServerLaw, queue: Scenario.QueueModel, scenario: Scenario, policy: RetryPolicy,
        budget: BudgetLaw, scan: Bool
    ) {
        let k = service.attempts
        let tau = service.timeout
        let critical = law.criticalBacklog(timeout: tau)
        guard critical <= law.room else {
            service.reason = "the queue's limit holds fewer requests than the critical backlog: the wait never reaches the timeout"
            return
        }
        // The bad state's retries: every attempt but the last of each operation, as far as a
        // drained budget lets them through.
        func sent(_ load: Double) -> Double { load + Swift.min(Double(k - 1) * load, budget.drainedRetryRate(atLoad: load) ?? .infinity) }
        // S falls with the backlog under congestion (and is flat without): slowest at the room.
        let slowest = Swift.min(law.rate(critical), law.rate(law.room))
        // The load whose bad state sends exactly what the server serves there: attempts sent
        // grow with the load, so bisect (S/k without a budget).
        var lo = 0.0
        var hi = slowest
        while hi - lo > slowest * 1e-12 {
            let mid = (lo + hi) / 2
            if sent(mid) >= slowest { hi = mid } else { lo = mid }
        }
        service.sustain = Explanation.Sustain(
            maxFirstAttemptLoad: hi, criticalBacklog: critical, retriedLoad: sent(service.load), slowestRate: slowest)
        let backoff = policy.backoff.kind != .none && k > 1
        switch (backoff, policy.budget) {
        case (true, _): service.triggerReason = "backoff spreads the retries; the trigger law retries at once"
        case (false, .unlimited): triggerLaw(&service, law: law, scenario: scenario, scan: scan)
        default: service.triggerReason = "a retry budget; the trigger law retries without one"
        }
        if backoff {
            service.collapseReason = service.triggerReason
        } else if queue.workers != 1 || queue.service != .exponential {
            service.collapseReason = "the collapse law needs one worker with exponential service"
        } else if budget.budget != .unlimited {
            service.collapseReason = "a retry budget; the collapse law retries without one"
        } else {
            if let t = CollapseLaw.meanTime(server: law, load: service.load, timeout: tau, attempts: k) {
                service.collapse = Explanation.Collapse(meanTime: t)
            } else {
                service.collapseReason = "the critical backlog is over a million requests (not computed)"
            }
        }
    }

    /// The trigger law: the fluid model through the scenario's own trigger, and the critical length
    /// of a trigger of its depth.
    static func triggerLaw(_ service: inout Explanation.Service, law: ServerLaw, scenario: Scenario, scan: Bool) {
        guard let (start, end) = scenario.trigger else {
            service.triggerReason = "no trigger"
            return
        }
        guard end < Nanoseconds.max else {
            service.triggerReason = "the trigger never ends"
            return
        }
        var fluid = FluidModel(
            server: law, load: service.load, timeout: service.timeout, attempts: service.attempts, capacity: scenario.server.profile,
            loadProfile: scenario.load)
        switch scenario.clients.arrival {
        case .poisson(_, let a, let b), .constant(_, let a, let b): fluid.window = (Double(a) / 1e9, Double(b) / 1e9)
        default: break
        }
        let sustained = service.sustain?.persists ?? false
        let horizon = Double(scenario.horizon) / 1e9
        let s = Double(start) / 1e9
        let e = Double(end) / 1e9
        let run = fluid.run(until: Swift.max(horizon, e) + 3600, triggerEnd: e, sustained: sustained)
        let drain: Double? =
            run.stuck || (run.end >= Swift.max(horizon, e) + 3600 && run.lastTimeout != nil) ? nil : Swift.max((run.lastTimeout ?? e) - e, 0)
        var trigger = Explanation.Trigger(
            what: describe(scenario, start: start), duration: e - s, criticalDuration: nil, longestTipping: nil, tips: run.stuck, drainTime: drain,
            timesOut: run.lastTimeout != nil, horizonLeft: horizon - e)
        // An unstable baseline tips with any trigger or none: nothing to scan.
        if scan, service.load < law.peakRate, let step = stepLength(scenario, start: start), sustained,
            let (a, b) = tippingLengths(fluid, start: s, original: step, horizon: horizon, end: e)
        {
            trigger.criticalDuration = a
            trigger.longestTipping = b
        }
        service.trigger = trigger
    }

    /// The lengths of a trigger of the scenario's depth that tip the fluid: the first interval
    /// of a scan of lengths from 50 ms to four times the trigger's or the horizon (5% apart),
    /// its ends refined by bisection to a millisecond or 10⁻⁴ of them. The upper end is nil when
    /// the longest length scanned still tips. nil when no length scanned tips.
    ///
    /// Tipping need not grow with the length: a trigger long enough to fill the queue has its
    /// refusals end operations at once, before they can time out and retry, and then leaves too
    /// few retries behind to hold the backlog.
    static func tippingLengths(_ base: FluidModel, start: Double, original: Double, horizon: Double, end: Double) -> (Double, Double?)? {
        func tips(_ length: Double) -> Bool {
            var f = base
            // Operations keep starting after the horizon: the question is the trigger's, not the run's.
            f.window.until = .infinity
            f.stretch = (start, original, length)
            let triggerEnd = end - original + length
            // Each of the scan's runs (at most 230) gets a twentieth of the budget of the
            // scenario's own, over the two minutes (or 20 attempts' timeouts) after the trigger
            // that decide stuck or drained: the whole scan stays well under a second.
            let until = triggerEnd + Swift.min(3600, Swift.max(120, 20 * Double(base.attempts) * base.timeout))
            let budget = 1e6
            return f.run(until: until, triggerEnd: triggerEnd, sustained: true, budget: budget).stuck
        }
        func refine(_ a: Double, _ b: Double, tipsAtB: Bool) -> Double {
            var lo = a
            var hi = b
            while hi - lo > Swift.max(0.001, hi * 1e-4) {
                let mid = (lo + hi) / 2
                if tips(mid) == tipsAtB { hi = mid } else { lo = mid }
            }
            return tipsAtB ? hi : lo
        }
        let longest = Swift.min(Swift.max(4 * original, horizon - start), 3600)
        var previous = 0.0
        var length = 0.05
        var first: Double?
        while length <= longest * 1.05 {
            let t = tips(length)
            if first == nil, t {
                first = previous == 0 ? length : refine(previous, length, tipsAtB: true)
            } else if let a = first, !t {
                return (a, refine(previous, length, tipsAtB: false))
            }
            previous = length
            length *= 1.05
        }
        return first.map { ($0, nil) }
    }

    /// The length of the trigger's first level when the trigger starts with one step (a capacity
    /// drop to a constant fraction, or a load step), else nil: only such a trigger has a length to vary.
    static func stepLength(_ scenario: Scenario, start: Nanoseconds) -> Double? {
        let segments = scenario.server.profile.segments
        let load = scenario.load
        if let first = segments.first, first.start == start, first.shape == .constant || first.from == first.to, load.isFlat {
            return Double(first.end - first.start) / 1e9
        }
        if segments.isEmpty, load.points.count == 4, load.points[1].time == start, load.points[1].multiplier == load.points[2].multiplier {
            return Double(load.points[2].time - start) / 1e9
        }
        return nil
    }

    /// "a drop to 10% of capacity", "the load at ×3", or "the trigger".
    static func describe(_ scenario: Scenario, start: Nanoseconds) -> String {
        if let first = scenario.server.profile.segments.first, first.start == start {
            return "a drop to \(Explanation.percent(first.from)) of capacity"
        }
        if scenario.load.points.count > 1 {
            return "the load at ×\(Explanation.number(scenario.load.peak))"
        }
        return "the trigger"
    }

    /// The clients' budgets: one per client and host.
    static func budgetLaw(_ scenario: Scenario) -> BudgetLaw {
        let p = scenario.policy
        let owners = Double(scenario.clients.count) * Double(Swift.max(1, scenario.clients.hosts))
        return BudgetLaw(
            budget: p.budget, attempts: attempts(p), owners: owners, load: firstAttemptLoad(scenario),
            timeout: scenario.clients.timeout.map { Double($0) / 1e9 } ?? 0)
    }

    /// The clients' budget and when it drains.
    static func budgetSection(_ law: BudgetLaw) -> Explanation.Budget {
        var note: String?
        switch law.budget {
        case .unlimited: note = "no retry budget"
        case .perRun(let n): note = "drains after its \(n) retries per run, at any failure rate"
        default: if law.drainFailureRate == nil { note = "never drains: it allows every retry even when every attempt fails" }
        }
        return Explanation.Budget(
            kind: law.budget.kindName, drainFailureRate: law.drainFailureRate, drainedRetryRate: law.drainedRetryRate, note: note)
    }
}
