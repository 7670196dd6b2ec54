import RetryStormEngine
import RetryStormResults
import SVGCharts

/// "Requests per user operation by service": where the storm lands in a call graph. For each
/// service, in the scenario's order, each variant's mean over replications of services.csv's
/// `requests_per_operation` with its 95% interval, against the service's level when nothing fails
/// (``levelsWithoutFailures(_:)``, a dashed segment in its slot where every drawn variant has the
/// same). Only for call graphs.
///
/// Nothing is starred: fewer requests downstream can come from giving up sooner, so each
/// variant's label carries its lost share instead.
package enum ServiceAmplificationChart {
    static let fileName = "amplification_services.svg"
    /// Variants drawn at most: a dot per variant side by side in each service's slot, told apart by
    /// the palette's eight colours and marker shapes.
    static let maxVariants = 8

    static func build(_ context: ChartContext) -> NamedChart? {
        let records = context.run.results.services
        guard !records.isEmpty else { return nil }
        let names = context.run.metrics.names
        let drawn = Array(names.prefix(maxVariants))
        let amplification = ServiceAmplification(records, points: drawn, scenario: context.run.scenario(for:))
        var services: [String] = []
        for r in amplification.rows where !services.contains(r.service) { services.append(r.service) }
        let levels = drawn.map { levelsWithoutFailures(context.run.scenario(for: $0)) }
        let categories = services.map { service in
            DotPlot.Category(
                name: service,
                estimates: drawn.map { point in
                    amplification.rows.first { $0.point == point && $0.service == service }.map { Estimate($0.perOperationInterval) }
                },
                reference: Set(levels.map { $0[service] }).count == 1 ? levels.first?[service] ?? nil : nil)
        }
        let counts = amplification.rows.map(\.perOperationInterval.count)
        let values: [Double] = categories.flatMap { $0.estimates.compactMap { $0?.value } } + categories.compactMap(\.reference)
        let log = ChartContext.spansDecade(values)
        var parts = [context.replicationsText(counts)]
        if counts.contains(where: { $0 > 1 }) { parts.append("whiskers: 95% CI") }
        if names.count > drawn.count { parts.append("first \(drawn.count) of \(names.count) variants") }
        if context.isComparison { parts.append("each variant with its share of user operations lost") }
        var chart = DotPlot(
            title: context.title("Requests per user operation by service"),
            subtitle: parts.filter { !$0.isEmpty }.joined(separator: " · "),
            categoryLabel: "service (callers first)",
            valueAxis: Axis(
                label: log ? "requests per user operation (log scale)" : "requests per user operation", scale: log ? .log : .linear,
                includesZero: !log),
            series: context.isComparison ? drawn.map { "\($0) (\(context.lostText($0)))" } : ["requests per user operation"],
            categories: categories,
            highlight: nil, highlightLabel: "")
        chart.categoryReferenceLabel = "when nothing fails"
        let caption =
            "Where the storm lands: how many requests one user operation puts on each service, with 95% intervals, against its level when nothing fails (dashed: each caller's level times its calls per request). A service far above its own level is where retries multiply; read each variant beside the share it lost, since giving up sooner also sends fewer requests."
        return NamedChart(fileName: fileName, chart: chart, caption: caption)
    }

    /// Each service's requests per user operation when nothing fails, by name: 1 at the first
    /// service (each user operation's first attempt), and at every other the sum over its callers
    /// of the caller's level times the calls each of its requests makes to it (`count`). Calls go
    /// down the list, so one pass in the scenario's order is enough. Retries, hedged copies and
    /// status queries are what failures (and slowness) add above it.
    package static func levelsWithoutFailures(_ scenario: RetryStormEngine.Scenario) -> [String: Double] {
        var level = [Double](repeating: 0, count: scenario.services.count)
        guard !level.isEmpty else { return [:] }
        level[0] = 1
        for (k, service) in scenario.services.enumerated() {
            for call in service.calls where call.to < level.count { level[call.to] += level[k] * Double(call.count) }
        }
        return Dictionary(uniqueKeysWithValues: zip(scenario.services.map(\.name), level))
    }
}
