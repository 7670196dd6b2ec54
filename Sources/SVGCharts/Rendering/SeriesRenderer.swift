/// Draws line, step and area series onto a plot rectangle.
package enum SeriesRenderer {
    /// Pixel coordinates beyond this are clamped before clipping, so data
    /// far outside a fixed axis range cannot overflow.
    package static let pixelLimit = 1e9

    /// Areas first, then all lines, so no fill covers a line.
    package static func draw(
        _ styled: [StyledSeries], x: ResolvedAxis, y: ResolvedAxis, plot: Rect,
        into writer: inout SVGWriter
    ) {
        for s in styled where s.series.style == .area {
            drawAreaFill(s, x: x, y: y, plot: plot, into: &writer)
        }
        for s in styled {
            for run in finiteRuns(s.series.points) {
                let data = s.series.style == .step ? stepPoints(run) : run
                let pixels = data.map { pixel($0, x: x, y: y, plot: plot) }
                drawPolyline(pixels, color: s.color, dash: s.dash, plot: plot, into: &writer)
            }
        }
        for s in styled where s.series.marksPoints {
            for p in s.series.points where p.x.isFinite && p.y.isFinite {
                let px = pixel(p, x: x, y: y, plot: plot)
                guard px.x >= plot.minX - 0.5, px.x <= plot.maxX + 0.5, px.y >= plot.minY - 0.5,
                    px.y <= plot.maxY + 0.5
                else { continue }
                Marker.draw(s.marker, at: px, radius: markerRadius, color: s.color, into: &writer)
            }
        }
    }

    /// Radius of point marks on lines (px).
    package static let markerRadius = 4.0

    /// Empirical CDF curves: each point's level holds until the next point
    /// (step-after), rising from 0 at the first point and extended to the
    /// plot's right edge at the last level.
    package static func drawCDF(
        _ styled: [StyledSeries], x: ResolvedAxis, y: ResolvedAxis, plot: Rect,
        into writer: inout SVGWriter
    ) {
        for s in styled {
            let points = s.series.points.filter { $0.x.isFinite && $0.y.isFinite }
            guard !points.isEmpty else { continue }
            var data: [DataPoint] = [DataPoint(x: points[0].x, y: 0)]
            for (i, p) in points.enumerated() {
                if i > 0 { data.append(DataPoint(x: p.x, y: points[i - 1].y)) }
                data.append(p)
            }
            var pixels = data.map { pixel($0, x: x, y: y, plot: plot) }
            if let last = pixels.last, last.x < plot.maxX {
                pixels.append(PixelPoint(x: plot.maxX, y: last.y))
            }
            drawPolyline(pixels, color: s.color, dash: s.dash, plot: plot, into: &writer)
        }
    }

    /// Maximal runs of points with finite coordinates.
    package static func finiteRuns(_ points: [DataPoint]) -> [[DataPoint]] {
        var runs: [[DataPoint]] = []
        var current: [DataPoint] = []
        for p in points {
            if p.x.isFinite && p.y.isFinite {
                current.append(p)
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// Bucket values as a staircase: each y spans [x_i, x_{i+1}); the last
    /// bucket repeats the previous width. A lone point stays a point.
    package static func stepPoints(_ run: [DataPoint]) -> [DataPoint] {
        guard run.count > 1 else { return run }
        var result: [DataPoint] = []
        for i in run.indices {
            let start = run[i].x
            let end = i + 1 < run.count ? run[i + 1].x : run[i].x + (run[i].x - run[i - 1].x)
            result.append(DataPoint(x: start, y: run[i].y))
            result.append(DataPoint(x: end, y: run[i].y))
        }
        return result
    }

    /// Data values are clamped to the same limit as axis ranges first, so
    /// a point at ±1.7e308 lands where the axis says, not at infinity.
    package static func pixel(_ p: DataPoint, x: ResolvedAxis, y: ResolvedAxis, plot: Rect) -> PixelPoint {
        let limit = Axis.magnitudeLimit
        let px = x.position(min(limit, max(-limit, p.x)), from: plot.minX, to: plot.maxX)
        let py = y.position(min(limit, max(-limit, p.y)), from: plot.maxY, to: plot.minY)
        return PixelPoint(x: clampPixel(px), y: clampPixel(py))
    }

    package static func clampPixel(_ v: Double) -> Double {
        v.isFinite ? min(pixelLimit, max(-pixelLimit, v)) : 0
    }

    /// A clipped polyline; a single visible point becomes a dot.
    package static func drawPolyline(
        _ pixels: [PixelPoint], color: Color, dash: String, plot: Rect,
        into writer: inout SVGWriter
    ) {
        // Half a pixel of slack keeps lines lying exactly on the plot edge
        // (a maximum at the top of the range) from being clipped by rounding.
        let bounds = Rect(x: plot.minX - 0.5, y: plot.minY - 0.5, width: plot.width + 1, height: plot.height + 1)
        for clipped in Geometry.clip(polyline: pixels, to: bounds) {
            let run = Geometry.simplify(clipped)
            if run.count == 1 || run.allSatisfy({ $0 == run[0] }) {
                writer.element(
                    "circle",
                    [
                        ("cx", SVGWriter.number(run[0].x)), ("cy", SVGWriter.number(run[0].y)), ("r", "3"),
                        ("fill", color.hex)
                    ])
                continue
            }
            var attributes: SVGWriter.Attributes = [
                ("d", Geometry.pathData(run)), ("fill", "none"), ("stroke", color.hex),
                ("stroke-width", SVGWriter.number(Theme.lineWidth)), ("stroke-linejoin", "round"),
                ("stroke-linecap", "round")
            ]
            if !dash.isEmpty { attributes.append(("stroke-dasharray", dash)) }
            writer.element("path", attributes)
        }
    }

    /// The region between the series and y = 0 (or the plot's bottom when
    /// 0 is below the range), clamped to the plot.
    private static func drawAreaFill(
        _ s: StyledSeries, x: ResolvedAxis, y: ResolvedAxis, plot: Rect,
        into writer: inout SVGWriter
    ) {
        let zero = y.scale == .linear ? y.position(0, from: plot.maxY, to: plot.minY) : plot.maxY
        let baseline = min(plot.maxY, max(plot.minY, zero))
        for run in finiteRuns(s.series.points) where run.count > 1 {
            let pixels = run.map { clampToPlot(pixel($0, x: x, y: y, plot: plot), plot) }
            var outline = [PixelPoint(x: pixels[0].x, y: baseline)] + pixels
            outline.append(PixelPoint(x: pixels[pixels.count - 1].x, y: baseline))
            writer.element(
                "path",
                [
                    ("d", Geometry.pathData(Geometry.simplify(outline)) + "Z"), ("fill", s.color.hex),
                    ("fill-opacity", "0.18"),
                    ("stroke", "none")
                ])
        }
    }

    package static func clampToPlot(_ p: PixelPoint, _ plot: Rect) -> PixelPoint {
        PixelPoint(x: min(plot.maxX, max(plot.minX, p.x)), y: min(plot.maxY, max(plot.minY, p.y)))
    }
}
