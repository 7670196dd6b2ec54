import Foundation
import RetryPolicy

/// When a retry budget drains, and how much retried load a drained budget still lets through
/// (docs/models.md, "Budgets"). Failures are taken as independent, each attempt failing with
/// probability f, every failure retried while the operation has attempts left:
/// R(f) = f + … + f^(k−1) retries and F(f) = f + … + f^k failed attempts per operation, 1 − f^k
/// of operations succeeding. Each budget belongs to one client and host (`owners` of them),
/// sending `load` first attempts per second between them.
package struct BudgetLaw: Sendable {
    /// The budget.
    package var budget: RetryBudget
    /// Attempts per operation, the first included.
    package var attempts: Int
    /// Budgets in the fleet: clients × hosts.
    package var owners: Double
    /// First attempts per second across the fleet.
    package var load: Double
    /// Seconds an attempt lasts when it fails (the timeout): how long Envoy's retry holds its slot.
    package var timeout: Double

    package init(budget: RetryBudget, attempts: Int, owners: Double, load: Double, timeout: Double) {
        self.budget = budget
        self.attempts = attempts
        self.owners = owners
        self.load = load
        self.timeout = timeout
    }

    /// First attempts per second of one budget's owner.
    var perOwner: Double { load / Swift.max(owners, 1) }

    /// R(f): retries per operation.
    /// In closed form, f·(1 − f^(k−1))/(1 − f): a policy may allow billions of attempts.
    func retries(_ f: Double) -> Double {
        let k = Double(Swift.max(1, attempts))
        if f >= 1 { return k - 1 }
        return f * (1 - pow(f, k - 1)) / (1 - f)
    }

    /// How far the budget falls per second at failure rate `f` (its tokens, or slots for
    /// Envoy's); positive when it drains. nil for budgets without a drift (none, per run).
    func drift(_ f: Double) -> Double? {
        let r = retries(f)
        let fk = pow(f, Double(attempts))
        switch budget {
        case .unlimited, .perRun:
            return nil
        case .tokenBucket(let b):
            return perOwner * r - b.refillPerSecond
        case .grpc(let g):
            // Every failed attempt takes 1, every successful RPC returns the ratio.
            return perOwner * ((r + fk) - Double(g.ratioMilliTokens) / 1000 * (1 - fk))
        case .aws(let q):
            // A retry takes the timeout cost; a success without retries returns the increment, one
            // after retries returns its last retry's cost; a final failure returns nothing.
            let cost = Double(q.timeoutCost)
            return perOwner * (cost * r - Double(q.noRetryIncrement) * (1 - f) - cost * (f - fk))
        case .ratio(let b):
            // Retries allowed per second: percentCanRetry of first attempts plus the reserve.
            return perOwner * r - (b.percentCanRetry * perOwner + b.minRetriesPerSecond)
        case .envoy(let e):
            // Retries outstanding against max(percent × active, minimum), every attempt lasting
            // the timeout (Little's law).
            let active = perOwner * (1 + r) * timeout
            return perOwner * r * timeout - Swift.max(e.percent * active, Double(e.minConcurrency))
        }
    }

    /// The failure rate in (0, 1] at which the budget starts to drain: the drift's root, found by
    /// bisection to 10⁻⁹ (the drift grows with f). nil when it never drains (the drift is ≤ 0 even
    /// when every attempt fails) or has no drift.
    package var drainFailureRate: Double? {
        guard let top = drift(1), top > 0 else { return nil }
        if let bottom = drift(0), bottom > 0 { return 0 }
        var lo = 0.0
        var hi = 1.0
        while hi - lo > 1e-9 {
            let mid = (lo + hi) / 2
            if (drift(mid) ?? 0) > 0 { hi = mid } else { lo = mid }
        }
        return hi
    }

    /// Retries per second the whole fleet's budgets still allow once drained: what keeps a
    /// retry-sustained overload fed (every attempt fails there). nil for no budget (no limit).
    package var drainedRetryRate: Double? { drainedRetryRate(atLoad: load) }

    /// ``drainedRetryRate`` with the fleet sending `load` first attempts per second.
    package func drainedRetryRate(atLoad load: Double) -> Double? {
        let perOwner = load / Swift.max(owners, 1)
        switch budget {
        case .unlimited: return nil
        case .perRun, .grpc, .aws: return 0
        case .tokenBucket(let b): return b.refillPerSecond * owners
        case .ratio(let b): return b.percentCanRetry * load + b.minRetriesPerSecond * owners
        case .envoy(let e):
            // Per owner, retries outstanding ≤ max(p · active, m) with active = (first + retries) · τ.
            let first = perOwner * timeout
            let byShare = e.percent < 1 ? e.percent * first / (1 - e.percent) : Double.infinity
            return Swift.max(byShare, Double(e.minConcurrency)) / timeout * owners
        }
    }
}
