import RetryStormResults
import RetryStormVocabulary
import SVGCharts

extension Metric {
    /// The axis format for charts of this metric.
    package var axisFormat: Axis.Format {
        switch kind {
        case .seconds: .duration
        case .fraction: .percent
        case .count, .ratio: .number
        }
    }
}
