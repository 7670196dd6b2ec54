import Foundation
import GSLSupport
import RetryPolicy
import RetryStormEngine
import RetryStormResults
import RetryStormScenario
import RetryStormVocabulary

/// A guard that bites: a retry budget, a breaker failing fast, the adaptive throttle or a
/// concurrency limit refusing most of the retries one point (variant, grid point) or one of its
/// populations wanted to send — ``Metric/retriesRefusedFraction`` above ``GuardRefusals/threshold``.
/// The report's findings and the warning of `run`, `compare`, `sweep` and `tune` say it, with the
/// cause where it is computable: a per-client ratio budget whose clients send too few requests in
/// its window to ever save up one retry.
public struct GuardRefusal: Sendable, Equatable {
    public var point: String
    /// The population, nil for the whole fleet.
    public var population: String?
    /// The share of the retries wanted that guards refused, over replications.
    public var share: ConfidenceInterval
    /// Which guard: "the retry budget", "gRPC retry throttling", "the breaker", …
    public var guardName: String
    /// Why, when it is computable: "at 0.015 req/s per client a 10% budget never fills (…)".
    public var cause: String?
    /// "the retry budget refused 99.99% (±0.01) of the retries of population new (variant base)"
    /// followed by ": cause" when there is one.
    public var sentence: String

    public init(point: String, population: String?, share: ConfidenceInterval, guardName: String, cause: String?, sentence: String) {
        self.point = point
        self.population = population
        self.share = share
        self.guardName = guardName
        self.cause = cause
        self.sentence = sentence
    }
}

public enum GuardRefusals {
    /// "Most retries": a guard refusing more than this share of the retries wanted is reported.
    /// Half is where the guard, not the server, decides what most failed operations get — the
    /// budget a platform team sized to trim a storm's tail is then the policy.
    public static let threshold = 0.5

    /// Every point of `table` (and each of its populations) whose mean refused share is above
    /// ``threshold``, in the table's order (the fleet first, then populations in file order).
    /// A scenario with populations is reported per population only: the fleet's share mixes them.
    /// - Parameters:
    ///   - results: the rows `table` was computed from: each point's and population's clients (a
    ///     `--vary` on a population's share changes them) for the cause's rate per client.
    ///   - scenarios: each point's scenario by name, when known (the command that ran the study);
    ///     otherwise a declared variant's, a grid point's, or the base (a `--vary` point's policy is
    ///     then the base's).
    ///   - points: the points to look at (nil: every point of `table`).
    public static func find(
        _ table: MetricTable, results: StudyResults, loaded: LoadedScenario, scenarios: [String: Scenario] = [:],
        points: [String]? = nil
    ) -> [GuardRefusal] {
        var out: [GuardRefusal] = []
        let populations = table.populationNames
        let several = table.names.count > 1
        for (i, name) in table.names.enumerated() where points?.contains(name) ?? true {
            let scenario = scenarios[name] ?? Self.scenario(of: i, table, loaded)
            if populations.isEmpty {
                let clients = results.summaries.first { $0.variant == name }?.clients ?? scenario.clients.count
                if let r = refusal(table, point: name, population: nil, clients: clients, scenario: scenario, several: several) {
                    out.append(r)
                }
                continue
            }
            for p in populations {
                guard let own = table.populations[p],
                    let clients = results.populations.first(where: { $0.variant == name && $0.population == p })?.clients,
                    let r = refusal(own, point: name, population: p, clients: clients, scenario: scenario, several: several)
                else { continue }
                out.append(r)
            }
        }
        return out
    }

    /// The scenario point `i` of `table` ran: a variant's, a grid point's (the base with the
    /// point's swept values), else the base.
    static func scenario(of i: Int, _ table: MetricTable, _ loaded: LoadedScenario) -> Scenario {
        if let v = loaded.variants.first(where: { $0.name == table.names[i] }) { return v.scenario }
        if !table.parameterPaths.isEmpty, i < table.parameters.count,
            let s = try? loaded.scenario(
                applying: zip(table.parameterPaths, table.parameters[i]).map { (path: $0, value: $1) }, source: "grid")
        {
            return s
        }
        return loaded.base
    }

    /// At most this many refusals are said one by one; the rest are counted.
    public static let shown = 3

    /// The sentences of `refusals`: the first ``shown``, then how many more there are.
    /// Refusals of one guard, for one population, with one cause, at several points are said
    /// once, with the points listed ("… of population v2 at share=10%, share=25% and share=50%:
    /// cause"): the same sentence three times says nothing the first did not.
    public static func lines(_ refusals: [GuardRefusal]) -> [String] {
        var groups: [[GuardRefusal]] = []
        for r in refusals {
            if let i = groups.firstIndex(where: { $0[0].guardName == r.guardName && $0[0].population == r.population && $0[0].cause == r.cause }) {
                groups[i].append(r)
            } else {
                groups.append([r])
            }
        }
        var lines = groups.prefix(shown).map { $0.count == 1 ? $0[0].sentence : grouped($0) }
        let left = groups.dropFirst(shown).reduce(0) { $0 + $1.count }
        if left > 0 {
            let more = left
            lines.append(
                "guards refused most retries at \(more) more point\(more == 1 ? "" : "s") or population\(more == 1 ? "" : "s") (see retries_refused_fraction)"
            )
        }
        return lines
    }

    /// One sentence for refusals that differ only in their point: the shares as a range, the
    /// points listed (the first four, then how many more).
    static func grouped(_ group: [GuardRefusal]) -> String {
        let first = group[0]
        let f = ColumnFormat(metric: .retriesRefusedFraction, values: group.map(\.share))
        let lo = group.map(\.share.mean).min() ?? .nan
        let hi = group.map(\.share.mean).max() ?? .nan
        let shares = f.number(lo) == f.number(hi) ? f.text(lo) : "from \(f.text(lo)) to \(f.text(hi))"
        let points = group.map(\.point)
        let listed =
            points.count > 5
            ? points.prefix(4).joined(separator: ", ") + " and \(points.count - 4) more"
            : points.dropLast().joined(separator: ", ") + " and " + (points.last ?? "")
        let whose = first.population.map { "population \($0) at " } ?? ""
        return "\(first.guardName) refused \(shares) of the retries of \(whose)\(listed)" + (first.cause.map { ": " + $0 } ?? "")
    }

    /// The refusal at `point` of `table` (the fleet's or one population's), if above the threshold.
    static func refusal(
        _ table: MetricTable, point: String, population: String?, clients: Int, scenario: Scenario, several: Bool
    ) -> GuardRefusal? {
        guard let share = table.interval(point, .retriesRefusedFraction), share.mean > threshold,
            let refused = table.interval(point, .retriesRefused)?.mean, refused > 0
        else { return nil }
        let budgetShare = (table.interval(point, .budgetDenied)?.mean ?? 0) / refused
        let spec = population.flatMap { p in scenario.populations.first { $0.name == p } }
        let policy = spec?.policy ?? scenario.policy
        let name = budgetShare >= 0.5 ? budgetName(policy.budget) : otherGuards(policy)
        var cause: String?
        if budgetShare >= 0.5, let operations = table.interval(point, .operations)?.mean {
            cause = Self.cause(
                policy.budget, operations: operations, clients: clients, hosts: scenario.clients.hosts,
                seconds: Double(scenario.horizon) / 1e9)
        }
        let f = ColumnFormat(metric: .retriesRefusedFraction, values: [share])
        let whose: String
        switch (population, several) {
        case (let p?, true): whose = "population \(p) (\(point))"
        case (let p?, false): whose = "population \(p)"
        case (nil, true): whose = point
        case (nil, false): whose = "the run"
        }
        let sentence = "\(name) refused \(f.quote(share)) of the retries of \(whose)" + (cause.map { ": " + $0 } ?? "")
        return GuardRefusal(point: point, population: population, share: share, guardName: name, cause: cause, sentence: sentence)
    }

    static func budgetName(_ budget: RetryBudget) -> String {
        switch budget {
        case .grpc: "gRPC retry throttling"
        case .aws: "the retry quota"
        default: "the retry budget"
        }
    }

    /// The guards other than the budget that refuse (rather than delay) in `policy`.
    static func otherGuards(_ policy: RetryPolicy) -> String {
        var names: [String] = []
        if let b = policy.breaker, b.whenOpen == .reject { names.append("the breaker") }
        if policy.throttle != nil { names.append("the adaptive throttle") }
        if let c = policy.concurrency, c.whenFull == .reject { names.append("the concurrency limit") }
        if names.isEmpty { return "the guards" }
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// Why a ratio budget refuses: each client's requests in the budget's window deposit too little
    /// to pay for one retry. A retry takes `1 / percent` requests' deposits (Finagle's withdrawal of
    /// `1000 / percent` against 1000 a request), so a client's balance reaches one retry only when
    /// `rate × ttl × percent + minRetriesPerSecond × ttl ≥ 1`, rate being its requests per second
    /// (per host it calls). Nil for another budget, or when the balance does reach one retry on average.
    package static func cause(_ budget: RetryBudget, operations: Double, clients: Int, hosts: Int, seconds: Double) -> String? {
        guard case .ratio(let f) = budget, clients > 0, seconds > 0, f.percentCanRetry > 0 else { return nil }
        let rate = operations / Double(clients) / seconds / Double(max(1, hosts))
        let ttl = Double(f.ttl) / 1e9
        let retries = rate * ttl * f.percentCanRetry + f.minRetriesPerSecond * ttl
        guard retries < 1 else { return nil }
        let perClient = hosts > 1 ? "per client and host" : "per client"
        // Two significant digits of a measured rate: 0.00998 and 0.01 req/s are the same finding.
        let r = significant(rate, digits: 2)
        return "at \(r) req/s \(perClient) a \(significant(f.percentCanRetry * 100))% budget never fills"
            + " (\(r) req/s × \(significant(ttl)) s window × \(significant(f.percentCanRetry * 100))%"
            + (f.minRetriesPerSecond > 0 ? " + the reserve" : "") + " = \(significant(retries, digits: 2)) of the one retry it must save up)"
    }

    /// `digits` significant digits (three by default), trailing zeros dropped: 0.015, 120, 0.18.
    static func significant(_ x: Double, digits: Int = 3) -> String {
        guard x.isFinite, x != 0 else { return x == 0 ? "0" : "\(x)" }
        let places = max(0, digits - 1 - Int((log10(abs(x))).rounded(.down)))
        var s = Format.fixed(x, places)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
}
