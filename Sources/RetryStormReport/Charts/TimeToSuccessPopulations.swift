import GSLSupport
import RetryStormResults
import SVGCharts

/// "Time to success by population": ``TimeToSuccessPoints`` per population — for each drawn
/// variant and population, the mean over replications of its p50 and p99 among successes
/// (populations.csv's `tts_success_p50_s`, `tts_success_p99_s`; a dot plot has no place for
/// "never") with their 95% intervals, each labelled with the share that population lost (gave up,
/// blocked or unfinished), since the successes alone leave out what it lost. Only for scenarios
/// with populations; populations of no clients are left out.
enum TimeToSuccessPopulations {
    static let fileName = "tts_populations.svg"
    static let metrics: [Metric] = [.ttsSuccessP50, .ttsSuccessP99]

    static func build(_ context: ChartContext) -> NamedChart? {
        let table = context.run.metrics
        let records = context.run.results.populations
        guard !table.populationNames.isEmpty else { return nil }
        // A population with clients somewhere (a rollout stage at 0% has no operations to time).
        let populations = table.populationNames.filter { p in records.contains { $0.population == p && $0.clients > 0 } }
        let lost = ColumnFormat(metric: .lostFraction, values: [])
        var replications: [Int] = []
        var categories: [DotPlot.Category] = []
        var total = 0
        for name in table.names {
            for p in populations {
                guard let own = table.populations[p], records.contains(where: { $0.variant == name && $0.population == p && $0.clients > 0 })
                else { continue }
                total += 1
                guard categories.count < ChartContext.maxCategories else { continue }
                let share = own.lostShares(name).map { Statistics.mean($0.values) }.map { "\(lost.text($0)) lost" } ?? "lost: n/a"
                let label = (context.isComparison ? "\(name) · \(p)" : p) + " (\(share))"
                categories.append(DotPlot.Category(name: label, estimates: own.estimates(name, metrics, replications: &replications)))
            }
        }
        guard !categories.isEmpty else { return nil }
        let values = categories.flatMap { $0.estimates.compactMap { $0?.value } }
        let log = ChartContext.spansDecade(values)
        var parts = ["successful operations only", context.replicationsText(replications)]
        if replications.contains(where: { $0 > 1 }) { parts.append("whiskers: 95% CI") }
        if !values.contains(where: \.isFinite) { parts.append("no operation succeeded") }
        if total > categories.count { parts.append("first \(categories.count) of \(total)") }
        let chart = DotPlot(
            title: context.title("Time to success by population, among successes"),
            subtitle: parts.joined(separator: " · "),
            categoryLabel: context.isComparison ? "variant · population" : "population",
            valueAxis: Axis(
                label: log ? "time to success (log scale)" : "time to success", scale: log ? .log : .linear,
                format: .duration, includesZero: !log),
            series: ["p50", "p99"], categories: categories, highlight: nil, highlightLabel: "")
        let caption =
            "Median and 99th-percentile time to success of each population, with 95% intervals: lower is faster, but only successes count, so read each beside the share that population lost."
        return NamedChart(fileName: fileName, chart: chart, caption: caption)
    }
}
