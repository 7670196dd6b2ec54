import RetryStormResults
import RetryStormScenario
import RetryStormVocabulary

/// The text a study prints and keeps as `table.txt`: the same for a run and for its merged shards,
/// and free of paths and wall-clock figures, so it is as reproducible as the CSVs.
public enum StudyReport {
    package static func text(kind: StudyKind, loaded: LoadedScenario, metrics: MetricTable) -> String {
        let base = loaded.base
        switch kind {
        case .run:
            let title = "\(base.name): \(Format.grouped(Int64(base.clients.count))) clients, seed \(base.seed)"
            return SummaryTable.render(title: title, metrics: metrics, point: metrics.names.first ?? "base")
        case .compare:
            return StudyTable.render(title: "\(base.name): \(metrics.names.count) variants, seed \(base.seed)", metrics: metrics)
        case .sweep, .tune:
            let title = "\(base.name): \(metrics.names.count) grid points over \(metrics.parameterPaths.joined(separator: " × ")), seed \(base.seed)"
            return StudyTable.render(title: title, metrics: metrics)
        }
    }
}
