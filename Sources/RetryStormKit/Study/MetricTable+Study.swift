extension MetricTable {
    /// Summarises `summaries` (rows as written) per point of `study` and metric, judged at the
    /// scenario's `focus` if it names one (one per study: every point has the base's).
    package init(
        study: Study, summaries: [SummaryRecord], populations: [PopulationRecord] = [], services: [ServiceRecord] = [],
        baseline: String? = nil
    ) {
        self.init(
            names: study.points.map(\.name), parameters: study.points.map(\.parameters),
            parameterPaths: study.parameterPaths, summaries: summaries, populations: populations, services: services,
            baseline: baseline)
        focus(on: study.points.first?.scenario.focus)
    }
}
