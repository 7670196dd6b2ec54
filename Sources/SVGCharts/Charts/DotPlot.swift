/// Estimates per category drawn as points with interval whiskers (a dot
/// plot): e.g. time to success p50 and p99 per variant, or peak load per
/// variant against a 1× capacity line.
///
/// Unlike bars, a point claims only its position, so the value axis may be
/// logarithmic or start away from zero without misleading. Each category
/// holds one estimate per series, side by side (dodged) in the series'
/// colour and marker shape; a legend names the series when there are
/// several and explains the whiskers when any is drawn. Category labels
/// wrap, or turn 45° when they do not fit (see ``CategoryLabels``), so 12 or
/// more categories stay readable. Values ≤ 0 on a log axis sit at its
/// minimum; non-finite values are not drawn.
public struct DotPlot: Chart {
    /// One category: `estimates[i]` belongs to `series[i]`; nil or a
    /// non-finite value draws nothing (e.g. no overload to report).
    public struct Category: Sendable, Equatable {
        public var name: String
        public var estimates: [Estimate?]
        /// A level of this category's own, drawn as a dashed segment across its slot (nil:
        /// none), e.g. a service's requests per user operation without failures. The chart's
        /// ``DotPlot/categoryReferenceLabel`` names it in the legend.
        public var reference: Double?

        public init(name: String, estimates: [Estimate?], reference: Double? = nil) {
            self.name = name
            self.estimates = estimates
            self.reference = reference
        }
    }

    /// A horizontal line across the plot at a value, labelled at its right
    /// end: `Reference(value: 1, label: "capacity 1×")`.
    public struct Reference: Sendable, Equatable {
        public var value: Double
        public var label: String

        public init(value: Double, label: String) {
            self.value = value
            self.label = label
        }
    }

    public var title: String
    public var subtitle: String?
    /// Title under the category labels, e.g. "variant".
    public var categoryLabel: String
    /// The value axis (vertical), linear or log; its label carries the unit.
    public var valueAxis: Axis
    /// Series names (1–3 read best), e.g. ["p50", "p99"].
    public var series: [String]
    public var categories: [Category]
    public var references: [Reference]
    /// Name of a category to shade and set in bold, e.g. the recommendation.
    public var highlight: String?
    /// Legend text for the shading.
    public var highlightLabel: String
    /// Legend text for whiskers, shown when any whisker is drawn.
    public var intervalLabel: String
    /// Legend text for the categories' own levels (``Category/reference``), shown when any is drawn.
    public var categoryReferenceLabel: String = "reference"

    public var size: ChartSize

    public init(
        title: String, subtitle: String? = nil, categoryLabel: String, valueAxis: Axis, series: [String],
        categories: [Category], references: [Reference] = [], highlight: String? = nil,
        highlightLabel: String = "recommended", intervalLabel: String = "95% confidence interval",
        size: ChartSize = .standard
    ) {
        self.title = title
        self.subtitle = subtitle
        self.categoryLabel = categoryLabel
        self.valueAxis = valueAxis
        self.series = series
        self.categories = categories
        self.references = references
        self.highlight = highlight
        self.highlightLabel = highlightLabel
        self.intervalLabel = intervalLabel
        self.size = size
    }

    /// The dash of reference lines and segments, as ``ReferenceRenderer`` draws them.
    static let referenceDash = "7 4"

    /// Marker radius and the widest spacing between dodged points (px).
    package static let markerRadius = 5.0
    package static let maxDodge = 24.0

    public func svg() -> String {
        let highlightIndex = highlight.flatMap { name in categories.firstIndex { $0.name == name } }
        let seriesCount = max(1, series.count, categories.map(\.estimates.count).max() ?? 1)
        var values = references.map(\.value) + categories.compactMap(\.reference).filter(\.isFinite)
        var hasWhisker = false
        for category in categories {
            for estimate in category.estimates.compactMap({ $0 }) where estimate.value.isFinite {
                values += estimate.axisValues
                if estimate.interval != nil { hasWhisker = true }
            }
        }
        var items: [LegendItem] = []
        if series.count > 1 {
            items = series.enumerated().map {
                LegendItem(label: $1, swatch: .point(color: Palette.color(at: $0), shape: .at($0), dash: nil))
            }
        }
        if hasWhisker { items.append(LegendItem(label: intervalLabel, swatch: .whisker)) }
        if categories.contains(where: { $0.reference?.isFinite ?? false }) {
            items.append(LegendItem(label: categoryReferenceLabel, swatch: .line(color: Ink.annotationColor, dash: Self.referenceDash)))
        }
        if highlightIndex != nil { items.append(LegendItem(label: highlightLabel, swatch: .shade)) }

        let layout = CategoryLayout(
            size: size, subtitle: subtitle, labels: categories.map(\.name), categoryAxisTitle: categoryLabel,
            yAxis: valueAxis, yValues: values, legendItems: items)
        let plot = layout.plot
        let axis = layout.y
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        if let highlightIndex {
            let band = layout.band(highlightIndex)
            writer.element(
                "rect",
                [
                    ("x", SVGWriter.number(band.minX)), ("y", SVGWriter.number(plot.minY)),
                    ("width", SVGWriter.number(band.width)), ("height", SVGWriter.number(plot.height)),
                    ("fill", Ink.shade)
                ])
        }
        AxisRenderer.drawGrid(x: nil, y: axis, plot: plot, into: &writer)
        AxisRenderer.drawYTickLabels(axis, plot: plot, into: &writer)
        AxisRenderer.drawYAxisLabel(
            axis.title(valueAxis.label), plot: plot, x: Theme.padding + Theme.axisLabelSize,
            into: &writer)
        AxisRenderer.drawAxisLines(plot: plot, into: &writer)
        func py(_ v: Double) -> Double {
            let p = axis.position(min(Axis.magnitudeLimit, max(-Axis.magnitudeLimit, v)), from: plot.maxY, to: plot.minY)
            return SeriesRenderer.clampPixel(p)
        }
        ReferenceRenderer.drawLines(references, y: axis, plot: plot, into: &writer)
        var marks: [Rect] = []
        for (c, category) in categories.enumerated() {
            let band = layout.band(c)
            if let level = category.reference, level.isFinite {
                let y = py(level)
                if y >= plot.minY - 0.5, y <= plot.maxY + 0.5 {
                    writer.element(
                        "line",
                        [
                            ("x1", SVGWriter.number(band.minX + band.width * 0.1)), ("y1", SVGWriter.number(y)),
                            ("x2", SVGWriter.number(band.maxX - band.width * 0.1)), ("y2", SVGWriter.number(y)),
                            ("stroke", Ink.annotation), ("stroke-width", "1.5"), ("stroke-dasharray", Self.referenceDash)
                        ])
                }
            }
            let step = min(Self.maxDodge, band.width * 0.7 / Double(seriesCount))
            for (s, estimate) in category.estimates.enumerated() {
                guard let estimate, estimate.value.isFinite else { continue }
                let x = band.midX + (Double(s) - Double(seriesCount - 1) / 2) * step
                let color = Palette.color(at: s)
                let cap = min(10, max(4, step * 0.6))
                if let (low, high) = estimate.interval {
                    let (a, b) = (py(low), py(high))
                    Whisker.draw(x: x, lowY: a, highY: b, capWidth: cap, color: color, plot: plot, into: &writer)
                    marks.append(Rect(x: x - cap / 2, y: min(a, b), width: cap, height: abs(a - b)))
                }
                let y = py(estimate.value)
                guard y >= plot.minY - 0.5, y <= plot.maxY + 0.5 else { continue }
                let radius = min(Self.markerRadius, max(2, step * 0.4))
                Marker.draw(.at(s), at: PixelPoint(x: x, y: y), radius: radius, color: color, into: &writer)
                marks.append(Rect(x: x - radius * 1.4, y: y - radius * 1.4, width: radius * 2.8, height: radius * 2.8))
            }
        }
        ReferenceRenderer.drawLabels(references, y: axis, plot: plot, avoiding: marks, into: &writer)
        layout.drawCategoryLabels(bold: highlightIndex, into: &writer)
        layout.drawLegend(into: &writer)
        return writer.finish()
    }
}
