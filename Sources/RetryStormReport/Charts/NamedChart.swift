import RetryStormResults
import RetryStormScenario
import SVGCharts

/// A chart with the file name it is written to in a run directory.
public struct NamedChart: Sendable {
    /// E.g. `load.svg`.
    public var fileName: String
    public var chart: any Chart

    public init(fileName: String, chart: any Chart) {
        self.fileName = fileName
        self.chart = chart
    }
}
