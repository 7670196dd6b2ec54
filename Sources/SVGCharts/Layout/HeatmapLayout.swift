/// Positions for a ``Heatmap``: cells, axis labels, colour bar, legend.
package struct HeatmapLayout {
    package let plot: Rect
    package let columnCells: HeatmapCells
    package let rowCells: HeatmapCells
    package let columnLabels: CategoryLabels
    package let rowLabels: [String]
    package let colors: ResolvedAxis
    package let colorTitle: String
    package let colorBar: Rect
    package let colorLabelX: Double
    package let legend: Legend
    package let legendTop: Double
    package let xTitleBaseline: Double

    package static let barWidth = 16.0
    package static let maxRowLabelWidth = 150.0
    package static let categoricalNote = "categorical, not to scale"

    package init(chart: Heatmap, contents: Heatmap.Contents, legendItems: [LegendItem]) {
        let size = chart.size
        let padding = Theme.padding
        columnCells = HeatmapCells(count: chart.columns.count, placement: chart.columnPlacement)
        rowCells = HeatmapCells(count: chart.rows.count, placement: chart.rowPlacement)
        let top = Header.bottom(subtitle: chart.subtitle, width: size.width) + 8
        legend = Legend(items: legendItems, maxWidth: size.width - 2 * padding, maxHeight: size.height * 0.3)
        let legendBlock = legend.isEmpty ? 0 : legend.height + 6
        let titleBlock = chart.xLabel.isEmpty ? 0 : AxisRenderer.xAxisLabelHeight
        rowLabels = chart.rows.map {
            TextMetrics.truncate($0, maxWidth: Self.maxRowLabelWidth, fontSize: Theme.tickSize)
        }
        let rowLabelWidth = rowLabels.map { TextMetrics.width($0, fontSize: Theme.tickSize) }.max() ?? 0
        let yTitleBlock = chart.yLabel.isEmpty ? 0 : AxisRenderer.yAxisLabelWidth
        let tickRoom = rowCells.isNumeric ? 4.0 : 0
        var left = padding + yTitleBlock + rowLabelWidth + Theme.tickGap + tickRoom
        let unit = contents.format.unit
        let extras = chart.colorAxis.scale == .log ? ["log scale"] : []
        colorTitle = AxisTitle.compose(chart.colorAxis.label, unit: unit, extras: extras)

        func bottom(labelBlock: Double) -> Double {
            size.height - padding * 0.75 - legendBlock - titleBlock - labelBlock
        }
        func resolveColors(height: Double) -> ResolvedAxis {
            chart.colorAxis.resolve(
                values: contents.finite, pixelLength: height, horizontal: false,
                fontSize: Theme.tickSize, unit: unit)
        }
        let colorTitle = colorTitle
        func rightBlock(_ axis: ResolvedAxis) -> Double {
            18 + Self.barWidth + 6 + axis.maxLabelWidth(fontSize: Theme.tickSize)
                + (colorTitle.isEmpty ? 0 : 10 + Theme.axisLabelSize)
        }
        let cells = columnCells
        let maxRotated = CategoryLabels.maxRotatedWidth(canvasHeight: size.height)
        func labels(width: Double) -> CategoryLabels {
            let first = cells.anchors.first ?? 0
            let rooms = cells.anchors.indices.map { i in
                2 * min(cells.anchors[i] - cells.edges[i], cells.edges[i + 1] - cells.anchors[i]) * width
            }
            return CategoryLabels(
                chart.columns, offsets: cells.anchors.map { ($0 - first) * width }, rooms: rooms,
                maxRotatedWidth: maxRotated)
        }
        // Colour bar ticks depend on the plot height, the right margin on
        // their labels; the x labels' turn and overhang on the plot width:
        // refined until the width settles (a few passes at most).
        let baseLeft = left
        var labelBlock = AxisRenderer.xTickLabelHeight
        var height = max(20, bottom(labelBlock: labelBlock) - top)
        var colorAxis = resolveColors(height: height)
        var width = max(20, size.width - padding - rightBlock(colorAxis) - left)
        var columnLabels = labels(width: width)
        for _ in 0..<4 {
            // Turned labels hang down-left; keep every one on the canvas.
            left = max(baseLeft, padding + columnLabels.leftOverhang - (cells.anchors.first ?? 0) * width)
            labelBlock = columnLabels.blockHeight
            height = max(20, bottom(labelBlock: labelBlock) - top)
            colorAxis = resolveColors(height: height)
            let settled = max(20, size.width - padding - rightBlock(colorAxis) - left)
            if abs(settled - width) < 0.01 { break }
            width = settled
            columnLabels = labels(width: width)
        }
        self.columnLabels = columnLabels
        colors = colorAxis
        plot = Rect(x: left, y: top, width: width, height: height)
        colorBar = Rect(x: plot.maxX + 18, y: plot.minY, width: Self.barWidth, height: plot.height)
        colorLabelX =
            colorBar.maxX + 6 + colorAxis.maxLabelWidth(fontSize: Theme.tickSize) + 10
            + Theme.axisLabelSize
        xTitleBaseline = plot.maxY + labelBlock + Theme.axisLabelSize
        legendTop = plot.maxY + labelBlock + titleBlock + 6
    }

    /// The rectangle of a cell; row 0 at the bottom.
    package func cell(column: Int, row: Int) -> Rect {
        let c = min(max(0, column), columnCells.edges.count - 2)
        let r = min(max(0, row), rowCells.edges.count - 2)
        let x0 = plot.minX + columnCells.edges[c] * plot.width
        let x1 = plot.minX + columnCells.edges[c + 1] * plot.width
        let y0 = plot.maxY - rowCells.edges[r + 1] * plot.height
        let y1 = plot.maxY - rowCells.edges[r] * plot.height
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    package var rowCount: Int { rowCells.anchors.count }
    package var columnCount: Int { columnCells.anchors.count }

    /// The axis title: the label, marked categorical unless cells are placed by value.
    package static func title(_ label: String, numeric: Bool) -> String {
        label.isEmpty || numeric ? label : AxisTitle.compose(label, unit: nil, extras: [categoricalNote])
    }

    package func drawAxes(chart: Heatmap, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        let columnCenters = columnCells.anchors.map { plot.minX + $0 * plot.width }
        let rowCenters = rowCells.anchors.map { plot.maxY - $0 * plot.height }
        var ticks = ""
        if columnCells.isNumeric {
            for x in columnCenters { ticks += "M\(n(x)) \(n(plot.maxY))v4" }
        }
        if rowCells.isNumeric {
            for y in rowCenters { ticks += "M\(n(plot.minX)) \(n(y))h-4" }
        }
        if !ticks.isEmpty {
            writer.element("path", [("d", ticks), ("stroke", Ink.axis), ("stroke-width", "1"), ("fill", "none")])
        }
        columnLabels.draw(centers: columnCenters, plotBottom: plot.maxY, bold: nil, into: &writer)
        // Rows closer than a line of text: labels kept greedily from the bottom.
        var lastShown: Double?
        let labelX = plot.minX - Theme.tickGap - (rowCells.isNumeric ? 4 : 0)
        for (r, label) in rowLabels.enumerated() where r < rowCenters.count {
            let y = rowCenters[r]
            if let lastShown, lastShown - y < Theme.tickSize + 2 { continue }
            lastShown = y
            Text.draw(
                label, x: labelX, y: y + Theme.tickSize * 0.35, size: Theme.tickSize, anchor: "end",
                into: &writer)
        }
        AxisRenderer.drawXAxisLabel(
            Self.title(chart.xLabel, numeric: columnCells.isNumeric), plot: plot,
            baseline: xTitleBaseline, into: &writer)
        AxisRenderer.drawYAxisLabel(
            Self.title(chart.yLabel, numeric: rowCells.isNumeric), plot: plot,
            x: Theme.padding + Theme.axisLabelSize, into: &writer)
    }
}
