/// Positions for a ``Heatmap``: cells, category labels, colour bar, legend.
struct HeatmapLayout {
    let plot: Rect
    let columnCount: Int
    let rowCount: Int
    let columnLabels: CategoryLabels
    let rowLabels: [String]
    let colors: ResolvedAxis
    let colorBar: Rect
    let colorLabelX: Double
    let legend: Legend
    let legendTop: Double
    let xTitleBaseline: Double

    static let barWidth = 16.0
    static let maxRowLabelWidth = 150.0

    init(chart: Heatmap, values: [Double], legendItems: [LegendItem]) {
        let size = chart.size
        let padding = Theme.padding
        columnCount = max(1, chart.columns.count)
        rowCount = max(1, chart.rows.count)
        // Room above the top row for the chosen cell's badge.
        let top = Header.bottom(subtitle: chart.subtitle) + 8
        legend = Legend(items: legendItems, maxWidth: size.width - 2 * padding, maxHeight: size.height * 0.3)
        let legendBlock = legend.isEmpty ? 0 : legend.height + 6
        let titleBlock = chart.xLabel.isEmpty ? 0 : AxisRenderer.xAxisLabelHeight
        rowLabels = chart.rows.map {
            TextMetrics.truncate($0, maxWidth: Self.maxRowLabelWidth, fontSize: Theme.tickSize)
        }
        let rowLabelWidth = rowLabels.map { TextMetrics.width($0, fontSize: Theme.tickSize) }.max() ?? 0
        let yTitleBlock = chart.yLabel.isEmpty ? 0 : AxisRenderer.yAxisLabelWidth
        var left = padding + yTitleBlock + rowLabelWidth + Theme.tickGap

        func bottom(labelBlock: Double) -> Double {
            size.height - padding * 0.75 - legendBlock - titleBlock - labelBlock
        }
        // Colour bar ticks depend on the plot height, the right margin on
        // their labels; the x labels' rotation on the plot width.
        var labelBlock = AxisRenderer.xTickLabelHeight
        var height = max(20, bottom(labelBlock: labelBlock) - top)
        var colorAxis = chart.colorAxis.resolve(values: values, pixelLength: height, horizontal: false,
                                                fontSize: Theme.tickSize)
        func rightBlock(_ axis: ResolvedAxis) -> Double {
            18 + Self.barWidth + 6 + axis.maxLabelWidth(fontSize: Theme.tickSize)
                + (chart.colorAxis.label.isEmpty ? 0 : 10 + Theme.axisLabelSize)
        }
        var width = max(20, size.width - padding - rightBlock(colorAxis) - left)
        columnLabels = CategoryLabels(chart.columns, slotWidth: width / Double(columnCount))
        if columnLabels.blockHeight != labelBlock {
            // Turned labels hang down-left; keep the first on the canvas.
            left = max(left, padding + columnLabels.leftOverhang - width / Double(columnCount) / 2)
            labelBlock = columnLabels.blockHeight
            height = max(20, bottom(labelBlock: labelBlock) - top)
            colorAxis = chart.colorAxis.resolve(values: values, pixelLength: height, horizontal: false,
                                                fontSize: Theme.tickSize)
            width = max(20, size.width - padding - rightBlock(colorAxis) - left)
        }
        colors = colorAxis
        plot = Rect(x: left, y: top, width: width, height: height)
        colorBar = Rect(x: plot.maxX + 18, y: plot.minY, width: Self.barWidth, height: plot.height)
        colorLabelX = colorBar.maxX + 6 + colorAxis.maxLabelWidth(fontSize: Theme.tickSize) + 10
            + Theme.axisLabelSize
        xTitleBaseline = plot.maxY + labelBlock + Theme.axisLabelSize
        legendTop = plot.maxY + labelBlock + titleBlock + 6
    }

    /// The rectangle of a cell; row 0 at the bottom.
    func cell(column: Int, row: Int) -> Rect {
        let w = plot.width / Double(columnCount)
        let h = plot.height / Double(rowCount)
        return Rect(x: plot.minX + Double(column) * w, y: plot.maxY - Double(row + 1) * h, width: w, height: h)
    }

    func drawAxes(chart: Heatmap, into writer: inout SVGWriter) {
        columnLabels.draw(centers: (0..<columnCount).map { cell(column: $0, row: 0).midX }, plotBottom: plot.maxY,
                          bold: nil, into: &writer)
        // Rows thinner than a line of text get every k-th label only.
        let rowHeight = max(0.01, plot.height / Double(rowCount))
        let every = max(1, Int(min(1000, DecimalMath.ceil((Theme.tickSize + 2) / rowHeight))))
        for (r, label) in rowLabels.enumerated() where r % every == 0 {
            Text.draw(label, x: plot.minX - Theme.tickGap, y: cell(column: 0, row: r).midY + Theme.tickSize * 0.35,
                      size: Theme.tickSize, anchor: "end", into: &writer)
        }
        AxisRenderer.drawXAxisLabel(chart.xLabel, plot: plot, baseline: xTitleBaseline, into: &writer)
        AxisRenderer.drawYAxisLabel(chart.yLabel, plot: plot, x: Theme.padding + Theme.axisLabelSize, into: &writer)
    }
}
