/// Labels under a row of equal slots (bar clusters, heatmap columns).
///
/// A label that fits its slot is centred on one line; otherwise all labels
/// are wrapped onto up to three lines when every one fits that way, and
/// turned 45° (cut at ``maxRotatedWidth``) when not. Wrapping is preferred:
/// horizontal text reads fastest.
struct CategoryLabels {
    enum Mode: Equatable {
        case lines([[String]])
        case rotated([String])
    }

    static let maxLines = 3
    static let maxRotatedWidth = 200.0
    static let rotatedSine = 0.7071067811865476
    static var lineHeight: Double { Theme.tickSize + 3 }

    let mode: Mode
    let slotWidth: Double

    init(_ labels: [String], slotWidth: Double) {
        self.slotWidth = slotWidth
        let fontSize = Theme.tickSize
        let room = slotWidth - 6
        let wrapped = labels.map { TextMetrics.wrap($0, maxWidth: room, fontSize: fontSize, maxLines: Self.maxLines) }
        if wrapped.allSatisfy({ $0 != nil }) {
            mode = .lines(wrapped.map { $0 ?? [] })
        } else {
            mode = .rotated(labels.map {
                TextMetrics.truncate($0, maxWidth: Self.maxRotatedWidth, fontSize: fontSize)
            })
        }
    }

    /// Height under the plot the labels take, gap included.
    var blockHeight: Double {
        switch mode {
        case let .lines(lines):
            let count = Double(max(1, lines.map(\.count).max() ?? 1))
            return Theme.tickGap + Theme.tickSize + (count - 1) * Self.lineHeight + 2
        case let .rotated(labels):
            let longest = labels.map { TextMetrics.width($0, fontSize: Theme.tickSize) }.max() ?? 0
            return Theme.tickGap + (longest + Theme.tickSize) * Self.rotatedSine + 4
        }
    }

    /// How far turned labels reach left of the first slot's centre: any
    /// label, not only the first, may be long enough to run off the canvas.
    /// Counts the glyphs' ascent, which a turned line pushes further left.
    var leftOverhang: Double {
        guard case let .rotated(labels) = mode else { return 0 }
        var reach = 0.0
        for (i, label) in labels.enumerated() {
            let extent = (TextMetrics.width(label, fontSize: Theme.tickSize) + Theme.tickSize * 0.8) * Self.rotatedSine
            reach = max(reach, extent - Double(i) * slotWidth)
        }
        return reach
    }

    /// Draws label `i` centred on `centers[i]`; `bold` marks one label.
    func draw(centers: [Double], plotBottom: Double, bold: Int?, into writer: inout SVGWriter) {
        let firstBaseline = plotBottom + Theme.tickGap + Theme.tickSize * 0.8
        switch mode {
        case let .lines(lines):
            for (i, label) in lines.enumerated() where i < centers.count {
                for (k, line) in label.enumerated() {
                    Text.draw(line, x: centers[i], y: firstBaseline + Double(k) * Self.lineHeight,
                              size: Theme.tickSize, anchor: "middle", fill: i == bold ? Ink.title : Ink.text,
                              weight: i == bold ? "700" : nil, into: &writer)
                }
            }
        case let .rotated(labels):
            // Neighbouring turned labels are slotWidth·sin 45° apart; when
            // that is less than a line, only every k-th label is drawn.
            let spacing = max(0.01, slotWidth * Self.rotatedSine)
            let every = Int(min(1000, DecimalMath.ceil((Theme.tickSize + 2) / spacing)))
            // Thinning is aligned on the bold label so it is always shown.
            let step = max(1, every)
            let anchor = bold ?? 0
            for (i, label) in labels.enumerated() where i < centers.count && ((i - anchor) % step + step) % step == 0 {
                Text.draw(label, x: centers[i] + 4, y: plotBottom + Theme.tickGap + 6, size: Theme.tickSize,
                          anchor: "end", fill: i == bold ? Ink.title : Ink.text, weight: i == bold ? "700" : nil,
                          rotation: -45, into: &writer)
            }
        }
    }
}
