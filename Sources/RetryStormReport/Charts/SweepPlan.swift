import RetryStormResults
import SVGCharts

/// What a sweep's charts show: one chart per metric — tune.json's objective and constrained
/// metrics; without tune.json, `tts_p99_s` and `peak_load_ratio` — and which constraints they
/// mark: tune.json's; without it, peak load at most nominal capacity (`peak_load_ratio ≤ 1`), the
/// design question of DESIGN.md.
struct SweepPlan {
    static let defaultMetrics: [Metric] = [.ttsP99, .peakLoadRatio]
    static let defaultConstraints = [TuningChoice.Constraint(metric: .peakLoadRatio, max: 1)]

    let metrics: [Metric]
    let constraints: [TuningChoice.Constraint]

    init(_ tuning: TuningChoice?) {
        let available = MetricTable.metrics
        var wanted = tuning.map { t in [t.objective?.metric].compactMap { $0 } + t.constraints.map(\.metric) } ?? []
        if wanted.isEmpty { wanted = Self.defaultMetrics }
        var metrics: [Metric] = []
        for m in wanted where available.contains(m) && !metrics.contains(m) { metrics.append(m) }
        if metrics.isEmpty { metrics = Self.defaultMetrics }
        self.metrics = metrics
        constraints = tuning.map(\.constraints).flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultConstraints
    }

    /// The constraints on `metric`.
    func constraints(on metric: Metric) -> [TuningChoice.Constraint] { constraints.filter { $0.metric == metric } }

    /// "peak load / capacity ≤ 1× and gave up ≤ 100".
    static func text(_ constraints: [TuningChoice.Constraint]) -> String {
        constraints.map { c in
            switch (c.min, c.max) {
            case (let low?, let high?): return "\(bound(low, c.metric)) ≤ \(c.metric.label) ≤ \(bound(high, c.metric))"
            case (let low?, nil): return "\(c.metric.label) ≥ \(bound(low, c.metric))"
            case (nil, let high?): return "\(c.metric.label) ≤ \(bound(high, c.metric))"
            case (nil, nil): return c.metric.label
            }
        }.joined(separator: " and ")
    }

    /// A bound as people read it: "2 s", "5%", "3.3×", "160".
    static func bound(_ x: Double, _ metric: Metric) -> String {
        switch metric.kind {
        case .seconds: UniformFormat.fitting([x], format: .duration, scale: .log).stringWithUnit(x)
        case .fraction: NumberFormat.percent(x, maxFractionDigits: 3)
        case .ratio: NumberFormat.compact(x) + (metric.unit == "×" ? "×" : "")
        case .count: NumberFormat.compact(x)
        }
    }
}
