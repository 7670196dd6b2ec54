/// Several series over a shared linear (or log) x axis, with optional
/// annotations: outage bands, event markers and reference lines.
///
/// ```swift
/// LineChart(
///     title: "Offered load during a 30 s outage",
///     xAxis: Axis(label: "time (s)"),
///     yAxis: Axis(label: "requests per second", includesZero: true),
///     series: [Series(name: "attempts", x: t, y: rps, style: .step)],
///     annotations: [.xInterval(from: 60, to: 90, label: "outage 60–90 s")])
/// ```
/// A legend is drawn below the plot when there is more than one series.
public struct LineChart: Chart {
    public var title: String
    public var subtitle: String?
    public var xAxis: Axis
    public var yAxis: Axis
    public var series: [Series]
    public var annotations: [Annotation]
    public var size: ChartSize

    public init(
        title: String, subtitle: String? = nil, xAxis: Axis, yAxis: Axis,
        series: [Series], annotations: [Annotation] = [], size: ChartSize = .standard
    ) {
        self.title = title
        self.subtitle = subtitle
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.series = series
        self.annotations = annotations
        self.size = size
    }

    public func svg() -> String {
        let styled = StyledSeries.assign(series)
        var xValues = annotations.flatMap(\.xValues)
        var yValues = annotations.flatMap(\.yValues)
        for s in series {
            let points =
                s.style == .step
                ? SeriesRenderer.finiteRuns(s.points).flatMap(SeriesRenderer.stepPoints)
                : s.points
            for p in points where p.x.isFinite && p.y.isFinite {
                xValues.append(p.x)
                yValues.append(p.y)
            }
            // Area fills reach down to zero; keep zero in view.
            if s.style == .area { yValues.append(0) }
        }
        let layout = CartesianLayout(
            size: size, subtitle: subtitle, xAxis: xAxis, yAxis: yAxis, xValues: xValues, yValues: yValues,
            legendItems: styled.count > 1 ? styled.map(\.legendItem) : [])
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        AnnotationRenderer.drawBands(annotations, x: layout.x, plot: layout.plot, into: &writer)
        layout.drawAxes(xLabel: xAxis.label, yLabel: yAxis.label, into: &writer)
        SeriesRenderer.draw(styled, x: layout.x, y: layout.y, plot: layout.plot, into: &writer)
        AnnotationRenderer.drawOverlays(annotations, x: layout.x, y: layout.y, plot: layout.plot, into: &writer)
        layout.drawLegend(into: &writer)
        return writer.finish()
    }
}
