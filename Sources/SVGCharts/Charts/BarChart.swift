/// Grouped bars with confidence-interval whiskers: one cluster per category
/// (e.g. retry policy), one bar per group (e.g. p50 and p99) coloured by
/// group.
///
/// Linear y axes always include 0 (a bar's length is its value); on a log
/// y axis bars rise from the arbitrary axis minimum, so their lengths mean
/// nothing: for values spanning decades use ``DotPlot``. Values ≤ 0 on a
/// log axis draw no bar. A bar
/// with a non-finite value is not drawn; a whisker is drawn only when both
/// ends are finite.
public struct BarChart: Chart {
    /// One bar: a value and an optional interval, in y-axis units.
    public struct Bar: Sendable, Equatable {
        public var value: Double
        public var low: Double?
        public var high: Double?

        public init(value: Double, low: Double? = nil, high: Double? = nil) {
            self.value = value
            self.low = low
            self.high = high
        }
    }

    /// One cluster: `bars[i]` belongs to `groups[i]`; missing bars are not drawn.
    public struct Category: Sendable, Equatable {
        public var name: String
        public var bars: [Bar]

        public init(name: String, bars: [Bar]) {
            self.name = name
            self.bars = bars
        }
    }

    public var title: String
    public var subtitle: String?
    /// Title under the category labels, e.g. "retry policy".
    public var categoryLabel: String
    public var yAxis: Axis
    /// Group names, e.g. ["p50", "p99"]; legend shown when more than one.
    public var groups: [String]
    public var categories: [Category]
    /// Name of the category to mark with a star and "best".
    public var best: String?
    /// Legend text for whiskers, shown when any bar has one.
    public var intervalLabel: String
    public var size: ChartSize

    public init(
        title: String, subtitle: String? = nil, categoryLabel: String, yAxis: Axis,
        groups: [String], categories: [Category], best: String? = nil,
        intervalLabel: String = "95% confidence interval", size: ChartSize = .standard
    ) {
        self.title = title
        self.subtitle = subtitle
        self.categoryLabel = categoryLabel
        self.yAxis = yAxis
        self.groups = groups
        self.categories = categories
        self.best = best
        self.intervalLabel = intervalLabel
        self.size = size
    }

    package static let maxBarWidth = 56.0

    public func svg() -> String {
        let bestIndex = best.flatMap { name in categories.firstIndex { $0.name == name } }
        var yValues: [Double] = []
        var hasWhisker = false
        for category in categories {
            for bar in category.bars {
                yValues += [bar.value, bar.low ?? .nan, bar.high ?? .nan]
                if let low = bar.low, let high = bar.high, low.isFinite, high.isFinite { hasWhisker = true }
            }
        }
        if let bestIndex {
            // Headroom for the star above the best cluster.
            let top = categories[bestIndex].bars.flatMap { [$0.value, $0.high ?? .nan] }.filter(\.isFinite).max()
            if let top, top > 0 { yValues.append(yAxis.scale == .log ? top * 2.5 : top * 1.12) }
        }
        var y = yAxis
        if y.scale == .linear { y.includesZero = true }

        var items: [LegendItem] = []
        if groups.count > 1 {
            items = groups.enumerated().map { LegendItem(label: $1, swatch: .box(color: Palette.color(at: $0))) }
        }
        if hasWhisker { items.append(LegendItem(label: intervalLabel, swatch: .whisker)) }

        let layout = CategoryLayout(
            size: size, subtitle: subtitle, labels: categories.map(\.name), categoryAxisTitle: categoryLabel,
            yAxis: y, yValues: yValues, legendItems: items)
        let plot = layout.plot
        let yAxisResolved = layout.y
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        if let bestIndex {
            let band = layout.band(bestIndex)
            writer.element(
                "rect",
                [
                    ("x", SVGWriter.number(band.minX)), ("y", SVGWriter.number(plot.minY)),
                    ("width", SVGWriter.number(band.width)), ("height", SVGWriter.number(plot.height)),
                    ("fill", "#000000"), ("fill-opacity", "0.05")
                ])
        }
        AxisRenderer.drawGrid(x: nil, y: yAxisResolved, plot: plot, into: &writer)
        AxisRenderer.drawYTickLabels(yAxisResolved, plot: plot, into: &writer)
        AxisRenderer.drawYAxisLabel(yAxisResolved.title(yAxis.label), plot: plot, x: Theme.padding + Theme.axisLabelSize, into: &writer)

        let baseline =
            yAxisResolved.scale == .linear
            ? min(plot.maxY, max(plot.minY, yAxisResolved.position(0, from: plot.maxY, to: plot.minY)))
            : plot.maxY
        func py(_ v: Double) -> Double {
            min(plot.maxY, max(plot.minY, yAxisResolved.position(v, from: plot.maxY, to: plot.minY)))
        }
        let groupCount = max(1, groups.count, categories.map(\.bars.count).max() ?? 1)
        for (c, category) in categories.enumerated() {
            let band = layout.band(c)
            let barWidth = min(Self.maxBarWidth, band.width * 0.8 / Double(groupCount))
            let clusterStart = band.midX - barWidth * Double(groupCount) / 2
            var whiskers = ""
            let n = SVGWriter.number
            for (g, bar) in category.bars.enumerated() where bar.value.isFinite {
                let x = clusterStart + Double(g) * barWidth
                let top = py(bar.value)
                let rectTop = min(top, baseline)
                writer.element(
                    "rect",
                    [
                        ("x", n(x + 1)), ("y", n(rectTop)), ("width", n(max(1, barWidth - 2))),
                        ("height", n(abs(baseline - top))), ("fill", Palette.color(at: g).hex)
                    ])
                if let low = bar.low, let high = bar.high, low.isFinite, high.isFinite {
                    let cx = x + barWidth / 2
                    let cap = min(10, barWidth * 0.5) / 2
                    let a = py(low)
                    let b = py(high)
                    whiskers += "M\(n(cx)) \(n(a))V\(n(b))M\(n(cx - cap)) \(n(a))H\(n(cx + cap))"
                    whiskers += "M\(n(cx - cap)) \(n(b))H\(n(cx + cap))"
                }
            }
            if !whiskers.isEmpty {
                writer.element(
                    "path",
                    [
                        ("d", whiskers), ("stroke", "#222222"), ("stroke-width", "1.5"), ("fill", "none")
                    ])
            }
        }
        AxisRenderer.drawAxisLines(plot: plot, into: &writer)
        layout.drawCategoryLabels(bold: bestIndex, into: &writer)
        if let bestIndex {
            drawBestMarker(
                category: categories[bestIndex], band: layout.band(bestIndex), py: py, plot: plot,
                into: &writer)
        }
        layout.drawLegend(into: &writer)
        return writer.finish()
    }

    private func drawBestMarker(
        category: Category, band: Rect, py: (Double) -> Double, plot: Rect, into writer: inout SVGWriter
    ) {
        let top = category.bars.flatMap { [$0.value, $0.high ?? .nan] }.filter(\.isFinite).max() ?? 0
        let centerY = max(plot.minY + 9, py(top) - 14)
        let label = "best"
        let width = 18 + TextMetrics.width(label, fontSize: 13) * TextMetrics.boldFactor
        let startX = band.midX - width / 2
        writer.element(
            "polygon",
            [
                ("points", Geometry.starPoints(center: PixelPoint(x: startX + 7, y: centerY), radius: 8)),
                ("fill", "#1a1a1a"), ("stroke", "#ffffff"), ("stroke-width", "1"), ("stroke-linejoin", "round")
            ])
        Text.halo(label, x: startX + 18, y: centerY + 4.5, size: 13, fill: "#1a1a1a", weight: "600", into: &writer)
    }
}
