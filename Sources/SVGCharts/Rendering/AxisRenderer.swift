/// Gridlines, axis lines, tick labels and axis titles of a plot rectangle.
package enum AxisRenderer {
    /// Vertical gridlines at x ticks and horizontal ones at y ticks; either
    /// axis may be nil (category axes draw their own).
    package static func drawGrid(x: ResolvedAxis?, y: ResolvedAxis?, plot: Rect, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        var minor = ""
        var major = ""
        if let x {
            for v in x.minorTicks {
                let px = x.position(v, from: plot.minX, to: plot.maxX)
                minor += "M\(n(px)) \(n(plot.minY))V\(n(plot.maxY))"
            }
            for tick in x.ticks {
                let px = x.position(tick.value, from: plot.minX, to: plot.maxX)
                major += "M\(n(px)) \(n(plot.minY))V\(n(plot.maxY))"
            }
        }
        if let y {
            for v in y.minorTicks {
                let py = y.position(v, from: plot.maxY, to: plot.minY)
                minor += "M\(n(plot.minX)) \(n(py))H\(n(plot.maxX))"
            }
            for tick in y.ticks {
                let py = y.position(tick.value, from: plot.maxY, to: plot.minY)
                major += "M\(n(plot.minX)) \(n(py))H\(n(plot.maxX))"
            }
        }
        if !minor.isEmpty {
            writer.element("path", [("d", minor), ("stroke", Ink.minorGrid), ("stroke-width", "1"), ("fill", "none")])
        }
        if !major.isEmpty {
            writer.element("path", [("d", major), ("stroke", Ink.grid), ("stroke-width", "1"), ("fill", "none")])
        }
    }

    /// The left and bottom edges of the plot.
    package static func drawAxisLines(plot: Rect, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        writer.element(
            "path",
            [
                ("d", "M\(n(plot.minX)) \(n(plot.minY))V\(n(plot.maxY))H\(n(plot.maxX))"),
                ("stroke", Ink.axis), ("stroke-width", "1"), ("fill", "none")
            ])
    }

    package static func drawXTickLabels(_ axis: ResolvedAxis, plot: Rect, into writer: inout SVGWriter) {
        let baseline = plot.maxY + Theme.tickGap + Theme.tickSize * 0.8
        for tick in axis.ticks where !tick.label.isEmpty {
            let px = axis.position(tick.value, from: plot.minX, to: plot.maxX)
            Text.draw(
                tick.label, x: px, y: baseline, size: Theme.tickSize, anchor: "middle", fill: Ink.muted,
                into: &writer)
        }
    }

    package static func drawYTickLabels(_ axis: ResolvedAxis, plot: Rect, into writer: inout SVGWriter) {
        for tick in axis.ticks where !tick.label.isEmpty {
            let py = axis.position(tick.value, from: plot.maxY, to: plot.minY)
            Text.draw(
                tick.label, x: plot.minX - Theme.tickGap, y: py + Theme.tickSize * 0.35, size: Theme.tickSize,
                anchor: "end", fill: Ink.muted, into: &writer)
        }
    }

    /// Centred under the plot, truncated to its width.
    package static func drawXAxisLabel(_ label: String, plot: Rect, baseline: Double, into writer: inout SVGWriter) {
        let text = TextMetrics.truncate(label, maxWidth: plot.width, fontSize: Theme.axisLabelSize)
        Text.draw(text, x: plot.midX, y: baseline, size: Theme.axisLabelSize, anchor: "middle", into: &writer)
    }

    /// Rotated, centred beside the plot, truncated to its height.
    package static func drawYAxisLabel(_ label: String, plot: Rect, x: Double, into writer: inout SVGWriter) {
        let text = TextMetrics.truncate(label, maxWidth: plot.height, fontSize: Theme.axisLabelSize)
        Text.draw(text, x: x, y: plot.midY, size: Theme.axisLabelSize, anchor: "middle", rotation: -90, into: &writer)
    }

    /// Vertical space under the plot taken by x tick labels.
    package static let xTickLabelHeight = Theme.tickGap + Theme.tickSize + 2
    /// Vertical space taken by the x axis title line.
    package static let xAxisLabelHeight = Theme.axisLabelSize + 8
    /// Horizontal space taken by the rotated y axis title and its gap.
    package static let yAxisLabelWidth = Theme.axisLabelSize + 10
}
