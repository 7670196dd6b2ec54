import RetryStormResults
import SVGCharts

/// What a sweep's charts show: one chart per metric — tune.json's objective and constrained
/// metrics; without tune.json, `tts_p99_s` and `peak_load_ratio` — and which constraints they
/// mark: tune.json's; without it, peak load at most nominal capacity (`peak_load_ratio ≤ 1`), the
/// design question of DESIGN.md.
struct SweepPlan {
    static let defaultMetrics = ["tts_p99_s", "peak_load_ratio"]
    static let defaultConstraints = [TuningChoice.Constraint(metric: "peak_load_ratio", max: 1)]

    let metrics: [String]
    let constraints: [TuningChoice.Constraint]

    init(_ tuning: TuningChoice?) {
        let available = MetricTable.metrics
        var wanted = tuning.map { t in [t.objective?.metric].compactMap { $0 } + t.constraints.map(\.metric) } ?? []
        if wanted.isEmpty { wanted = Self.defaultMetrics }
        var metrics: [String] = []
        for m in wanted where available.contains(m) && !metrics.contains(m) { metrics.append(m) }
        if metrics.isEmpty { metrics = Self.defaultMetrics }
        self.metrics = metrics
        constraints = tuning.map(\.constraints).flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultConstraints
    }

    /// The constraints on `metric`.
    func constraints(on metric: String) -> [TuningChoice.Constraint] { constraints.filter { $0.metric == metric } }

    /// "peak load / capacity ≤ 1× and gave up ≤ 100".
    static func text(_ constraints: [TuningChoice.Constraint]) -> String {
        constraints.map { c in
            let info = MetricCatalog.info(c.metric)
            switch (c.min, c.max) {
            case let (low?, high?): return "\(bound(low, info)) ≤ \(info.label) ≤ \(bound(high, info))"
            case let (low?, nil): return "\(info.label) ≥ \(bound(low, info))"
            case let (nil, high?): return "\(info.label) ≤ \(bound(high, info))"
            case (nil, nil): return info.label
            }
        }.joined(separator: " and ")
    }

    /// A bound as people read it: "2 s", "5%", "3.3×", "160".
    static func bound(_ x: Double, _ info: MetricInfo) -> String {
        switch info.kind {
        case .seconds: UniformFormat.fitting([x], format: .duration, scale: .log).stringWithUnit(x)
        case .fraction: NumberFormat.percent(x, maxFractionDigits: 3)
        case .ratio: NumberFormat.compact(x) + (info.unit == "×" ? "×" : "")
        case .count: NumberFormat.compact(x)
        }
    }
}
