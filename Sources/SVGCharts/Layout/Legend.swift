/// Legend entries laid out in rows that wrap at a maximum width, placed
/// below the plot so it never covers data. When the rows would exceed
/// `maxHeight`, the legend ends with "+N more" rather than squeezing the
/// plot to nothing.
package struct Legend {
    package static let swatchWidth = 22.0
    package static let swatchGap = 6.0
    package static let itemGap = 20.0
    package static let rowHeight = 20.0

    package private(set) var rows: [[(item: LegendItem, width: Double)]] = []

    package init(items: [LegendItem], maxWidth: Double, maxHeight: Double = .infinity) {
        let fontSize = Theme.legendSize
        let labelRoom = max(20, maxWidth - Self.swatchWidth - Self.swatchGap)
        var row: [(item: LegendItem, width: Double)] = []
        var rowWidth = 0.0
        for item in items {
            var entry = item
            entry.label = TextMetrics.truncate(item.label, maxWidth: labelRoom, fontSize: fontSize)
            let width = Self.swatchWidth + Self.swatchGap + TextMetrics.width(entry.label, fontSize: fontSize)
            let needed = row.isEmpty ? width : rowWidth + Self.itemGap + width
            if needed > maxWidth, !row.isEmpty {
                rows.append(row)
                row = []
                rowWidth = 0
            }
            rowWidth = row.isEmpty ? width : rowWidth + Self.itemGap + width
            row.append((entry, width))
        }
        if !row.isEmpty { rows.append(row) }
        let maxRows = max(1, Int(min(1000, max(0, maxHeight) / Self.rowHeight)))
        guard rows.count > maxRows else { return }
        var shown = rows.prefix(maxRows).reduce(0) { $0 + $1.count }
        rows.removeLast(rows.count - maxRows)
        var last = rows.removeLast()
        func moreEntry() -> (item: LegendItem, width: Double) {
            let label = "+\(items.count - shown) more"
            return (LegendItem(label: label, swatch: .none), TextMetrics.width(label, fontSize: fontSize))
        }
        func width(_ row: [(item: LegendItem, width: Double)]) -> Double {
            row.map(\.width).reduce(0, +) + Self.itemGap * Double(max(0, row.count - 1))
        }
        while !last.isEmpty, width(last) + Self.itemGap + moreEntry().width > maxWidth {
            last.removeLast()
            shown -= 1
        }
        last.append(moreEntry())
        rows.append(last)
    }

    package var height: Double { Double(rows.count) * Self.rowHeight }
    package var isEmpty: Bool { rows.isEmpty }

    /// Draws rows centred on `centerX`, the first row's centre line at
    /// `top + rowHeight / 2`.
    package func draw(top: Double, centerX: Double, into writer: inout SVGWriter) {
        guard !rows.isEmpty else { return }
        writer.open("g", [("font-size", SVGWriter.number(Theme.legendSize)), ("fill", Ink.text)])
        for (r, row) in rows.enumerated() {
            let total = row.map(\.width).reduce(0, +) + Self.itemGap * Double(row.count - 1)
            var x = centerX - total / 2
            let midY = top + Double(r) * Self.rowHeight + Self.rowHeight / 2
            for (item, width) in row {
                Self.drawSwatch(item.swatch, x: x, midY: midY, into: &writer)
                let textX = item.swatch == .none ? x : x + Self.swatchWidth + Self.swatchGap
                writer.element(
                    "text",
                    [
                        ("x", SVGWriter.number(textX)),
                        ("y", SVGWriter.number(midY + Theme.legendSize * 0.35))
                    ], text: item.label)
                x += width + Self.itemGap
            }
        }
        writer.close()
    }

    package static func drawSwatch(_ swatch: Swatch, x: Double, midY: Double, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        switch swatch {
        case .line(let color, let dash):
            var attributes: SVGWriter.Attributes = [
                ("x1", n(x)), ("y1", n(midY)), ("x2", n(x + swatchWidth)), ("y2", n(midY)),
                ("stroke", color.hex), ("stroke-width", "2.5")
            ]
            if !dash.isEmpty { attributes.append(("stroke-dasharray", dash)) }
            writer.element("line", attributes)
        case .area(let color, let dash):
            writer.element(
                "rect",
                [
                    ("x", n(x)), ("y", n(midY - 6)), ("width", n(swatchWidth)), ("height", "12"),
                    ("fill", color.hex), ("fill-opacity", "0.2")
                ])
            var attributes: SVGWriter.Attributes = [
                ("x1", n(x)), ("y1", n(midY - 6)), ("x2", n(x + swatchWidth)), ("y2", n(midY - 6)),
                ("stroke", color.hex), ("stroke-width", "2.5")
            ]
            if !dash.isEmpty { attributes.append(("stroke-dasharray", dash)) }
            writer.element("line", attributes)
        case .box(let color):
            writer.element(
                "rect",
                [
                    ("x", n(x + 4)), ("y", n(midY - 7)), ("width", "14"), ("height", "14"), ("fill", color.hex)
                ])
        case .hatched:
            HeatmapRenderer.drawNoDataCell(Rect(x: x + 4, y: midY - 7, width: 14, height: 14), into: &writer)
        case .crossed:
            HeatmapRenderer.drawInvalidCell(Rect(x: x + 4, y: midY - 7, width: 14, height: 14), into: &writer)
        case .outline:
            writer.element(
                "rect",
                [
                    ("x", n(x + 4)), ("y", n(midY - 7)), ("width", "14"), ("height", "14"),
                    ("fill", "#ffffff"), ("stroke", "#000000"), ("stroke-width", "2")
                ])
        case .chosenCell:
            writer.element(
                "rect",
                [
                    ("x", n(x + 3)), ("y", n(midY - 8)), ("width", "16"), ("height", "16"),
                    ("fill", "#ffffff"), ("stroke", "#000000"), ("stroke-width", "2.5")
                ])
            writer.element(
                "polygon",
                [
                    ("points", Geometry.starPoints(center: PixelPoint(x: x + 11, y: midY), radius: 5)),
                    ("fill", "#1a1a1a"), ("stroke-linejoin", "round")
                ])
        case .none:
            break
        case .flagRing:
            FlagRing.draw(at: PixelPoint(x: x + 11, y: midY), into: &writer)
        case .shade:
            writer.element(
                "rect",
                [
                    ("x", n(x + 4)), ("y", n(midY - 7)), ("width", "14"), ("height", "14"), ("fill", Ink.shade),
                    ("stroke", Ink.axis), ("stroke-width", "1")
                ])
        case .point(let color, let shape, let dash):
            if let dash {
                var attributes: SVGWriter.Attributes = [
                    ("x1", n(x)), ("y1", n(midY)), ("x2", n(x + swatchWidth)), ("y2", n(midY)),
                    ("stroke", color.hex), ("stroke-width", "2.5")
                ]
                if !dash.isEmpty { attributes.append(("stroke-dasharray", dash)) }
                writer.element("line", attributes)
            }
            Marker.draw(
                shape, at: PixelPoint(x: x + swatchWidth / 2, y: midY), radius: 4.5, color: color,
                into: &writer)
        case .whisker:
            let cx = x + 11
            let (top, bottom, left, right) = (n(midY - 7), n(midY + 7), n(cx - 4), n(cx + 4))
            writer.element(
                "path",
                [
                    ("d", "M\(n(cx)) \(top)V\(bottom)M\(left) \(top)H\(right)M\(left) \(bottom)H\(right)"),
                    ("stroke", "#222222"), ("stroke-width", "1.5"), ("fill", "none")
                ])
        }
    }
}

/// One entry of a legend: a sample and its label.
package struct LegendItem: Equatable {
    package var label: String
    package var swatch: Swatch

    package init(label: String, swatch: Swatch) {
        self.label = label
        self.swatch = swatch
    }
}
