/// A ring around one point and a boxed label beside it, e.g. the
/// recommended value of a sweep.
package enum HighlightLabel {
    package static let fontSize = 12.0
    package static let ringRadius = 9.0

    /// Draws the ring at `center` and the label in the first of eight places
    /// around it (right, left, then above and below each side) that lies in
    /// `plot` and covers none of `marks` nor `labels`; failing that, the
    /// first that covers no label (it may cover data); failing that, no
    /// label. The label is cut to the plot's width.
    package static func draw(
        _ label: String, at center: PixelPoint, plot: Rect, avoiding marks: [Rect], labels: [Rect],
        into writer: inout SVGWriter
    ) {
        let n = SVGWriter.number
        for (stroke, width) in [("#ffffff", "4"), ("#1a1a1a", "2")] {
            writer.element(
                "circle",
                [
                    ("cx", n(center.x)), ("cy", n(center.y)), ("r", n(ringRadius)), ("fill", "none"),
                    ("stroke", stroke), ("stroke-width", width)
                ])
        }
        let text = TextMetrics.truncate(label, maxWidth: plot.width - 12, fontSize: fontSize)
        guard !text.isEmpty else { return }
        let width = TextMetrics.width(text, fontSize: fontSize) * TextMetrics.boldFactor
        let gap = ringRadius + 6
        let height = fontSize * 1.3
        // Boxes (x, y of the top-left corner) around the point.
        let candidates: [(Double, Double)] = [
            (center.x + gap, center.y - height / 2), (center.x - gap - width, center.y - height / 2),
            (center.x + gap, center.y - gap - height), (center.x - gap - width, center.y - gap - height),
            (center.x + gap, center.y + gap), (center.x - gap - width, center.y + gap),
            (center.x - width / 2, center.y - gap - height), (center.x - width / 2, center.y + gap)
        ]
        let boxes = candidates.map { Rect(x: $0.0 - 3, y: $0.1, width: width + 6, height: height) }
        let fitting = boxes.filter {
            $0.minX >= plot.minX + 2 && $0.maxX <= plot.maxX - 2 && $0.minY >= plot.minY + 2 && $0.maxY <= plot.maxY - 2
        }
        let ring = Rect(
            x: center.x - ringRadius - 2, y: center.y - ringRadius - 2, width: 2 * ringRadius + 4,
            height: 2 * ringRadius + 4)
        let others = marks.filter { !ring.contains($0) }
        let clear = fitting.filter { b in !labels.contains { $0.intersects(b) } }
        guard let box = clear.first(where: { b in !others.contains { $0.intersects(b) } }) ?? clear.first
        else { return }
        writer.element(
            "rect",
            [
                ("x", n(box.minX)), ("y", n(box.minY)), ("width", n(box.width)), ("height", n(box.height)),
                ("rx", "3"), ("fill", "#ffffff"), ("fill-opacity", "0.9"), ("stroke", "#1a1a1a"), ("stroke-width", "1")
            ])
        Text.draw(
            text, x: box.minX + 3, y: box.minY + fontSize * 0.98, size: fontSize, fill: Ink.title,
            weight: "600", into: &writer)
    }
}
