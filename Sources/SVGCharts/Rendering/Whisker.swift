/// Interval whiskers: a vertical line with caps.
package enum Whisker {
    /// Draws a whisker at `x` from pixel `lowY` to `highY`, clamped to the
    /// plot. An end cut by the plot edge gets no cap, so a clipped interval
    /// does not read as a short one. Draws nothing when the interval lies
    /// entirely outside the plot.
    package static func draw(
        x: Double, lowY: Double, highY: Double, capWidth: Double, color: Color, plot: Rect,
        into writer: inout SVGWriter
    ) {
        let n = SVGWriter.number
        let top = min(lowY, highY)
        let bottom = max(lowY, highY)
        guard top.isFinite, bottom.isFinite, bottom >= plot.minY, top <= plot.maxY else { return }
        let a = max(plot.minY, top)
        let b = min(plot.maxY, bottom)
        let half = capWidth / 2
        var d = "M\(n(x)) \(n(a))V\(n(b))"
        if top >= plot.minY { d += "M\(n(x - half)) \(n(a))H\(n(x + half))" }
        if bottom <= plot.maxY { d += "M\(n(x - half)) \(n(b))H\(n(x + half))" }
        writer.element(
            "path",
            [
                ("d", d), ("stroke", color.hex), ("stroke-width", "1.5"), ("stroke-linecap", "butt"), ("fill", "none")
            ])
    }
}
