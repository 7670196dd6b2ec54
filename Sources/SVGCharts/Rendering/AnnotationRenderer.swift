/// Draws annotations in two passes: bands under the data, lines and labels
/// over it.
package enum AnnotationRenderer {
    package static let fontSize = 12.0

    package static func drawBands(_ annotations: [Annotation], x: ResolvedAxis, plot: Rect, into writer: inout SVGWriter) {
        for annotation in annotations {
            guard case .xInterval(let from, let to, _) = annotation, from.isFinite, to.isFinite else { continue }
            let a = clampX(x.position(min(from, to), from: plot.minX, to: plot.maxX), plot)
            let b = clampX(x.position(max(from, to), from: plot.minX, to: plot.maxX), plot)
            guard b > a else { continue }
            writer.element(
                "rect",
                [
                    ("x", SVGWriter.number(a)), ("y", SVGWriter.number(plot.minY)),
                    ("width", SVGWriter.number(b - a)), ("height", SVGWriter.number(plot.height)),
                    ("fill", Ink.band), ("fill-opacity", "0.16")
                ])
        }
    }

    /// Draws the lines and labels; returns the labels' boxes, for other
    /// labels drawn later to keep clear of.
    @discardableResult
    package static func drawOverlays(
        _ annotations: [Annotation], x: ResolvedAxis, y: ResolvedAxis, plot: Rect, into writer: inout SVGWriter
    ) -> [Rect] {
        var placed: [(row: Int, start: Double, end: Double)] = []
        var boxes: [Rect] = []
        for annotation in annotations {
            switch annotation {
            case .xInterval(let from, let to, let label):
                guard from.isFinite, to.isFinite else { continue }
                let a = clampX(x.position(min(from, to), from: plot.minX, to: plot.maxX), plot)
                let b = clampX(x.position(max(from, to), from: plot.minX, to: plot.maxX), plot)
                guard b > a else { continue }
                boxes += [topLabel(label, anchorX: a, alternateX: b, plot: plot, placed: &placed, into: &writer)]
                    .compactMap { $0 }
            case .xMarker(let at, let label):
                guard at.isFinite else { continue }
                let px = x.position(at, from: plot.minX, to: plot.maxX)
                guard px >= plot.minX - 0.01, px <= plot.maxX + 0.01 else { continue }
                writer.element(
                    "line",
                    [
                        ("x1", SVGWriter.number(px)), ("y1", SVGWriter.number(plot.minY)),
                        ("x2", SVGWriter.number(px)), ("y2", SVGWriter.number(plot.maxY)),
                        ("stroke", Ink.annotation), ("stroke-width", "1.5"), ("stroke-dasharray", "5 3")
                    ])
                boxes += [topLabel(label, anchorX: px, alternateX: px, plot: plot, placed: &placed, into: &writer)]
                    .compactMap { $0 }
            case .yReference(let at, let label):
                ReferenceRenderer.drawLine(at: at, y: y, plot: plot, into: &writer)
                ReferenceRenderer.drawLabel(label, at: at, y: y, plot: plot, into: &writer)
                boxes += [ReferenceRenderer.labelFootprint(label, at: at, y: y, plot: plot)].compactMap { $0 }
            }
        }
        return boxes
    }

    /// Labels along the top edge of the plot, each in the first row where it
    /// does not overlap an earlier label. Starts right of `anchorX`; flips
    /// to end left of `alternateX` when it would run out of the plot.
    private static func topLabel(
        _ label: String, anchorX: Double, alternateX: Double, plot: Rect,
        placed: inout [(row: Int, start: Double, end: Double)], into writer: inout SVGWriter
    ) -> Rect? {
        let text = TextMetrics.truncate(label, maxWidth: plot.width - 8, fontSize: fontSize)
        guard !text.isEmpty else { return nil }
        let width = TextMetrics.width(text, fontSize: fontSize)
        var start = anchorX + 4
        var anchor = "start"
        var x = start
        if start + width > plot.maxX {
            x = max(plot.minX + 4 + width, alternateX - 4)
            start = x - width
            anchor = "end"
        }
        let end = start + width
        var row = 0
        while placed.contains(where: { $0.row == row && $0.start < end + 6 && start < $0.end + 6 }) { row += 1 }
        placed.append((row, start, end))
        let baseline = plot.minY + 4 + fontSize + Double(row) * (fontSize + 4)
        Text.boxed(text, x: x, y: baseline, size: fontSize, anchor: anchor, fill: Ink.annotation, into: &writer)
        return Rect(x: start - 3, y: baseline - fontSize * 0.95, width: width + 6, height: fontSize * 1.3)
    }

    private static func clampX(_ value: Double, _ plot: Rect) -> Double {
        min(plot.maxX, max(plot.minX, value))
    }
}
