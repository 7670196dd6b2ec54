/// Drawing pieces of a heatmap that are not plain cells.
enum HeatmapRenderer {
    /// Slices in the colour bar: enough that neighbours differ by less than
    /// the eye can see, drawn as rects (a gradient would need an `id`).
    static let colorBarSlices = 64

    /// Grey with 45° hatching, so "no data" never reads as a low value.
    static func drawNoDataCell(_ rect: Rect, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        writer.element("rect", [
            ("x", n(rect.minX)), ("y", n(rect.minY)), ("width", n(rect.width)), ("height", n(rect.height)),
            ("fill", Ink.noData),
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

    /// The outer boundary of a set of cells: white under black, visible on
    /// both ends of viridis.
    static func drawRegionOutline(_ cells: Set<Heatmap.Cell>, layout: HeatmapLayout, into writer: inout SVGWriter) {
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
        writer.element("path", [
            ("d", d), ("stroke", "#ffffff"), ("stroke-width", "4.5"), ("stroke-linecap", "square"), ("fill", "none"),
        ])
        writer.element("path", [
            ("d", d), ("stroke", "#000000"), ("stroke-width", "2"), ("stroke-linecap", "square"), ("fill", "none"),
        ])
    }

    /// Thick outline plus a star badge with `label` straddling the cell's
    /// top edge.
    static func drawChosen(_ cell: Heatmap.Cell, label: String, layout: HeatmapLayout, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        let rect = layout.cell(column: cell.column, row: cell.row)
        let inset = Rect(x: rect.minX + 2, y: rect.minY + 2, width: max(1, rect.width - 4),
                         height: max(1, rect.height - 4))
        for (stroke, width) in [("#ffffff", "6"), ("#000000", "3")] {
            writer.element("rect", [
                ("x", n(inset.minX)), ("y", n(inset.minY)), ("width", n(inset.width)), ("height", n(inset.height)),
                ("fill", "none"), ("stroke", stroke), ("stroke-width", width),
            ])
        }
        let text = TextMetrics.truncate(label, maxWidth: 160, fontSize: 12)
        let badgeWidth = 20 + TextMetrics.width(text, fontSize: 12) * TextMetrics.boldFactor
        let startX = min(layout.plot.maxX - badgeWidth, max(layout.plot.minX, rect.midX - badgeWidth / 2))
        let centerY = rect.minY
        writer.element("rect", [
            ("x", n(startX - 3)), ("y", n(centerY - 10)), ("width", n(badgeWidth + 6)), ("height", "20"),
            ("rx", "4"), ("fill", "#ffffff"), ("stroke", "#000000"), ("stroke-width", "1.5"),
        ])
        writer.element("polygon", [
            ("points", Geometry.starPoints(center: PixelPoint(x: startX + 8, y: centerY), radius: 7)),
            ("fill", "#1a1a1a"), ("stroke-linejoin", "round"),
        ])
        Text.draw(text, x: startX + 19, y: centerY + 4.5, size: 12, fill: "#1a1a1a", weight: "600", into: &writer)
    }

    /// Vertical viridis bar, low at the bottom, with ticks and the label.
    static func drawColorBar(_ layout: HeatmapLayout, label: String, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        let bar = layout.colorBar
        let slice = bar.height / Double(colorBarSlices)
        for i in 0..<colorBarSlices {
            let t = (Double(i) + 0.5) / Double(colorBarSlices)
            let y = bar.maxY - Double(i + 1) * slice
            writer.element("rect", [
                ("x", n(bar.minX)), ("y", n(y)), ("width", n(bar.width)),
                ("height", n(slice + (i + 1 < colorBarSlices ? 0.5 : 0))), ("fill", ColorScale.viridis(t).hex),
            ])
        }
        writer.element("rect", [
            ("x", n(bar.minX)), ("y", n(bar.minY)), ("width", n(bar.width)), ("height", n(bar.height)),
            ("fill", "none"), ("stroke", Ink.axis), ("stroke-width", "1"),
        ])
        var ticks = ""
        for tick in layout.colors.ticks {
            let y = layout.colors.position(tick.value, from: bar.maxY, to: bar.minY)
            ticks += "M\(n(bar.maxX)) \(n(y))h4"
            Text.draw(tick.label, x: bar.maxX + 6, y: y + Theme.tickSize * 0.35, size: Theme.tickSize,
                      fill: Ink.muted, into: &writer)
        }
        if !ticks.isEmpty {
            writer.element("path", [("d", ticks), ("stroke", Ink.axis), ("stroke-width", "1"), ("fill", "none")])
        }
        let text = TextMetrics.truncate(label, maxWidth: bar.height, fontSize: Theme.axisLabelSize)
        Text.draw(text, x: layout.colorLabelX, y: bar.midY, size: Theme.axisLabelSize, anchor: "middle",
                  rotation: -90, into: &writer)
    }

    /// Cell text in the colour bar's format, compact.
    static func valueLabel(_ value: Double, format: Axis.Format) -> String {
        switch format {
        case .number: return NumberFormat.compact(value)
        case .duration: return NumberFormat.duration(value)
        case .percent: return NumberFormat.percent(value)
        }
    }
}
