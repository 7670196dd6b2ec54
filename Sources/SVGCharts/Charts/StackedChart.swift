/// Series stacked on each other, e.g. first attempts and retries over time,
/// so the top edge shows the total and each band one component.
///
/// Series are aligned by exact x value: a series without a point at some x
/// contributes 0 there, as do non-finite and negative values (stacking
/// only makes sense for non-negative parts of a whole). The first series
/// is the bottom band. Each series' own `style` is ignored; `style` applies
/// to all bands. Colours follow the palette unless a series sets one.
public struct StackedChart: Chart {
    public enum Style: Sendable, Equatable {
        /// Straight lines between points.
        case area
        /// Per time bucket: each value spans [x_i, x_{i+1}); the last bucket
        /// is as wide as the one before it.
        case step
    }

    public var title: String
    public var subtitle: String?
    public var xAxis: Axis
    public var yAxis: Axis
    public var series: [Series]
    public var style: Style
    public var annotations: [Annotation]
    public var size: ChartSize

    public init(
        title: String, subtitle: String? = nil, xAxis: Axis, yAxis: Axis, series: [Series],
        style: Style = .step, annotations: [Annotation] = [], size: ChartSize = .standard
    ) {
        self.title = title
        self.subtitle = subtitle
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.series = series
        self.style = style
        self.annotations = annotations
        self.size = size
    }

    public func svg() -> String {
        let stack = Stack(series: series)
        let colors = series.enumerated().map { $1.color ?? Palette.color(at: $0) }
        var xValues = stack.xs + annotations.flatMap(\.xValues)
        if style == .step, let end = stack.stepEnd { xValues.append(end) }
        let yValues = [0] + (stack.cumulative.last ?? []) + annotations.flatMap(\.yValues)
        var y = yAxis
        y.includesZero = true
        let items =
            series.count > 1
            ? zip(series, colors).map { LegendItem(label: $0.name, swatch: .box(color: $1)) } : []
        let layout = CartesianLayout(
            size: size, subtitle: subtitle, xAxis: xAxis, yAxis: y, xValues: xValues,
            yValues: yValues, legendItems: items)
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        layout.drawAxes(xLabel: xAxis.label, yLabel: yAxis.label, into: &writer)
        drawBands(stack, colors: colors, layout: layout, into: &writer)
        // Outage bands go over the data here: stacked fills would hide them.
        AnnotationRenderer.drawBands(annotations, x: layout.x, plot: layout.plot, into: &writer)
        AnnotationRenderer.drawOverlays(annotations, x: layout.x, y: layout.y, plot: layout.plot, into: &writer)
        layout.drawLegend(into: &writer)
        return writer.finish()
    }

    private func drawBands(_ stack: Stack, colors: [Color], layout: CartesianLayout, into writer: inout SVGWriter) {
        guard !stack.xs.isEmpty else { return }
        let plot = layout.plot
        for (i, upper) in stack.cumulative.enumerated() {
            let lower = i == 0 ? [Double](repeating: 0, count: upper.count) : stack.cumulative[i - 1]
            let top = boundary(upper, stack: stack, layout: layout)
            let bottom = boundary(lower, stack: stack, layout: layout)
            let outline = top + bottom.reversed()
            writer.element(
                "path",
                [
                    ("d", Geometry.pathData(Geometry.simplify(outline)) + "Z"), ("fill", colors[i].hex),
                    ("fill-opacity", "0.85"),
                    ("stroke", "none")
                ])
            SeriesRenderer.drawPolyline(top, color: colors[i], dash: "", plot: plot, into: &writer)
        }
    }

    /// Pixel boundary of one cumulative level, clamped to the plot. A single
    /// x gets a 6 px wide column so it stays visible.
    private func boundary(_ levels: [Double], stack: Stack, layout: CartesianLayout) -> [PixelPoint] {
        var data: [DataPoint] = []
        for (j, x) in stack.xs.enumerated() {
            data.append(DataPoint(x: x, y: levels[j]))
            if style == .step {
                let end = j + 1 < stack.xs.count ? stack.xs[j + 1] : (stack.stepEnd ?? x)
                data.append(DataPoint(x: end, y: levels[j]))
            }
        }
        var pixels = data.map {
            SeriesRenderer.clampToPlot(
                SeriesRenderer.pixel($0, x: layout.x, y: layout.y, plot: layout.plot),
                layout.plot)
        }
        if stack.xs.count == 1, let p = pixels.first {
            pixels = [PixelPoint(x: p.x - 3, y: p.y), PixelPoint(x: p.x + 3, y: p.y)]
        }
        return pixels
    }
}
