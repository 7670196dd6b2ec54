/// Title and subtitle at the top left of a chart.
enum Header {
    /// Draws the header and returns the y below it where content may start.
    @discardableResult
    static func draw(title: String, subtitle: String?, width: Double, into writer: inout SVGWriter) -> Double {
        let room = width - 2 * Theme.padding
        var baseline = Theme.padding + Theme.titleSize * 0.8
        let titleText = TextMetrics.truncate(title, maxWidth: room / TextMetrics.boldFactor, fontSize: Theme.titleSize)
        Text.draw(titleText, x: Theme.padding, y: baseline, size: Theme.titleSize, fill: Ink.title,
                  weight: "600", into: &writer)
        if let subtitle, !subtitle.isEmpty {
            baseline += Theme.subtitleSize + 8
            let text = TextMetrics.truncate(subtitle, maxWidth: room, fontSize: Theme.subtitleSize)
            Text.draw(text, x: Theme.padding, y: baseline, size: Theme.subtitleSize, fill: Ink.muted, into: &writer)
        }
        return baseline + 14
    }

    /// The y `draw` returns, without drawing.
    static func bottom(subtitle: String?) -> Double {
        var baseline = Theme.padding + Theme.titleSize * 0.8
        if let subtitle, !subtitle.isEmpty { baseline += Theme.subtitleSize + 8 }
        return baseline + 14
    }
}
