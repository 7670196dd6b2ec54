import RetryStormResults
import SVGCharts

/// A chart with the file name it is written to in a run directory, and what a reader should look
/// at in it (the report's caption).
public struct NamedChart: Sendable {
    /// E.g. `load.svg`.
    public var fileName: String
    public var chart: any Chart
    /// One or two sentences: what to look at, e.g. "How high the offered load climbs above
    /// capacity during the outage, and how soon it falls back."
    public var caption: String

    public init(fileName: String, chart: any Chart, caption: String) {
        self.fileName = fileName
        self.chart = chart
        self.caption = caption
    }
}
