extension MetricTable {
    /// Summarises `summaries` (rows as written) per point of `study` and metric.
    package init(
        study: Study, summaries: [SummaryRecord], populations: [PopulationRecord] = [], services: [ServiceRecord] = [],
        baseline: String? = nil
    ) {
        self.init(
            names: study.points.map(\.name), parameters: study.points.map(\.parameters),
            parameterPaths: study.parameterPaths, summaries: summaries, populations: populations, services: services,
            baseline: baseline)
    }
}
