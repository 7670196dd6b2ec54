import RetryStormResults
import SVGCharts

/// "Peak load": per variant, the largest offered load in one second over nominal capacity
/// (`peak_load_ratio`) and, where the run has it, the largest bucket's offered load over the
/// capacity at that moment (`peak_overload`, which an outage makes the larger), each a point with its 95% interval
/// (``MetricTable``), against a line at 1× capacity: the spike after an outage, compared.
///
/// The ★ goes by ``BestMarks`` on `peak_load_ratio` (``ChartStar``).
enum PeakLoadChart {
    static let fileName = "peak_load.svg"

    static func build(_ context: ChartContext) -> NamedChart {
        // A call graph's spike is judged where its storm lands: at its focus (``FocusService``).
        let focus = context.run.metrics.focus
        let table = focus.flatMap { context.run.metrics.services[$0.name] } ?? context.run.metrics
        let at = focus.map { " at \($0.name)" } ?? ""
        let points = Array(table.names.indices.prefix(ChartContext.maxCategories))
        let star = ChartStar(table, metric: .peakLoadRatio, among: Array(table.names.indices), meaning: "lowest peak load\(at)")
        let overload = showsOverload(table, points: points)
        let metrics: [Metric] = overload ? [.peakLoadRatio, .peakOverload] : [.peakLoadRatio]
        var replications: [Int] = []
        let categories = points.map { p in
            let name = table.names[p]
            return DotPlot.Category(
                name: star.label(name, point: p),
                estimates: table.estimates(name, metrics, replications: &replications))
        }
        let values: [Double] = categories.flatMap { $0.estimates.compactMap { $0?.value } } + [1]
        // The outage can push the overload to tens of times capacity beside a ratio of 2 or 3:
        // a log axis keeps both readable (points, so no length has to mean anything).
        let log = ChartContext.spansDecade(values, factor: 20)
        var parts = [context.replicationsText(replications)]
        if replications.contains(where: { $0 > 1 }) { parts.append("whiskers: 95% CI") }
        if !star.subtitle.isEmpty { parts.append(star.subtitle) }
        if table.names.count > points.count { parts.append("first \(points.count) of \(table.names.count) variants") }
        let chart = DotPlot(
            title: context.title("Peak load\(at)"),
            subtitle: parts.filter { !$0.isEmpty }.joined(separator: " · "),
            categoryLabel: context.isComparison ? "variant" : "",
            valueAxis: Axis(
                label: log ? "peak offered load (× capacity, log scale)" : "peak offered load (× capacity)",
                scale: log ? .log : .linear, includesZero: !log),
            series: overload ? ["over nominal capacity", "over capacity at the time"] : ["over nominal capacity"],
            categories: categories,
            references: [DotPlot.Reference(value: 1, label: "capacity 1×")],
            highlight: star.single.flatMap { s in points.firstIndex(of: s).map { categories[$0].name } },
            highlightLabel: "★ \(star.meaning)")
        var caption = "The spike: each variant's largest offered load\(at) in one second as a multiple of nominal capacity"
        if overload { caption += ", and in one bucket as a multiple of the capacity left at that moment" }
        caption += ", with 95% intervals. Above the 1× line the \(focus == nil ? "server" : "service") is overloaded."
        if let focus { caption += " " + Findings.capitalized(StudyTable.focusLine(focus, names: table.names)) + "." }
        if !star.sentence.isEmpty { caption += " " + star.sentence }
        return NamedChart(fileName: fileName, chart: chart, caption: caption)
    }

    /// Whether `peak_overload` adds anything: some variant has it (it is NaN without a bucket
    /// with capacity) and it differs from the ratio to nominal capacity (it equals it when
    /// capacity never drops).
    static func showsOverload(_ table: MetricTable, points: [Int]) -> Bool {
        points.contains { p in
            let name = table.names[p]
            guard let overload = table.interval(name, .peakOverload)?.mean, overload.isFinite else { return false }
            return overload != table.interval(name, .peakLoadRatio)?.mean
        }
    }
}
