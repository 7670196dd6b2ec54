/// A metric column of a results file: the metric (``Metric``: its name, format, …) and where its
/// value comes from in what one row describes (a replication's summary, a population's or a
/// service's result). Each record type lists its columns; the facts about them are the catalogue's.
struct MetricColumn<Source>: Sendable {
    let metric: Metric
    let value: @Sendable (Source) -> Double

    init(_ metric: Metric, _ value: @escaping @Sendable (Source) -> Double) {
        self.metric = metric
        self.value = value
    }
}
