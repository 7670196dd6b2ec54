import Foundation
import RetryPolicy
import RetryStormEngine

/// What users and the server S see of one replication, for comparing a policy run at the clients
/// (clients → S) with the same policy run on an edge behind a pass-through proxy
/// (single-attempt clients → P → S). See `EdgeParityTests`.
struct ParityOutcome {
    /// The users' operations.
    var operations: Double
    /// Operations that succeeded, or were confirmed applied by a status query.
    var succeeded: Double
    /// Operations lost: gave up or blocked.
    var lost: Double
    /// Mean time to success of those that succeeded (or were confirmed), seconds.
    var ttsMean: Double
    /// The 1,001 quantiles (levels 0, 0.001, …, 1) of the success times, seconds.
    var ttsQuantiles: [Double]
    /// First attempts + retries (hedged copies included), as counted for S.
    var attemptsAtS: Double
    /// Copies in flight abandoned because another copy outran them.
    var abandoned: Double
    /// Retries a guard refused (`retriesRefused`: the clients', or S's as its caller counts them).
    var retriesRefused: Double
    /// Status queries sent.
    var queries: Double
    /// Attempts that reached the service the clients call, whose door checks their credentials:
    /// S in (a), P in (b).
    var attemptsAtDoor: Double
    /// Retries as counted for S (hedged copies included).
    var retriesAtS: Double

    /// (a) clients → S: everything from the clients' summary (S is the only server).
    init(clients r: ReplicationResult) {
        let s = r.summary
        operations = Double(s.operations)
        succeeded = Double(s.succeeded + s.confirmed)
        lost = Double(s.gaveUp + s.blocked)
        ttsMean = s.ttsSuccessMean
        ttsQuantiles = r.ttsQuantiles
        attemptsAtS = Double(s.firstAttempts + s.retries)
        abandoned = Double(s.abandoned)
        retriesRefused = Double(s.retriesRefused)
        queries = Double(s.queries)
        attemptsAtDoor = attemptsAtS
        retriesAtS = Double(s.retries)
    }

    /// (b) clients → P → S: user outcomes from the clients' summary, S's counts from its
    /// per-service result (`services[1]`: the calls' attempts and outcomes as P's edge counts them).
    init(edge r: ReplicationResult) {
        let s = r.summary
        let back = r.services[1]
        operations = Double(s.operations)
        succeeded = Double(s.succeeded + s.confirmed)
        lost = Double(s.gaveUp + s.blocked)
        ttsMean = s.ttsSuccessMean
        ttsQuantiles = r.ttsQuantiles
        attemptsAtS = Double(back.total(.firstAttempts) + back.total(.retries))
        abandoned = Double(back.total(.abandoned))
        retriesRefused = Double(back.retriesRefused)
        queries = Double(back.total(.queries))
        attemptsAtDoor = Double(s.firstAttempts + s.retries)
        retriesAtS = Double(back.total(.retries))
    }

    /// The standard deviation of the success times, from their quantiles (each level carries
    /// 1/1001 of the mass): a floor for the mean's standard error.
    var ttsSD: Double {
        let q = ttsQuantiles
        guard q.count > 1 else { return 0 }
        let m = q.reduce(0, +) / Double(q.count)
        return (q.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(q.count - 1)).squareRoot()
    }

    /// The share of success times at or below `t` (from the quantiles): [strictly below, at or below].
    func successShare(atMost t: Double) -> (low: Double, high: Double) {
        let below = ttsQuantiles.filter { $0 < t }.count
        let atMost = ttsQuantiles.filter { $0 <= t }.count
        let n = Double(ttsQuantiles.count - 1)
        return (max(0, Double(below) - 1) / n, min(1, Double(atMost) / n))
    }
}

/// One metric of the comparison: both sides' values, their difference and the bound it must stay within.
struct ParityMetric: CustomStringConvertible {
    let name: String
    let clients: Double
    let edge: Double
    let bound: Double
    var difference: Double { edge - clients }
    var holds: Bool { abs(difference) <= bound }
    var description: String {
        func f(_ x: Double) -> String { String(format: "%.5g", x) }
        return "\(name): clients \(f(clients)), edge \(f(edge)), diff \(f(difference)), bound ±\(f(bound))\(holds ? "" : "  FAILS")"
    }
}

/// The comparison of replications of (a) and (b).
///
/// Bounds. The two runs draw different random streams (P takes its own draws, and S's arrivals
/// come through P), so each metric differs by sampling noise, and each bound is 4 standard errors
/// of the difference of the two sides' estimates (two-sided, about 6 in 100,000 under a normal
/// approximation). Each standard error is the larger of:
/// - the replication spread: sd(values over the R replications of a side)/√R, combined in
///   quadrature for the two sides; it covers whatever makes operations dependent within a run
///   (queueing, a shared budget, a token bucket);
/// - an independent-operations floor, so that a run whose replications happen to agree cannot
///   make the bound vanish: for a per-operation quantity in [lo, hi] with mean μ, the
///   Bhatia–Davis inequality Var ≤ (hi − μ)(μ − lo) (a share in [0, 1]: the binomial
///   μ(1 − μ)); for the mean time to success, the success times' standard deviation (from the
///   quantiles); each over the side's pooled count, combined in quadrature. μ is kept 1/N away from
///   the ends, so that two sides that are exactly 0 still get a bound of one operation's worth.
/// The percentile is compared through the distribution: the edge's share of success times at or
/// below the clients' p90 must be 0.9 within 4 × √(0.09 (1/Sₐ + 1/S_b)) (the order statistic's
/// binomial standard error, both sides' sampling), plus the quantile grid's 0.001.
struct ParityComparison: CustomStringConvertible {
    let name: String
    let a: [ParityOutcome]
    let b: [ParityOutcome]
    let z = 4.0

    init(_ name: String, clients a: [ParityOutcome], edge b: [ParityOutcome]) {
        self.name = name
        self.a = a
        self.b = b
    }

    static func meanSD(_ xs: [Double]) -> (mean: Double, sd: Double) {
        let m = xs.reduce(0, +) / Double(xs.count)
        guard xs.count > 1 else { return (m, 0) }
        return (m, (xs.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(xs.count - 1)).squareRoot())
    }

    /// The replications' standard error of the difference of `value`'s mean over the two sides.
    func replicationSE(_ value: (ParityOutcome) -> Double) -> Double {
        let sa = Self.meanSD(a.map(value)).sd
        let sb = Self.meanSD(b.map(value)).sd
        return (sa * sa / Double(a.count) + sb * sb / Double(b.count)).squareRoot()
    }

    /// A per-operation quantity `count / operations` in [lo, hi] (see the type's comment).
    func perOperation(_ name: String, _ count: (ParityOutcome) -> Double, in lo: Double, _ hi: Double) -> ParityMetric {
        let na = a.reduce(0) { $0 + $1.operations }
        let nb = b.reduce(0) { $0 + $1.operations }
        let ma = a.reduce(0) { $0 + count($1) } / na
        let mb = b.reduce(0) { $0 + count($1) } / nb
        let eps = (hi - lo) / (na + nb)
        let mu = min(max((ma * na + mb * nb) / (na + nb), lo + eps), hi - eps)
        let floor = ((hi - mu) * (mu - lo) * (1 / na + 1 / nb)).squareRoot()
        let spread = replicationSE { count($0) / $0.operations }
        return ParityMetric(name: name, clients: ma, edge: mb, bound: z * max(floor, spread))
    }

    var succeeded: ParityMetric { perOperation("share succeeded", \.succeeded, in: 0, 1) }
    var lost: ParityMetric { perOperation("share lost", \.lost, in: 0, 1) }
    func attempts(max m: Int) -> ParityMetric { perOperation("attempts at S per operation", \.attemptsAtS, in: 1, Double(m)) }
    func abandoned(max m: Int) -> ParityMetric { perOperation("abandoned copies per operation", \.abandoned, in: 0, Double(m)) }
    func refused(max m: Int) -> ParityMetric { perOperation("retries refused per operation", \.retriesRefused, in: 0, Double(m)) }
    func attemptsAtDoor(max m: Int) -> ParityMetric {
        perOperation("attempts at the clients' service per operation", \.attemptsAtDoor, in: 1, Double(m))
    }

    /// The mean time to success (seconds), pooled over replications, plus `slack` (seconds) for
    /// what P adds on purpose (its own service time).
    func ttsMean(slack: Double = 0) -> ParityMetric {
        let sa = a.reduce(0) { $0 + $1.succeeded }
        let sb = b.reduce(0) { $0 + $1.succeeded }
        let ma = a.reduce(0) { $0 + $1.ttsMean * $1.succeeded } / sa
        let mb = b.reduce(0) { $0 + $1.ttsMean * $1.succeeded } / sb
        let da = Self.meanSD(a.map(\.ttsSD)).mean
        let db = Self.meanSD(b.map(\.ttsSD)).mean
        let floor = (da * da / max(sa, 1) + db * db / max(sb, 1)).squareRoot()
        let spread = replicationSE(\.ttsMean)
        return ParityMetric(name: "mean time to success (s)", clients: ma, edge: mb, bound: z * max(floor, spread) + slack)
    }

    /// The clients' p90 of success times against the edge's (for the report), and the edge's
    /// share of success times at or below the clients' p90 (the checked metric, see the type).
    var p90: (clients: Double, edge: Double, share: ParityMetric) {
        let sa = a.reduce(0) { $0 + $1.succeeded }
        let sb = b.reduce(0) { $0 + $1.succeeded }
        var lows: [Double] = []
        var highs: [Double] = []
        for (x, y) in zip(a, b) {
            let (lo, hi) = y.successShare(atMost: x.ttsQuantiles[900])
            lows.append(lo)
            highs.append(hi)
        }
        let lo = Self.meanSD(lows)
        let hi = Self.meanSD(highs)
        let floor = (0.09 * (1 / max(sa, 1) + 1 / max(sb, 1))).squareRoot()
        let spread = max(lo.sd, hi.sd) / Double(lows.count).squareRoot()
        let bound = z * max(floor, spread) + 0.001
        // Within the bound when 0.9 lies in [low − bound, high + bound]: report the distance to that interval.
        let edgeShare = 0.9 < lo.mean ? lo.mean : 0.9 > hi.mean ? hi.mean : 0.9
        let metric = ParityMetric(name: "edge's share of success times ≤ the clients' p90", clients: 0.9, edge: edgeShare, bound: bound)
        let pa = Self.meanSD(a.map { $0.ttsQuantiles[900] }).mean
        let pb = Self.meanSD(b.map { $0.ttsQuantiles[900] }).mean
        return (pa, pb, metric)
    }

    var description: String {
        let ops = (a.reduce(0) { $0 + $1.operations }, b.reduce(0) { $0 + $1.operations })
        let q = (a.reduce(0) { $0 + $1.queries }, b.reduce(0) { $0 + $1.queries })
        let p = p90
        return "[\(name)] \(a.count)+\(b.count) replications, operations clients \(Int(ops.0)) edge \(Int(ops.1)); "
            + "status queries clients \(Int(q.0)) edge \(Int(q.1)); p90 of success (s): clients \(String(format: "%.5g", p.clients)), "
            + "edge \(String(format: "%.5g", p.edge))"
    }
}
