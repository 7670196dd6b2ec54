/// Positions of everything on a single-plot chart with numeric x and y
/// axes: header, plot rectangle, tick labels, axis titles and legend.
///
/// Margins come from estimated label widths so that nothing overlaps: the
/// legend height fixes the plot height, which fixes the y ticks, whose label
/// widths fix the left margin, which fixes the plot width and the x ticks.
package struct CartesianLayout {
    package let size: ChartSize
    package let plot: Rect
    package let x: ResolvedAxis
    package let y: ResolvedAxis
    package let legend: Legend
    package let legendTop: Double
    package let xLabelBaseline: Double
    package let yLabelX: Double

    package init(
        size: ChartSize, subtitle: String?, xAxis: Axis, yAxis: Axis,
        xValues: [Double], yValues: [Double], legendItems: [LegendItem],
        forcedYDomain: (Double, Double)? = nil
    ) {
        self.size = size
        let padding = Theme.padding
        let top = Header.bottom(subtitle: subtitle, width: size.width)
        legend = Legend(items: legendItems, maxWidth: size.width - 2 * padding, maxHeight: size.height * 0.3)
        let legendBlock = legend.isEmpty ? 0 : legend.height + 6
        let xLabelBlock = xAxis.hasTitle ? AxisRenderer.xAxisLabelHeight : 0
        let plotBottom = size.height - padding * 0.75 - legendBlock - xLabelBlock - AxisRenderer.xTickLabelHeight
        let plotHeight = max(20, plotBottom - top)
        y = yAxis.resolve(
            values: yValues, pixelLength: plotHeight, horizontal: false, fontSize: Theme.tickSize,
            forcedDomain: forcedYDomain)
        let yLabelBlock = yAxis.hasTitle ? AxisRenderer.yAxisLabelWidth : 0
        yLabelX = padding + Theme.axisLabelSize
        let left = padding + yLabelBlock + y.maxLabelWidth(fontSize: Theme.tickSize) + Theme.tickGap
        var right = size.width - padding
        var xAxisResolved = xAxis.resolve(
            values: xValues, pixelLength: max(20, right - left), horizontal: true,
            fontSize: Theme.tickSize)
        // The last x label is centred on the plot's right edge; leave room
        // for its right half.
        if let last = xAxisResolved.ticks.last(where: { !$0.label.isEmpty }),
            xAxisResolved.fraction(last.value) > 0.999
        {
            let half = TextMetrics.width(last.label, fontSize: Theme.tickSize) / 2
            if half > padding - 2 {
                right = size.width - 2 - half
                xAxisResolved = xAxis.resolve(
                    values: xValues, pixelLength: max(20, right - left), horizontal: true,
                    fontSize: Theme.tickSize)
            }
        }
        x = xAxisResolved
        plot = Rect(x: left, y: top, width: max(20, right - left), height: plotHeight)
        xLabelBaseline = plot.maxY + AxisRenderer.xTickLabelHeight + Theme.axisLabelSize
        legendTop = plot.maxY + AxisRenderer.xTickLabelHeight + xLabelBlock + 6
    }

    /// Grid, axis lines, tick labels and axis titles (everything but data).
    package func drawAxes(xLabel: String, yLabel: String, into writer: inout SVGWriter) {
        AxisRenderer.drawGrid(x: x, y: y, plot: plot, into: &writer)
        AxisRenderer.drawAxisLines(plot: plot, into: &writer)
        AxisRenderer.drawXTickLabels(x, plot: plot, into: &writer)
        AxisRenderer.drawYTickLabels(y, plot: plot, into: &writer)
        AxisRenderer.drawXAxisLabel(x.title(xLabel), plot: plot, baseline: xLabelBaseline, into: &writer)
        AxisRenderer.drawYAxisLabel(y.title(yLabel), plot: plot, x: yLabelX, into: &writer)
    }

    package func drawLegend(into writer: inout SVGWriter) {
        legend.draw(top: legendTop, centerX: size.width / 2, into: &writer)
    }
}
