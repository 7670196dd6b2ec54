import SVGCharts
import Testing

/// Heatmap placement, units, missing marks, labels and the chosen cell.
struct HeatmapTests {
    static func near(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-12 }
    }

    @Test func cellsBoundedAtMidpoints() {
        // 1, 2, 10: boundaries at 1.5 and 6, outer edges 0.5 and 14.
        let linear = HeatmapCells(count: 3, placement: .linear([1, 2, 10]))
        #expect(linear.isNumeric)
        #expect(Self.near(linear.edges, [0, 1 / 13.5, 5.5 / 13.5, 1]))
        #expect(Self.near(linear.anchors, [0.5 / 13.5, 1.5 / 13.5, 9.5 / 13.5]))
        // Geometric midpoints: √10 between 1 and 10, 100 between 10 and 1000.
        let log = HeatmapCells(count: 3, placement: .log([1, 10, 1000]))
        #expect(Self.near(log.edges, [0, 1 / 4.5, 2.5 / 4.5, 1]))
        #expect(Self.near(log.anchors, [0.5 / 4.5, 1.5 / 4.5, 3.5 / 4.5]))
        let single = HeatmapCells(count: 1, placement: .log([5]))
        #expect(single.isNumeric && single.edges == [0, 1])
    }

    @Test func unplaceableValuesFallBackToCategories() {
        let equal = HeatmapCells(count: 3, placement: .categorical)
        for placement: Heatmap.Placement in [
            .categorical, .log([1, 0, 3]), .linear([1, 2]), .linear([3, 2, 1]), .linear([1, .nan, 3]),
            .linear([1, 1, 2])
        ] {
            let cells = HeatmapCells(count: 3, placement: placement)
            #expect(!cells.isNumeric && cells == equal, "\(placement)")
        }
        #expect(Self.near(equal.edges, [0, 1.0 / 3, 2.0 / 3, 1]))
        #expect(HeatmapLayout.title("base delay", numeric: false) == "base delay (categorical, not to scale)")
        #expect(HeatmapLayout.title("base delay (ms)", numeric: false) == "base delay (categorical, not to scale, ms)")
        #expect(HeatmapLayout.title("base delay (ms)", numeric: true) == "base delay (ms)")
    }

    @Test func titlesNameTheUnitOnce() {
        #expect(AxisTitle.compose("time to success", unit: .second) == "time to success (s)")
        #expect(AxisTitle.compose("time to success (log scale)", unit: .second) == "time to success (s, log scale)")
        #expect(AxisTitle.compose("p99 (s)", unit: .second) == "p99 (s)")
        #expect(AxisTitle.compose("", unit: .minute) == "minutes")
        #expect(AxisTitle.compose("", unit: .minute, extras: ["log scale"]) == "minutes (log scale)")
        #expect(AxisTitle.compose("count", unit: nil, extras: ["log scale"]) == "count (log scale)")
        #expect(AxisTitle.compose("count, log scale", unit: nil, extras: ["log scale"]) == "count, log scale")
        #expect(AxisTitle.namedUnit(in: "delay (ms, log scale)") == .millisecond)
        #expect(AxisTitle.namedUnit(in: "delay (log scale, min)") == .minute)
        #expect(AxisTitle.namedUnit(in: "peak (× capacity)") == nil)
        // A unit the label names is the unit of the ticks.
        let named = Axis(label: "delay (ms)", format: .duration)
            .resolve(values: [0, 2], pixelLength: 300, horizontal: false, fontSize: 12)
        #expect(named.unit == .millisecond && named.title("delay (ms)") == "delay (ms)")
        #expect(named.ticks.last?.label == "2000")
    }

    static func chart(
        values: [[Double]], invalid: [Heatmap.Cell] = [], chosen: Heatmap.Cell? = nil,
        axis: Axis = Axis(label: "p99", format: .duration), size: ChartSize = .standard
    ) -> Heatmap {
        Heatmap(
            title: "t", xLabel: "x", yLabel: "y", columns: values.first.map { $0.indices.map { "c\($0)" } } ?? [],
            rows: values.indices.map { "r\($0)" }, values: values, colorAxis: axis, chosen: chosen,
            invalid: invalid, size: size)
    }

    @Test func oneUnitForCellsAndColourBar() {
        let svg = Self.chart(values: [[101.2, 101.7, 102.4]]).svg()
        let texts = SVGElements.parse(svg).filter { $0.name == "text" }.map(\.text)
        #expect(texts.contains("101.2") && texts.contains("101.7") && texts.contains("102.4"))
        #expect(texts.contains("p99 (s)"))
        #expect(!texts.contains { $0.contains("min") })
        let log = Self.chart(values: [[1, 100, 100_000]], axis: Axis(label: "wasted", scale: .log)).svg()
        let logTexts = SVGElements.parse(log).filter { $0.name == "text" }.map(\.text)
        #expect(logTexts.contains("wasted (log scale)"))
        #expect(["1", "10", "100", "1k", "10k", "100k"].allSatisfy(logTexts.contains))
    }

    @Test func twoKindsOfMissingCell() {
        let both = Self.chart(values: [[1, .nan, 3]], invalid: [Heatmap.Cell(column: 2, row: 0)]).svg()
        #expect(both.contains(">invalid combination<") && both.contains(">not evaluated<"))
        // Invalid wins over a value; the cell is crossed, not coloured or printed.
        #expect(!SVGElements.parse(both).contains { $0.name == "text" && $0.text == "3" })
        let none = Self.chart(values: [[1, 2, 3]]).svg()
        #expect(!none.contains(">invalid combination<") && !none.contains(">not evaluated<"))
        let onlyMissing = Self.chart(values: [[1, .infinity, 3]]).svg()
        #expect(!onlyMissing.contains(">invalid combination<") && onlyMissing.contains(">not evaluated<"))
    }

    /// Every printed value lies inside its cell with room to spare, and the
    /// chosen cell's outline and star stay inside that cell.
    @Test(arguments: [
        (960.0, 540.0, 4, 3), (960, 540, 12, 9), (500, 300, 8, 6), (960, 540, 40, 30), (300, 200, 3, 2)
    ])
    func labelsAndMarkerStayInTheirCells(width: Double, height: Double, columns: Int, rows: Int) {
        let values = (0..<rows).map { r in (0..<columns).map { c in Double((c * 7919 + r * 104_729) % 1000) * 1.37 } }
        let chosen = Heatmap.Cell(column: columns / 2, row: rows / 2)
        let chart = Self.chart(values: values, chosen: chosen, size: ChartSize(width: width, height: height))
        let layout = chart.layout().layout
        let cells = (0..<rows).flatMap { r in (0..<columns).map { c in layout.cell(column: c, row: r) } }
        let elements = SVGElements.parse(chart.svg())
        for text in elements.compactMap(TextBox.init) {
            let box = text.bounds
            guard box.minX >= layout.plot.minX, box.maxX <= layout.plot.maxX, box.minY >= layout.plot.minY,
                box.maxY <= layout.plot.maxY
            else { continue }
            #expect(
                cells.contains { cell in
                    box.minX >= cell.minX + 2 && box.maxX <= cell.maxX - 2 && box.minY >= cell.minY
                        && box.maxY <= cell.maxY
                }, "\"\(text.text)\" crosses a cell border")
        }
        let cell = layout.cell(column: chosen.column, row: chosen.row)
        let outlines = elements.filter { $0.name == "rect" && $0.attributes["fill"] == "none" && $0.attributes["stroke"] == "#ffffff" }
        // The chosen cell has its outline (or the checks below would check nothing).
        #expect(outlines.count == 1)
        for outline in outlines {
            let half = (outline.number("stroke-width") ?? 0) / 2
            let x = outline.number("x")!
            let y = outline.number("y")!
            #expect(x - half >= cell.minX - 0.01 && y - half >= cell.minY - 0.01)
            #expect(x + outline.number("width")! + half <= cell.maxX + 0.01)
            #expect(y + outline.number("height")! + half <= cell.maxY + 0.01)
        }
        if let star = HeatmapRenderer.starBox(in: cell) {
            #expect(star.minX >= cell.minX && star.maxX <= cell.maxX && star.minY >= cell.minY && star.maxY <= cell.maxY)
        }
        // The chosen cell's value stays inside its outline: under the white stroke it reads as cut
        // ("98.4" for 98.45 in a narrow cell of the tune-delays heatmap).
        let inside = HeatmapRenderer.insideOutline(cell)
        for text in elements.compactMap(TextBox.init) {
            let box = text.bounds
            guard box.midX > cell.minX, box.midX < cell.maxX, box.midY > cell.minY, box.midY < cell.maxY else { continue }
            #expect(box.minX >= inside.minX - 0.01 && box.maxX <= inside.maxX + 0.01, "\"\(text.text)\" runs under the outline")
        }
    }

    @Test func valuesShrinkOrGo() {
        let wide = Rect(x: 0, y: 0, width: 100, height: 40)
        #expect(HeatmapRenderer.valuePlacement("1.234", in: wide, avoiding: nil)?.size == 11)
        let narrow = Rect(x: 0, y: 0, width: 30, height: 40)
        #expect(HeatmapRenderer.valuePlacement("1.234", in: narrow, avoiding: nil)?.size == 8)
        let tiny = Rect(x: 0, y: 0, width: 12, height: 40)
        #expect(HeatmapRenderer.valuePlacement("1.234", in: tiny, avoiding: nil) == nil)
        // The star's corner pushes the text right, or out.
        let star = Rect(x: 8, y: 8, width: 12, height: 12)
        let cell = Rect(x: 0, y: 0, width: 60, height: 28)
        let moved = HeatmapRenderer.valuePlacement("0.37", in: cell, avoiding: star)
        #expect(moved.map { $0.x - TextMetrics.width("0.37", fontSize: $0.size) / 2 >= star.maxX } == true)
        // A grid where most values cannot fit prints none rather than a scattering.
        let crowded = Self.chart(values: [(0..<60).map { Double($0) * 1234.5 }]).svg()
        #expect(!SVGElements.parse(crowded).contains { $0.name == "text" && $0.text == "12345.0" })
    }
}

/// +∞ as a value ("never", issue 26) rather than a missing cell.
struct HeatmapInfinityTests {
    static func chart(infinityLabel: String?) -> Heatmap {
        Heatmap(
            title: "p99", xLabel: "base", yLabel: "max", columns: ["a", "b"], rows: ["c"], values: [[2, .infinity]],
            colorAxis: Axis(label: "p99 (s)", format: .duration), infinityLabel: infinityLabel)
    }

    @Test("with an infinity label, +∞ is a dark labelled cell in the legend, not a hatched 'not evaluated'")
    func labelledInfinity() {
        let svg = Self.chart(infinityLabel: "never").svg()
        #expect(svg.contains(">never</text>"))
        #expect(svg.contains(Heatmap.infinityColor.hex))
        #expect(!svg.contains("not evaluated"))
        // The finite cell alone sets the colour scale.
        #expect(Self.chart(infinityLabel: "never").contents().finite == [2])
    }

    @Test("without one, +∞ stays 'not evaluated', as before")
    func unlabelledInfinity() {
        let svg = Self.chart(infinityLabel: nil).svg()
        #expect(svg.contains("not evaluated"))
        #expect(!svg.contains(">never</text>"))
    }
}
