/// Means with interval whiskers over a numeric x, for a one-parameter sweep:
/// x at the actual parameter values on a linear or log axis (so unevenly
/// refined values sit where they are), y the metric's mean with its 95%
/// confidence interval at each point, lines joining the means.
///
/// ```swift
/// IntervalLineChart(
///     title: "p99 time to success over the base delay",
///     xAxis: Axis(label: "base delay", scale: .log, format: .duration),
///     yAxis: Axis(label: "p99 time to success", format: .duration),
///     lines: [.init(name: "full jitter", points: [.init(x: 0.1, value: 2.1, low: 1.9, high: 2.4)])],
///     highlight: .init(x: 0.1, label: "recommended: 100 ms"))
/// ```
/// Points with a non-finite x or mean are skipped and break the line. The
/// highlighted point gets a ring and a boxed label placed inside the plot
/// where it covers no other mark when it can.
public struct IntervalLineChart: Chart {
    /// One evaluated parameter value: x and the estimate there.
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var estimate: Estimate

        public init(x: Double, value: Double, low: Double? = nil, high: Double? = nil) {
            self.x = x
            estimate = Estimate(value, low: low, high: high)
        }
    }

    /// A line of points; several lines (variants) share the axes.
    public struct Line: Sendable, Equatable {
        public var name: String
        public var points: [Point]
        /// nil picks the palette colour by the line's position.
        public var color: Color?

        public init(name: String, points: [Point], color: Color? = nil) {
            self.name = name
            self.points = points
            self.color = color
        }
    }

    /// Points on line `line` (at the xs given, exact match) ringed with a dashed circle and named
    /// in the legend, e.g. the sweep values whose points lose clearly more operations.
    public struct Flags: Sendable, Equatable {
        public var line: Int
        public var xs: [Double]
        public var label: String

        public init(line: Int = 0, xs: [Double], label: String) {
            self.line = line
            self.xs = xs
            self.label = label
        }
    }

    /// The point at `x` on line `line` (exact match), e.g. the recommendation.
    public struct Highlight: Sendable, Equatable {
        public var line: Int
        public var x: Double
        public var label: String

        public init(line: Int = 0, x: Double, label: String) {
            self.line = line
            self.x = x
            self.label = label
        }
    }

    public var title: String
    public var subtitle: String?
    public var xAxis: Axis
    public var yAxis: Axis
    public var lines: [Line]
    public var highlight: Highlight?
    /// Points to ring (nil or no xs: none, and no legend entry).
    public var flags: Flags?
    /// Legend text for whiskers, shown when any whisker is drawn.
    public var intervalLabel: String
    public var annotations: [Annotation]
    public var size: ChartSize

    public init(
        title: String, subtitle: String? = nil, xAxis: Axis, yAxis: Axis, lines: [Line], highlight: Highlight? = nil,
        flags: Flags? = nil, intervalLabel: String = "95% confidence interval", annotations: [Annotation] = [],
        size: ChartSize = .standard
    ) {
        self.flags = flags
        self.title = title
        self.subtitle = subtitle
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.lines = lines
        self.highlight = highlight
        self.intervalLabel = intervalLabel
        self.annotations = annotations
        self.size = size
    }

    package static let markerRadius = 4.0
    package static let capWidth = 8.0

    public func svg() -> String {
        let colors = lines.enumerated().map { $1.color ?? Palette.color(at: $0) }
        var xValues = annotations.flatMap(\.xValues)
        var yValues = annotations.flatMap(\.yValues)
        var hasWhisker = false
        for line in lines {
            for p in line.points where p.x.isFinite && p.estimate.value.isFinite {
                xValues.append(p.x)
                yValues += p.estimate.axisValues
                if p.estimate.interval != nil { hasWhisker = true }
            }
        }
        var items: [LegendItem] = []
        if lines.count > 1 {
            items = lines.enumerated().map {
                LegendItem(label: $1.name, swatch: .point(color: colors[$0], shape: .at($0), dash: ""))
            }
        }
        if hasWhisker { items.append(LegendItem(label: intervalLabel, swatch: .whisker)) }
        let flagged = flaggedPoints()
        if let flags, !flagged.isEmpty { items.append(LegendItem(label: flags.label, swatch: .flagRing)) }
        let layout = CartesianLayout(
            size: size, subtitle: subtitle, xAxis: xAxis, yAxis: yAxis, xValues: xValues,
            yValues: yValues, legendItems: items)
        let plot = layout.plot
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        AnnotationRenderer.drawBands(annotations, x: layout.x, plot: plot, into: &writer)
        layout.drawAxes(xLabel: xAxis.label, yLabel: yAxis.label, into: &writer)

        func pixel(_ x: Double, _ y: Double) -> PixelPoint {
            SeriesRenderer.pixel(DataPoint(x: x, y: y), x: layout.x, y: layout.y, plot: plot)
        }
        func inside(_ p: PixelPoint) -> Bool {
            p.x >= plot.minX - 0.5 && p.x <= plot.maxX + 0.5 && p.y >= plot.minY - 0.5 && p.y <= plot.maxY + 0.5
        }
        var marks: [Rect] = []
        for annotation in annotations {
            switch annotation {
            case .yReference(let at, _):
                marks += [ReferenceRenderer.lineFootprint(at: at, y: layout.y, plot: plot)].compactMap { $0 }
            case .xMarker(let at, _) where at.isFinite:
                let px = layout.x.position(at, from: plot.minX, to: plot.maxX)
                marks.append(Rect(x: px - 2, y: plot.minY, width: 4, height: plot.height))
            default:
                break
            }
        }
        for (i, line) in lines.enumerated() {
            for p in line.points where p.x.isFinite && p.estimate.value.isFinite {
                guard let (low, high) = p.estimate.interval else { continue }
                let x = pixel(p.x, p.estimate.value).x
                guard x >= plot.minX - 0.5, x <= plot.maxX + 0.5 else { continue }
                let a = pixel(p.x, low).y
                let b = pixel(p.x, high).y
                Whisker.draw(
                    x: x, lowY: a, highY: b, capWidth: Self.capWidth, color: colors[i], plot: plot,
                    into: &writer)
                marks.append(Rect(x: x - Self.capWidth / 2, y: min(a, b), width: Self.capWidth, height: abs(a - b)))
            }
        }
        for (i, line) in lines.enumerated() {
            let points = line.points.map { DataPoint(x: $0.x, y: $0.estimate.value) }
            for run in SeriesRenderer.finiteRuns(points) {
                let pixels = run.map { pixel($0.x, $0.y) }
                SeriesRenderer.drawPolyline(pixels, color: colors[i], dash: "", plot: plot, into: &writer)
                marks += Self.sampledBoxes(pixels)
            }
        }
        for (i, line) in lines.enumerated() {
            for p in line.points where p.x.isFinite && p.estimate.value.isFinite {
                let center = pixel(p.x, p.estimate.value)
                guard inside(center) else { continue }
                Marker.draw(.at(i), at: center, radius: Self.markerRadius, color: colors[i], into: &writer)
                let r = Self.markerRadius * 1.4
                marks.append(Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r))
            }
        }
        for p in flagged {
            let center = pixel(p.x, p.estimate.value)
            guard inside(center) else { continue }
            FlagRing.draw(at: center, into: &writer)
            let r = FlagRing.radius + 1
            marks.append(Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r))
        }
        let labels = AnnotationRenderer.drawOverlays(annotations, x: layout.x, y: layout.y, plot: plot, into: &writer)
        if let highlight, let target = highlightedPoint(highlight) {
            let center = pixel(target.x, target.estimate.value)
            if inside(center) {
                HighlightLabel.draw(
                    highlight.label, at: center, plot: plot, avoiding: marks, labels: labels,
                    into: &writer)
            }
        }
        layout.drawLegend(into: &writer)
        return writer.finish()
    }

    /// Small boxes every few pixels along a polyline, so a label can keep
    /// off the line as well as off the marks.
    package static func sampledBoxes(_ pixels: [PixelPoint]) -> [Rect] {
        var boxes: [Rect] = []
        for (a, b) in zip(pixels, pixels.dropFirst()) {
            let length = abs(b.x - a.x) + abs(b.y - a.y)
            let steps = Int(min(400, max(1, DecimalMath.ceil(length / 4))))
            for k in 0...steps {
                let t = Double(k) / Double(steps)
                boxes.append(Rect(x: a.x + (b.x - a.x) * t - 1.5, y: a.y + (b.y - a.y) * t - 1.5, width: 3, height: 3))
            }
        }
        return boxes
    }

    /// The finite points `flags` names.
    package func flaggedPoints() -> [Point] {
        guard let flags, lines.indices.contains(flags.line) else { return [] }
        return lines[flags.line].points.filter { flags.xs.contains($0.x) && $0.estimate.value.isFinite && $0.x.isFinite }
    }

    /// The point `highlight` names, when its line has a finite point at exactly that x.
    package func highlightedPoint(_ highlight: Highlight) -> Point? {
        guard lines.indices.contains(highlight.line) else { return nil }
        return lines[highlight.line].points.first { $0.x == highlight.x && $0.estimate.value.isFinite }
    }
}
