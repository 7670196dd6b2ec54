import SVGCharts
import Testing

struct LayoutTests {
    static func items(_ n: Int) -> [LegendItem] {
        (0..<n).map { LegendItem(label: "policy number \($0)", swatch: .line(color: Palette.color(at: $0), dash: "")) }
    }

    @Test func legendWrapsWithinWidth() {
        let legend = Legend(items: Self.items(9), maxWidth: 400)
        #expect(legend.rows.count == 5)
        #expect(legend.rows.map(\.count) == [2, 2, 2, 2, 1])
        for row in legend.rows {
            let width = row.map(\.width).reduce(0, +) + Legend.itemGap * Double(row.count - 1)
            #expect(width <= 400)
        }
    }

    @Test func legendEndsWithMoreWhenTooTall() {
        let legend = Legend(items: Self.items(40), maxWidth: 400, maxHeight: 60)
        #expect(legend.rows.count == 3)
        let shown = legend.rows.flatMap { $0 }.filter { $0.item.swatch != .none }.count
        let last = legend.rows.last?.last?.item
        #expect(last == LegendItem(label: "+\(40 - shown) more", swatch: .none))
        for row in legend.rows {
            #expect(row.map(\.width).reduce(0, +) + Legend.itemGap * Double(row.count - 1) <= 400)
        }
    }

    @Test func smallMultiplesColourSeriesByName() {
        let chart = SmallMultiples(
            title: "t", xAxis: Axis(label: "x"), yAxis: Axis(label: "y"),
            panels: [
                .init(title: "A", series: [Series(name: "x", x: [0, 1], y: [0, 1]), Series(name: "y", x: [0, 1], y: [1, 0])]),
                .init(title: "B", series: [Series(name: "y", x: [0, 1], y: [1, 1])])
            ])
        let svg = chart.svg()
        // One path in panel A plus the legend sample for "x"; two paths plus the legend sample for "y".
        #expect(svg.components(separatedBy: "stroke=\"#0072b2\"").count - 1 == 2)
        #expect(svg.components(separatedBy: "stroke=\"#c48700\"").count - 1 == 3)
    }

    @Test func segmentClipping() {
        let rect = Rect(x: 0, y: 0, width: 10, height: 10)
        let clipped = Geometry.clip(PixelPoint(x: -5, y: 5), PixelPoint(x: 15, y: 5), to: rect)
        #expect(clipped?.0 == PixelPoint(x: 0, y: 5))
        #expect(clipped?.1 == PixelPoint(x: 10, y: 5))
        #expect(Geometry.clip(PixelPoint(x: -5, y: -5), PixelPoint(x: -1, y: 20), to: rect) == nil)
        let runs = Geometry.clip(
            polyline: [
                PixelPoint(x: 1, y: 1), PixelPoint(x: 5, y: 20), PixelPoint(x: 9, y: 1)
            ], to: rect)
        #expect(runs.count == 2)
    }

    @Test func simplifyDropsRedundantPoints() {
        let points = [
            PixelPoint(x: 0, y: 0), PixelPoint(x: 1, y: 0), PixelPoint(x: 2, y: 0), PixelPoint(x: 2, y: 0.001),
            PixelPoint(x: 2, y: 5), PixelPoint(x: 1, y: 5)
        ]
        #expect(
            Geometry.simplify(points) == [
                PixelPoint(x: 0, y: 0), PixelPoint(x: 2, y: 0), PixelPoint(x: 2, y: 5), PixelPoint(x: 1, y: 5)
            ])
        // A horizontal backtrack is kept: the middle point is not between its neighbours.
        let back = [PixelPoint(x: 0, y: 0), PixelPoint(x: 5, y: 0), PixelPoint(x: 3, y: 0)]
        #expect(Geometry.simplify(back) == back)
    }

    @Test func categoryLabelsWrapThenTurn() {
        let wrapped = CategoryLabels(["exponential backoff with jitter", "none"], slotWidth: 120)
        #expect(wrapped.mode == .lines([["exponential", "backoff with jitter"], ["none"]]))
        let turned = CategoryLabels(["averyveryverylongsingleword"], slotWidth: 60)
        guard case .rotated = turned.mode else {
            Issue.record("expected turned labels")
            return
        }
    }

    @Test func marginsLeaveRoomForLabels() {
        let layout = CartesianLayout(
            size: .standard, subtitle: nil, xAxis: Axis(label: "x"), yAxis: Axis(label: "y"),
            xValues: [0, 1], yValues: [0, 123_456_789], legendItems: [])
        let widest = layout.y.maxLabelWidth(fontSize: Theme.tickSize)
        #expect(layout.plot.minX - Theme.tickGap - widest >= Theme.padding + AxisRenderer.yAxisLabelWidth - 0.001)
        #expect(layout.plot.maxX <= ChartSize.standard.width - Theme.padding)
    }

    @Test func roundingWithoutLibm() {
        #expect(DecimalMath.floor(-0.5) == -1)
        #expect(DecimalMath.floor(2.0) == 2)
        #expect(DecimalMath.ceil(-0.5) == 0)
        #expect(DecimalMath.ceil(-0.5).sign == .plus)
        #expect(DecimalMath.round(2.5) == 3)
        #expect(DecimalMath.round(-2.5) == -3)
        #expect(DecimalMath.round(0.49999999999999994) == 0)
        #expect(DecimalMath.round(1e300) == 1e300)
        #expect(DecimalMath.floor(.nan).isNaN)
    }
}
