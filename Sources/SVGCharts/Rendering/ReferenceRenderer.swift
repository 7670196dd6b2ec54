/// Horizontal reference lines (capacity, an SLO) across a plot, labelled at
/// the right end: lines go under the data, labels over it.
package enum ReferenceRenderer {
    package static let fontSize = 12.0

    package static func drawLines(
        _ references: [DotPlot.Reference], y: ResolvedAxis, plot: Rect,
        into writer: inout SVGWriter
    ) {
        for reference in references { drawLine(at: reference.value, y: y, plot: plot, into: &writer) }
    }

    /// Labels placed where they cover none of `marks` (data drawn in the
    /// plot) nor each other: right end above the line, right below, left
    /// above, left below; the first place that is free, else the first
    /// that at least covers no other label, else (references a few pixels
    /// apart) none: the dashed line stays, unlabelled.
    package static func drawLabels(
        _ references: [DotPlot.Reference], y: ResolvedAxis, plot: Rect, avoiding marks: [Rect],
        into writer: inout SVGWriter
    ) {
        var placed: [Rect] = []
        for reference in references {
            guard let py = pixelY(reference.value, y: y, plot: plot) else { continue }
            let text = TextMetrics.truncate(reference.label, maxWidth: plot.width - 8, fontSize: fontSize)
            let width = TextMetrics.width(text, fontSize: fontSize)
            let above = py - 5
            let below = py + fontSize + 3
            var places: [(x: Double, baseline: Double, anchor: String)] = []
            for baseline in [above, below] where baseline - fontSize >= plot.minY && baseline + 3 <= plot.maxY {
                places.append((plot.maxX - 4, baseline, "end"))
            }
            for baseline in [above, below] where baseline - fontSize >= plot.minY && baseline + 3 <= plot.maxY {
                places.append((plot.minX + 4, baseline, "start"))
            }
            func box(_ place: (x: Double, baseline: Double, anchor: String)) -> Rect {
                let start = place.anchor == "end" ? place.x - width : place.x
                return Rect(x: start - 3, y: place.baseline - fontSize * 0.95, width: width + 6, height: fontSize * 1.3)
            }
            let clear = places.filter { place in !placed.contains { $0.intersects(box(place)) } }
            let free = clear.first { place in !marks.contains { $0.intersects(box(place)) } }
            guard let place = free ?? clear.first else { continue }
            placed.append(box(place))
            Text.boxed(
                text, x: place.x, y: place.baseline, size: fontSize, anchor: place.anchor,
                fill: Ink.annotation, into: &writer)
        }
    }

    /// A dashed line at `value`; nothing when it falls outside the plot.
    package static func drawLine(at value: Double, y: ResolvedAxis, plot: Rect, into writer: inout SVGWriter) {
        guard let py = pixelY(value, y: y, plot: plot) else { return }
        writer.element(
            "line",
            [
                ("x1", SVGWriter.number(plot.minX)), ("y1", SVGWriter.number(py)),
                ("x2", SVGWriter.number(plot.maxX)), ("y2", SVGWriter.number(py)),
                ("stroke", Ink.annotation), ("stroke-width", "1.5"), ("stroke-dasharray", "7 4")
            ])
    }

    /// The label on a white box at the line's right end, above the line
    /// unless that would leave the plot.
    package static func drawLabel(
        _ label: String, at value: Double, y: ResolvedAxis, plot: Rect,
        into writer: inout SVGWriter
    ) {
        guard let py = pixelY(value, y: y, plot: plot) else { return }
        let text = TextMetrics.truncate(label, maxWidth: plot.width - 8, fontSize: fontSize)
        Text.boxed(
            text, x: plot.maxX - 4, y: baseline(py, plot: plot), size: fontSize, anchor: "end",
            fill: Ink.annotation, into: &writer)
    }

    /// A thin box along the line ``drawLine(at:y:plot:into:)`` draws.
    package static func lineFootprint(at value: Double, y: ResolvedAxis, plot: Rect) -> Rect? {
        pixelY(value, y: y, plot: plot).map { Rect(x: plot.minX, y: $0 - 2, width: plot.width, height: 4) }
    }

    /// The box of the label ``drawLabel(_:at:y:plot:into:)`` draws.
    package static func labelFootprint(_ label: String, at value: Double, y: ResolvedAxis, plot: Rect) -> Rect? {
        guard let py = pixelY(value, y: y, plot: plot) else { return nil }
        let text = TextMetrics.truncate(label, maxWidth: plot.width - 8, fontSize: fontSize)
        let width = TextMetrics.width(text, fontSize: fontSize)
        let base = baseline(py, plot: plot)
        return Rect(x: plot.maxX - 4 - width - 3, y: base - fontSize * 0.95, width: width + 6, height: fontSize * 1.3)
    }

    private static func baseline(_ py: Double, plot: Rect) -> Double {
        py - 5 - fontSize < plot.minY ? py + fontSize + 3 : py - 5
    }

    package static func pixelY(_ value: Double, y: ResolvedAxis, plot: Rect) -> Double? {
        guard value.isFinite else { return nil }
        let py = y.position(value, from: plot.maxY, to: plot.minY)
        guard py >= plot.minY - 0.01, py <= plot.maxY + 0.01 else { return nil }
        return py
    }
}
