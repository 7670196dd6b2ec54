/// Layout for charts with categories along x and a numeric y axis (bar
/// charts): like ``CartesianLayout``, but the bottom margin grows to hold
/// wrapped or turned category labels (see ``CategoryLabels``).
package struct CategoryLayout {
    package let size: ChartSize
    package let plot: Rect
    package let y: ResolvedAxis
    package let labels: CategoryLabels
    package let count: Int
    package let legend: Legend
    package let legendTop: Double
    package let axisTitle: String
    package let axisTitleBaseline: Double

    package init(
        size: ChartSize, subtitle: String?, labels rawLabels: [String], categoryAxisTitle: String,
        yAxis: Axis, yValues: [Double], legendItems: [LegendItem]
    ) {
        self.size = size
        axisTitle = categoryAxisTitle
        count = rawLabels.count
        let padding = Theme.padding
        let top = Header.bottom(subtitle: subtitle, width: size.width)
        legend = Legend(items: legendItems, maxWidth: size.width - 2 * padding, maxHeight: size.height * 0.3)
        let legendBlock = legend.isEmpty ? 0 : legend.height + 6
        let titleBlock = categoryAxisTitle.isEmpty ? 0 : AxisRenderer.xAxisLabelHeight
        let yLabelBlock = yAxis.hasTitle ? AxisRenderer.yAxisLabelWidth : 0
        let slots = Double(max(1, rawLabels.count))

        func resolve(labelBlock: Double) -> (ResolvedAxis, Double, Double) {
            let bottom = size.height - padding * 0.75 - legendBlock - titleBlock - labelBlock
            let height = max(20, bottom - top)
            let axis = yAxis.resolve(
                values: yValues, pixelLength: height, horizontal: false,
                fontSize: Theme.tickSize)
            let left = padding + yLabelBlock + axis.maxLabelWidth(fontSize: Theme.tickSize) + Theme.tickGap
            return (axis, height, left)
        }

        // The label block depends on the slot width, which depends on the
        // y labels (their height) and on how far turned labels hang left:
        // refined until the slot width settles (a few passes at most).
        let maxRotated = CategoryLabels.maxRotatedWidth(canvasHeight: size.height)
        var (axis, height, left) = resolve(labelBlock: AxisRenderer.xTickLabelHeight)
        var slotWidth = (size.width - padding - left) / slots
        var current = CategoryLabels(rawLabels, slotWidth: slotWidth, maxRotatedWidth: maxRotated)
        for _ in 0..<4 {
            (axis, height, left) = resolve(labelBlock: current.blockHeight)
            left = max(left, padding + current.leftOverhang - slotWidth / 2)
            let settled = (size.width - padding - left) / slots
            if abs(settled - slotWidth) < 0.01 { break }
            slotWidth = settled
            current = CategoryLabels(rawLabels, slotWidth: slotWidth, maxRotatedWidth: maxRotated)
        }
        labels = current
        y = axis
        plot = Rect(x: left, y: top, width: max(20, size.width - padding - left), height: height)
        axisTitleBaseline = plot.maxY + labels.blockHeight + Theme.axisLabelSize
        legendTop = plot.maxY + labels.blockHeight + titleBlock + 6
    }

    /// The slot of category `index` along x.
    package func band(_ index: Int) -> Rect {
        let width = plot.width / Double(max(1, count))
        return Rect(x: plot.minX + Double(index) * width, y: plot.minY, width: width, height: plot.height)
    }

    package func drawCategoryLabels(bold: Int?, into writer: inout SVGWriter) {
        labels.draw(centers: (0..<count).map { band($0).midX }, plotBottom: plot.maxY, bold: bold, into: &writer)
        AxisRenderer.drawXAxisLabel(axisTitle, plot: plot, baseline: axisTitleBaseline, into: &writer)
    }

    package func drawLegend(into writer: inout SVGWriter) {
        legend.draw(top: legendTop, centerX: size.width / 2, into: &writer)
    }
}
