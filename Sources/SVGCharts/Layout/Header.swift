/// Title and subtitle at the top left of a chart.
///
/// The subtitle says what the marks mean (the shading, the ★, the replications), so it is wrapped
/// onto a second line rather than cut; only beyond two lines is the end cut with "…".
package enum Header {
    /// Subtitle lines at most.
    package static let maxSubtitleLines = 2
    /// Space between subtitle lines, beyond the font size.
    package static let subtitleLeading = 4.0

    /// Draws the header and returns the y below it where content may start.
    @discardableResult
    package static func draw(title: String, subtitle: String?, width: Double, into writer: inout SVGWriter) -> Double {
        let room = width - 2 * Theme.padding
        var baseline = Theme.padding + Theme.titleSize * 0.8
        let titleText = TextMetrics.truncate(title, maxWidth: room / TextMetrics.boldFactor, fontSize: Theme.titleSize)
        Text.draw(
            titleText, x: Theme.padding, y: baseline, size: Theme.titleSize, fill: Ink.title,
            weight: "600", into: &writer)
        for (i, line) in subtitleLines(subtitle, width: width).enumerated() {
            baseline += i == 0 ? Theme.subtitleSize + 8 : Theme.subtitleSize + subtitleLeading
            Text.draw(line, x: Theme.padding, y: baseline, size: Theme.subtitleSize, fill: Ink.muted, into: &writer)
        }
        return baseline + 14
    }

    /// The y `draw` returns, without drawing.
    package static func bottom(subtitle: String?, width: Double) -> Double {
        var baseline = Theme.padding + Theme.titleSize * 0.8
        let lines = subtitleLines(subtitle, width: width).count
        if lines > 0 { baseline += Theme.subtitleSize + 8 + Double(lines - 1) * (Theme.subtitleSize + subtitleLeading) }
        return baseline + 14
    }

    /// The subtitle as drawn: one line when it fits, else wrapped — between its " · " parts when
    /// each fits a line, else between words — and past two lines the rest cut with "…" on the
    /// second.
    package static func subtitleLines(_ subtitle: String?, width: Double) -> [String] {
        guard let subtitle, !subtitle.isEmpty else { return [] }
        let room = width - 2 * Theme.padding
        guard
            let lines = wrapParts(subtitle, maxWidth: room)
                ?? TextMetrics.wrap(subtitle, maxWidth: room, fontSize: Theme.subtitleSize, maxLines: .max)
        else {
            return [TextMetrics.truncate(subtitle, maxWidth: room, fontSize: Theme.subtitleSize)]
        }
        guard lines.count > maxSubtitleLines else { return lines }
        // Every line is a prefix of what is left: the rest starts after the kept lines and the
        // separator or space that followed them.
        var rest = Substring(subtitle)
        for line in lines.prefix(maxSubtitleLines - 1) {
            rest = rest.dropFirst(line.count)
            while rest.first == " " || rest.first == "·" { rest = rest.dropFirst() }
        }
        return Array(lines.prefix(maxSubtitleLines - 1))
            + [TextMetrics.truncate(String(rest), maxWidth: room, fontSize: Theme.subtitleSize)]
    }

    /// Greedy wrap of the " · "-separated parts of `text`, whole parts to a line; nil when a part
    /// alone is wider than a line.
    package static func wrapParts(_ text: String, maxWidth: Double) -> [String]? {
        var lines: [String] = []
        var current = ""
        for part in text.split(separator: " · ", omittingEmptySubsequences: false).map(String.init) {
            if TextMetrics.width(part, fontSize: Theme.subtitleSize) > maxWidth { return nil }
            let candidate = current.isEmpty ? part : current + " · " + part
            if TextMetrics.width(candidate, fontSize: Theme.subtitleSize) <= maxWidth {
                current = candidate
            } else {
                lines.append(current)
                current = part
            }
        }
        lines.append(current)
        return lines
    }
}
