import RetryStormResults

/// Guards that bite: a finding per point (and population) where a retry budget, a breaker, the
/// adaptive throttle or a concurrency limit refused most of the retries wanted (``GuardRefusals``,
/// the same list `run`, `compare`, `sweep` and `tune` warn of on stderr). A tune speaks of its
/// recommendation only; a long list is cut to ``GuardRefusals/shown`` and counted.
extension Findings {
    static func guards(_ d: ReportData) -> [String] {
        var points: [String]?
        if d.run.results.kind == .tune { points = d.run.results.tune?.recommendation.map { [$0.variant] } ?? [] }
        return GuardRefusals.lines(GuardRefusals.find(d.table, results: d.run.results, loaded: d.run.scenario, points: points)).map {
            capitalized($0) + "."
        }
    }
}
