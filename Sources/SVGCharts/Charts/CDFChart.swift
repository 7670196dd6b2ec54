/// Cumulative distributions, e.g. time to success per retry policy, usually
/// over a logarithmic x axis.
///
/// Each series holds points (x, fraction ≤ x) in increasing x, such as
/// ``Series/empiricalCDF(name:samples:maxPoints:style:color:)`` builds; they
/// are drawn as step functions that hold each level until the next point.
/// The y axis always spans 0…1 (use ``Axis/Format/percent`` to label it
/// 0%…100%). On a log x axis, zero and negative x values are drawn at the
/// axis minimum; non-finite points are skipped.
///
/// ```swift
/// CDFChart(
///     title: "Time to success",
///     xAxis: Axis(label: "time to success", scale: .log, format: .duration),
///     yAxis: Axis(label: "requests", format: .percent),
///     series: [.empiricalCDF(name: "full jitter", samples: seconds)])
/// ```
@dynamicMemberLookup
public struct CDFChart: Chart {
    /// The title, axes, series, annotations and size, as a line chart holds them; `cdf.title` and
    /// the rest read and set them. Only the drawing differs: steps of a distribution on 0…1.
    /// Annotations are e.g. `.yReference(at: 0.99, label: "p99")` or an SLO `.xMarker`.
    public var parts: LineChart

    public init(
        title: String, subtitle: String? = nil,
        xAxis: Axis, yAxis: Axis = Axis(label: "fraction ≤ x"),
        series: [Series], annotations: [Annotation] = [], size: ChartSize = .standard
    ) {
        parts = LineChart(
            title: title, subtitle: subtitle, xAxis: xAxis, yAxis: yAxis, series: series,
            annotations: annotations, size: size)
    }

    public subscript<T>(dynamicMember part: WritableKeyPath<LineChart, T>) -> T {
        get { parts[keyPath: part] }
        set { parts[keyPath: part] = newValue }
    }

    public func svg() -> String {
        let (title, subtitle, xAxis, yAxis, series, annotations, size) =
            (parts.title, parts.subtitle, parts.xAxis, parts.yAxis, parts.series, parts.annotations, parts.size)
        let styled = StyledSeries.assign(series)
        var xValues = annotations.flatMap(\.xValues)
        for s in series {
            for p in s.points where p.x.isFinite && p.y.isFinite { xValues.append(p.x) }
        }
        var y = yAxis
        y.scale = .linear
        y.min = nil
        y.max = nil
        let items =
            styled.count > 1
            ? styled.map { LegendItem(label: $0.series.name, swatch: .line(color: $0.color, dash: $0.dash)) } : []
        let layout = CartesianLayout(
            size: size, subtitle: subtitle, xAxis: xAxis, yAxis: y, xValues: xValues,
            yValues: [], legendItems: items, forcedYDomain: (0, 1))
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        AnnotationRenderer.drawBands(annotations, x: layout.x, plot: layout.plot, into: &writer)
        layout.drawAxes(xLabel: xAxis.label, yLabel: yAxis.label, into: &writer)
        SeriesRenderer.drawCDF(styled, x: layout.x, y: layout.y, plot: layout.plot, into: &writer)
        AnnotationRenderer.drawOverlays(annotations, x: layout.x, y: layout.y, plot: layout.plot, into: &writer)
        layout.drawLegend(into: &writer)
        return writer.finish()
    }
}
