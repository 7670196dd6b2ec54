/// Drawing pieces of a heatmap that are not plain cells.
package enum HeatmapRenderer {
    /// Slices in the colour bar: enough that neighbours differ by less than
    /// the eye can see, drawn as rects (a gradient would need an `id`).
    package static let colorBarSlices = 64
    /// Cell text sizes: the regular size, and the smallest worth printing.
    package static let valueSize = 11.0
    package static let smallestValueSize = 8.0

    /// Grey with 45° hatching: not evaluated, never read as a low value.
    package static func drawNoDataCell(_ rect: Rect, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        writer.element(
            "rect",
            [
                ("x", n(rect.minX)), ("y", n(rect.minY)), ("width", n(rect.width)), ("height", n(rect.height)),
                ("fill", Ink.noData)
            ])
        var d = ""
        let spacing = 6.0
        var offset = spacing
        // Lines u + v = offset, with u from the left and v from the bottom.
        while offset < rect.width + rect.height {
            let u0 = max(0, offset - rect.height)
            let u1 = min(rect.width, offset)
            d += "M\(n(rect.minX + u0)) \(n(rect.maxY - (offset - u0)))"
            d += "L\(n(rect.minX + u1)) \(n(rect.maxY - (offset - u1)))"
            offset += spacing
        }
        if !d.isEmpty {
            writer.element("path", [("d", d), ("stroke", Ink.hatch), ("stroke-width", "1"), ("fill", "none")])
        }
    }

    /// A cell of one colour outside the scale with `label` printed in it (a heatmap's +∞, "never").
    package static func drawLabelledCell(_ rect: Rect, color: Color, label: String, largest: Double, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        writer.element(
            "rect",
            [
                ("x", n(rect.minX)), ("y", n(rect.minY)), ("width", n(rect.width + 0.5)), ("height", n(rect.height + 0.5)),
                ("fill", color.hex)
            ])
        drawValue(label, in: rect, on: color, avoiding: nil, largest: largest, into: &writer)
    }

    /// White with a grey cross in the middle: a combination that is not a
    /// valid configuration, distinct from the hatched "not evaluated".
    package static func drawInvalidCell(_ rect: Rect, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        writer.element(
            "rect",
            [
                ("x", n(rect.minX)), ("y", n(rect.minY)), ("width", n(rect.width)), ("height", n(rect.height)),
                ("fill", "#ffffff"), ("stroke", Ink.grid), ("stroke-width", "1")
            ])
        let half = min(rect.width, rect.height) * 0.22
        guard half >= 1.5 else { return }
        let (cx, cy) = (rect.midX, rect.midY)
        writer.element(
            "path",
            [
                (
                    "d",
                    "M\(n(cx - half)) \(n(cy - half))L\(n(cx + half)) \(n(cy + half))"
                        + "M\(n(cx - half)) \(n(cy + half))L\(n(cx + half)) \(n(cy - half))"
                ),
                ("stroke", Ink.axis), ("stroke-width", "1.5"), ("fill", "none")
            ])
    }

    /// The outer boundary of a set of cells: white under black, visible on
    /// both ends of viridis.
    package static func drawRegionOutline(_ cells: Set<Heatmap.Cell>, layout: HeatmapLayout, into writer: inout SVGWriter) {
        guard !cells.isEmpty else { return }
        let n = SVGWriter.number
        var d = ""
        // Grid order, not set order, keeps the output deterministic.
        for r in 0..<layout.rowCount {
            for c in 0..<layout.columnCount where cells.contains(Heatmap.Cell(column: c, row: r)) {
                let rect = layout.cell(column: c, row: r)
                if !cells.contains(Heatmap.Cell(column: c, row: r + 1)) {
                    d += "M\(n(rect.minX)) \(n(rect.minY))H\(n(rect.maxX))"
                }
                if !cells.contains(Heatmap.Cell(column: c, row: r - 1)) {
                    d += "M\(n(rect.minX)) \(n(rect.maxY))H\(n(rect.maxX))"
                }
                if !cells.contains(Heatmap.Cell(column: c - 1, row: r)) {
                    d += "M\(n(rect.minX)) \(n(rect.minY))V\(n(rect.maxY))"
                }
                if !cells.contains(Heatmap.Cell(column: c + 1, row: r)) {
                    d += "M\(n(rect.maxX)) \(n(rect.minY))V\(n(rect.maxY))"
                }
            }
        }
        writer.element(
            "path",
            [
                ("d", d), ("stroke", "#ffffff"), ("stroke-width", "4.5"), ("stroke-linecap", "square"), ("fill", "none")
            ])
        writer.element(
            "path",
            [
                ("d", d), ("stroke", "#000000"), ("stroke-width", "2"), ("stroke-linecap", "square"), ("fill", "none")
            ])
    }

    /// Star radius in the chosen cell, and its inset from the cell's corner.
    package static let starRadius = 6.0
    package static let starInset = 8.0

    /// Where the chosen cell's star goes: the top-left corner inside the
    /// outline when there is room, else the middle of the cell, smaller;
    /// nil when not even a 2.5 px star fits inside the outline.
    package static func starBox(in rect: Rect) -> Rect? {
        let side = 2 * starRadius
        if rect.width >= side + 2 * starInset, rect.height >= side + 2 * starInset {
            return Rect(x: rect.minX + starInset, y: rect.minY + starInset, width: side, height: side)
        }
        let radius = min(starRadius, (min(rect.width, rect.height) - 12) / 2)
        guard radius >= 2.5 else { return nil }
        return Rect(x: rect.midX - radius, y: rect.midY - radius, width: 2 * radius, height: 2 * radius)
    }

    /// A black-on-white outline just inside the cell and a star in its
    /// corner: both stay within the cell, so neighbours' labels are not
    /// covered. The star's meaning is in the legend.
    package static func drawChosen(_ cell: Heatmap.Cell, layout: HeatmapLayout, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        let rect = layout.cell(column: cell.column, row: cell.row)
        let inset = outlineInset(rect)
        let inner = Rect(
            x: rect.minX + inset, y: rect.minY + inset, width: max(0, rect.width - 2 * inset),
            height: max(0, rect.height - 2 * inset))
        for (stroke, width) in [("#ffffff", min(5, 2 * inset)), ("#000000", min(2.5, inset))] where width > 0 {
            writer.element(
                "rect",
                [
                    ("x", n(inner.minX)), ("y", n(inner.minY)), ("width", n(inner.width)), ("height", n(inner.height)),
                    ("fill", "none"), ("stroke", stroke), ("stroke-width", n(width))
                ])
        }
        guard let star = starBox(in: rect) else { return }
        writer.element(
            "polygon",
            [
                ("points", Geometry.starPoints(center: PixelPoint(x: star.midX, y: star.midY), radius: star.width / 2)),
                ("fill", "#1a1a1a"), ("stroke", "#ffffff"), ("stroke-width", "1.5"), ("stroke-linejoin", "round")
            ])
    }

    /// Where the chosen cell's outline runs, in from the cell's edge: strokes are centred on the
    /// path, so inset by half the widest stroke (5 px white under 2.5 px black).
    package static func outlineInset(_ rect: Rect) -> Double {
        min(3.5, rect.width / 4, rect.height / 4)
    }

    /// The part of the chosen cell inside its outline, where its value may go (a value reaching
    /// under the outline's white stroke reads as cut).
    package static func insideOutline(_ rect: Rect) -> Rect {
        let inset = outlineInset(rect) + min(5, 2 * outlineInset(rect)) / 2
        return Rect(
            x: rect.minX + inset, y: rect.minY + inset, width: max(0, rect.width - 2 * inset),
            height: max(0, rect.height - 2 * inset))
    }

    /// The size and box of `text` centred in `rect`, shrunk from 11 px
    /// towards 8 px until it fits with 3 px to spare on each side and keeps
    /// off `keepOut` (shifted right of it if need be); nil when it never fits.
    package static func valuePlacement(_ text: String, in rect: Rect, avoiding keepOut: Rect?, largest: Double = valueSize)
        -> (size: Double, x: Double, baseline: Double)?
    {
        guard !text.isEmpty else { return nil }
        var size = min(valueSize, largest)
        while size >= smallestValueSize {
            let width = TextMetrics.width(text, fontSize: size)
            let height = size * 1.2
            if width <= rect.width - 6, height + 4 <= rect.height {
                var box = Rect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height)
                if let keepOut, box.intersects(keepOut) {
                    box.x = keepOut.maxX + 3
                }
                if box.maxX <= rect.maxX - 3, box.minX >= rect.minX + 3, keepOut.map({ !box.intersects($0) }) ?? true {
                    return (size, box.midX, box.midY + size * 0.35)
                }
            }
            size -= 1
        }
        return nil
    }

    /// The value printed in its cell in the ink that contrasts most with
    /// the cell's colour, at most `largest` px, when it fits (see
    /// ``valuePlacement(_:in:avoiding:largest:)``).
    package static func drawValue(
        _ text: String, in rect: Rect, on color: Color, avoiding keepOut: Rect?, largest: Double,
        into writer: inout SVGWriter
    ) {
        guard let place = valuePlacement(text, in: rect, avoiding: keepOut, largest: largest) else { return }
        let dark = Color(hex: 0x1A1A1A)
        let ink = color.contrastRatio(with: .white) >= color.contrastRatio(with: dark) ? "#ffffff" : "#1a1a1a"
        Text.draw(text, x: place.x, y: place.baseline, size: place.size, anchor: "middle", fill: ink, into: &writer)
    }

    /// Vertical viridis bar, low at the bottom, with ticks (short unlabelled
    /// ones at 2…9 × 10^k on a log bar) and the title.
    package static func drawColorBar(_ layout: HeatmapLayout, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        let bar = layout.colorBar
        let slice = bar.height / Double(colorBarSlices)
        for i in 0..<colorBarSlices {
            let t = (Double(i) + 0.5) / Double(colorBarSlices)
            let y = bar.maxY - Double(i + 1) * slice
            writer.element(
                "rect",
                [
                    ("x", n(bar.minX)), ("y", n(y)), ("width", n(bar.width)),
                    ("height", n(slice + (i + 1 < colorBarSlices ? 0.5 : 0))), ("fill", ColorScale.viridis(t).hex)
                ])
        }
        writer.element(
            "rect",
            [
                ("x", n(bar.minX)), ("y", n(bar.minY)), ("width", n(bar.width)), ("height", n(bar.height)),
                ("fill", "none"), ("stroke", Ink.axis), ("stroke-width", "1")
            ])
        var ticks = ""
        for value in layout.colors.minorTicks {
            ticks += "M\(n(bar.maxX)) \(n(layout.colors.position(value, from: bar.maxY, to: bar.minY)))h2"
        }
        for tick in layout.colors.ticks {
            let y = layout.colors.position(tick.value, from: bar.maxY, to: bar.minY)
            ticks += "M\(n(bar.maxX)) \(n(y))h4"
            Text.draw(
                tick.label, x: bar.maxX + 6, y: y + Theme.tickSize * 0.35, size: Theme.tickSize,
                fill: Ink.muted, into: &writer)
        }
        if !ticks.isEmpty {
            writer.element("path", [("d", ticks), ("stroke", Ink.axis), ("stroke-width", "1"), ("fill", "none")])
        }
        let text = TextMetrics.truncate(layout.colorTitle, maxWidth: bar.height, fontSize: Theme.axisLabelSize)
        Text.draw(
            text, x: layout.colorLabelX, y: bar.midY, size: Theme.axisLabelSize, anchor: "middle",
            rotation: -90, into: &writer)
    }
}
