/// One line chart per variant, laid out in a grid with identical axis
/// ranges so panels compare at a glance.
///
/// A series keeps the same colour in every panel: colours are assigned by
/// series name in order of first appearance, and one legend below the grid
/// explains them (drawn when there is more than one distinct name). Y tick
/// labels appear on the left column only; x tick labels under every panel
/// (under the bottom panel of each column when rows would get too short).
public struct SmallMultiples: Chart {
    /// One variant: a titled set of series.
    public struct Panel: Sendable, Equatable {
        public var title: String
        public var series: [Series]
        /// Annotations for this panel only.
        public var annotations: [Annotation]

        public init(title: String, series: [Series], annotations: [Annotation] = []) {
            self.title = title
            self.series = series
            self.annotations = annotations
        }
    }

    public var title: String
    public var subtitle: String?
    public var xAxis: Axis
    public var yAxis: Axis
    public var panels: [Panel]
    /// Annotations repeated in every panel, e.g. the shared outage window.
    public var annotations: [Annotation]
    /// Columns in the grid; nil chooses about √n (n ≤ 3 in a single row).
    public var columns: Int?
    public var size: ChartSize

    public init(
        title: String, subtitle: String? = nil, xAxis: Axis, yAxis: Axis, panels: [Panel],
        annotations: [Annotation] = [], columns: Int? = nil, size: ChartSize = .standard
    ) {
        self.title = title
        self.subtitle = subtitle
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.panels = panels
        self.annotations = annotations
        self.columns = columns
        self.size = size
    }

    package static let panelTitleHeight = 20.0
    package static let columnGap = 18.0
    package static let rowGap = 10.0
    /// Shortest panel (px) worth x tick labels under every row.
    package static let minPanelHeight = 60.0

    public func svg() -> String {
        // Colour by name, in order of first appearance (no dictionary, so
        // the order is the input's).
        var names: [String] = []
        var firsts: [Series] = []
        for panel in panels {
            for s in panel.series where !names.contains(s.name) {
                names.append(s.name)
                firsts.append(s)
            }
        }
        func styled(_ s: Series) -> StyledSeries {
            StyledSeries.style(s, index: names.firstIndex(of: s.name) ?? 0, count: names.count)
        }
        let legendItems = names.count > 1 ? firsts.map { styled($0).legendItem } : []

        var xValues = annotations.flatMap(\.xValues)
        var yValues = annotations.flatMap(\.yValues)
        for panel in panels {
            xValues += panel.annotations.flatMap(\.xValues)
            yValues += panel.annotations.flatMap(\.yValues)
            for s in panel.series {
                let points =
                    s.style == .step
                    ? SeriesRenderer.finiteRuns(s.points).flatMap(SeriesRenderer.stepPoints) : s.points
                for p in points where p.x.isFinite && p.y.isFinite {
                    xValues.append(p.x)
                    yValues.append(p.y)
                }
                if s.style == .area { yValues.append(0) }
            }
        }

        let count = max(1, panels.count)
        let columnCount = max(1, min(count, columns ?? Self.defaultColumns(count)))
        let rowCount = (count + columnCount - 1) / columnCount
        let padding = Theme.padding
        let top = Header.bottom(subtitle: subtitle, width: size.width)
        let legend = Legend(items: legendItems, maxWidth: size.width - 2 * padding, maxHeight: size.height * 0.3)
        let legendBlock = legend.isEmpty ? 0 : legend.height + 6
        let xLabelBlock = xAxis.hasTitle ? AxisRenderer.xAxisLabelHeight : 0
        let gridBottom = size.height - padding * 0.75 - legendBlock - xLabelBlock
        let rows = Double(rowCount)
        func panelHeight(labelsUnderEveryRow: Bool) -> Double {
            let perRow = Self.panelTitleHeight + (labelsUnderEveryRow ? AxisRenderer.xTickLabelHeight : 0)
            let bottomLabels = labelsUnderEveryRow ? 0 : AxisRenderer.xTickLabelHeight
            return (gridBottom - top - rows * perRow - bottomLabels - (rows - 1) * Self.rowGap) / rows
        }
        // x tick labels under every panel, unless that leaves panels too
        // short to read: then under the bottom panel of each column only
        // (the axes are shared anyway).
        var labelsUnderEveryRow = true
        var plotHeight = panelHeight(labelsUnderEveryRow: true)
        if rowCount > 1, plotHeight < Self.minPanelHeight {
            labelsUnderEveryRow = false
            plotHeight = panelHeight(labelsUnderEveryRow: false)
        }
        plotHeight = max(20, plotHeight)
        let perRow = Self.panelTitleHeight + (labelsUnderEveryRow ? AxisRenderer.xTickLabelHeight : 0)
        let y = yAxis.resolve(values: yValues, pixelLength: plotHeight, horizontal: false, fontSize: Theme.tickSize)
        let yLabelBlock = yAxis.hasTitle ? AxisRenderer.yAxisLabelWidth : 0
        let left = padding + yLabelBlock + y.maxLabelWidth(fontSize: Theme.tickSize) + Theme.tickGap
        let columnsD = Double(columnCount)
        func resolveX(gap: Double) -> (ResolvedAxis, Double) {
            let width = max(20, (size.width - padding - left - (columnsD - 1) * gap) / columnsD)
            return (
                xAxis.resolve(values: xValues, pixelLength: width, horizontal: true, fontSize: Theme.tickSize),
                width
            )
        }
        var (x, plotWidth) = resolveX(gap: Self.columnGap)
        // The last x label of one panel and the first of the next meet in
        // the gap between them; widen it when they would touch.
        var columnGap = Self.columnGap
        if columnCount > 1, let first = x.ticks.first(where: { !$0.label.isEmpty }),
            let last = x.ticks.last(where: { !$0.label.isEmpty })
        {
            func half(_ tick: Tick) -> Double { TextMetrics.width(tick.label, fontSize: Theme.tickSize) / 2 }
            let overhangRight = x.fraction(last.value) > 0.999 ? half(last) : 0
            let overhangLeft = x.fraction(first.value) < 0.001 ? half(first) : 0
            let needed = overhangRight + overhangLeft + 12
            if needed > columnGap {
                columnGap = needed
                (x, plotWidth) = resolveX(gap: columnGap)
            }
        }

        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        var plots: [Rect] = []
        for (index, panel) in panels.enumerated() {
            let row = Double(index / columnCount)
            let column = Double(index % columnCount)
            let plot = Rect(
                x: left + column * (plotWidth + columnGap),
                y: top + row * (perRow + plotHeight + Self.rowGap) + Self.panelTitleHeight,
                width: plotWidth, height: plotHeight)
            plots.append(plot)
            let panelAnnotations = annotations + panel.annotations
            let heading = TextMetrics.truncate(
                panel.title, maxWidth: plot.width / TextMetrics.boldFactor,
                fontSize: Theme.panelTitleSize)
            Text.draw(
                heading, x: plot.minX, y: plot.minY - 7, size: Theme.panelTitleSize, fill: Ink.title,
                weight: "600", into: &writer)
            AnnotationRenderer.drawBands(panelAnnotations, x: x, plot: plot, into: &writer)
            AxisRenderer.drawGrid(x: x, y: y, plot: plot, into: &writer)
            AxisRenderer.drawAxisLines(plot: plot, into: &writer)
            if labelsUnderEveryRow || index + columnCount >= panels.count {
                AxisRenderer.drawXTickLabels(x, plot: plot, into: &writer)
            }
            if index % columnCount == 0 { AxisRenderer.drawYTickLabels(y, plot: plot, into: &writer) }
            SeriesRenderer.draw(panel.series.map(styled), x: x, y: y, plot: plot, into: &writer)
            AnnotationRenderer.drawOverlays(panelAnnotations, x: x, y: y, plot: plot, into: &writer)
        }
        if let first = plots.first, let last = plots.last {
            let gridRect = Rect(
                x: left, y: first.minY, width: size.width - padding - left,
                height: last.maxY - first.minY)
            let xLabelBaseline = last.maxY + AxisRenderer.xTickLabelHeight + Theme.axisLabelSize
            AxisRenderer.drawXAxisLabel(x.title(xAxis.label), plot: gridRect, baseline: xLabelBaseline, into: &writer)
            AxisRenderer.drawYAxisLabel(
                y.title(yAxis.label), plot: gridRect, x: padding + Theme.axisLabelSize,
                into: &writer)
            let legendTop = last.maxY + AxisRenderer.xTickLabelHeight + xLabelBlock + 6
            legend.draw(top: legendTop, centerX: size.width / 2, into: &writer)
        }
        return writer.finish()
    }

    /// About √n columns, all in one row for up to three panels.
    package static func defaultColumns(_ n: Int) -> Int {
        if n <= 3 { return n }
        var c = 1
        while c * c < n { c += 1 }
        return c
    }
}
