import RetryStormResults
import SVGCharts

/// "Requests per user operation by service": where the storm lands in a call graph. For each
/// service, in the scenario's order, each variant's mean over replications of services.csv's
/// `requests_per_operation` with its 95% interval, against a line at 1 (one request per user
/// operation). Only for call graphs.
///
/// Nothing is starred: fewer requests downstream can come from giving up sooner, so each
/// variant's label carries its lost share instead.
enum ServiceAmplificationChart {
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
        let categories = services.map { service in
            DotPlot.Category(
                name: service,
                estimates: drawn.map { point in
                    amplification.rows.first { $0.point == point && $0.service == service }.map { Estimate($0.perOperationInterval) }
                })
        }
        let counts = amplification.rows.map(\.perOperationInterval.count)
        let values: [Double] = categories.flatMap { $0.estimates.compactMap { $0?.value } } + [1]
        let log = ChartContext.spansDecade(values)
        var parts = [context.replicationsText(counts)]
        if counts.contains(where: { $0 > 1 }) { parts.append("whiskers: 95% CI") }
        if names.count > drawn.count { parts.append("first \(drawn.count) of \(names.count) variants") }
        if context.isComparison { parts.append("each variant with its share of user operations lost") }
        let chart = DotPlot(
            title: context.title("Requests per user operation by service"),
            subtitle: parts.filter { !$0.isEmpty }.joined(separator: " · "),
            categoryLabel: "service (callers first)",
            valueAxis: Axis(
                label: log ? "requests per user operation (log scale)" : "requests per user operation", scale: log ? .log : .linear,
                includesZero: !log),
            series: context.isComparison ? drawn.map { "\($0) (\(context.lostText($0)))" } : ["requests per user operation"],
            categories: categories,
            references: [DotPlot.Reference(value: 1, label: "1 per user operation")],
            highlight: nil, highlightLabel: "")
        let caption =
            "Where the storm lands: how many requests one user operation puts on each service, with 95% intervals. A service far above the one that calls it is where retries multiply; read each variant beside the share it lost, since giving up sooner also sends fewer requests."
        return NamedChart(fileName: fileName, chart: chart, caption: caption)
    }
}
