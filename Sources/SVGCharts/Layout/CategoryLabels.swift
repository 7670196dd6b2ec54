/// Labels under a row of slots (bar clusters, heatmap columns), each
/// centred on its anchor: the slot's middle, or a numeric value's position.
///
/// A label that fits its room is centred on one line; otherwise all labels
/// are wrapped onto up to three lines when every one fits that way, and
/// turned 45° (cut at ``maxRotatedWidth``) when not. Wrapping is preferred:
/// horizontal text reads fastest. Turned labels closer than a line of text
/// are thinned, keeping the bold one.
package struct CategoryLabels {
    package enum Mode: Equatable {
        case lines([[String]])
        case rotated([String])
    }

    package static let maxLines = 3
    package static let maxRotatedWidth = 200.0
    package static let rotatedSine = 0.7071067811865476
    package static var lineHeight: Double { Theme.tickSize + 3 }

    package let mode: Mode
    /// Anchor of each label relative to the first (px, increasing).
    package let offsets: [Double]

    /// Equal slots of `slotWidth`, anchors at their middles.
    package init(_ labels: [String], slotWidth: Double, maxRotatedWidth: Double = maxRotatedWidth) {
        self.init(
            labels, offsets: labels.indices.map { Double($0) * slotWidth },
            rooms: labels.map { _ in slotWidth }, maxRotatedWidth: maxRotatedWidth)
    }

    /// Labels anchored `offsets[i]` px after the first, label `i` free to
    /// use `rooms[i]` px centred on its anchor; turned labels are cut at
    /// `maxRotatedWidth`.
    package init(_ labels: [String], offsets: [Double], rooms: [Double], maxRotatedWidth: Double = maxRotatedWidth) {
        self.offsets = offsets
        let fontSize = Theme.tickSize
        let wrapped = labels.enumerated().map { i, label in
            TextMetrics.wrap(
                label, maxWidth: (i < rooms.count ? rooms[i] : 0) - 6, fontSize: fontSize,
                maxLines: Self.maxLines)
        }
        if wrapped.allSatisfy({ $0 != nil }) {
            mode = .lines(wrapped.map { $0 ?? [] })
        } else {
            mode = .rotated(
                labels.map {
                    TextMetrics.truncate($0, maxWidth: max(0, maxRotatedWidth), fontSize: fontSize)
                })
        }
    }

    /// Height under the plot the labels take, gap included.
    package var blockHeight: Double {
        switch mode {
        case .lines(let lines):
            let count = Double(max(1, lines.map(\.count).max() ?? 1))
            return Theme.tickGap + Theme.tickSize + (count - 1) * Self.lineHeight + 2
        case .rotated(let labels):
            let longest = labels.map { TextMetrics.width($0, fontSize: Theme.tickSize) }.max() ?? 0
            return Theme.tickGap + (longest + Theme.tickSize) * Self.rotatedSine + 4
        }
    }

    /// How far turned labels reach left of the first anchor: any label, not
    /// only the first, may be long enough to run off the canvas. Counts the
    /// glyphs' ascent, which a turned line pushes further left.
    package var leftOverhang: Double {
        guard case .rotated(let labels) = mode else { return 0 }
        var reach = 0.0
        for (i, label) in labels.enumerated() where i < offsets.count {
            let extent = (TextMetrics.width(label, fontSize: Theme.tickSize) + Theme.tickSize * 0.8) * Self.rotatedSine
            reach = max(reach, extent - offsets[i])
        }
        return reach
    }

    /// The most turned labels a block may hold: its height up to a share
    /// of the canvas, so long names cannot squeeze the plot away.
    package static func maxRotatedWidth(canvasHeight: Double) -> Double {
        min(maxRotatedWidth, canvasHeight * 0.3 / rotatedSine - Theme.tickSize)
    }

    /// Indices of the turned labels drawn at `positions`: the bold one, then
    /// from left to right every label at least a line of text (measured
    /// across the slant) from those kept.
    package static func shownIndices(_ positions: [Double], bold: Int?) -> [Int] {
        let needed = (Theme.tickSize + 2) / rotatedSine
        var kept: [Int] = []
        if let bold, positions.indices.contains(bold) { kept.append(bold) }
        for i in positions.indices where i != bold {
            if kept.allSatisfy({ abs(positions[$0] - positions[i]) >= needed - 1e-9 }) { kept.append(i) }
        }
        return kept.sorted()
    }

    /// Draws label `i` centred on `centers[i]`; `bold` marks one label.
    package func draw(centers: [Double], plotBottom: Double, bold: Int?, into writer: inout SVGWriter) {
        let firstBaseline = plotBottom + Theme.tickGap + Theme.tickSize * 0.8
        switch mode {
        case .lines(let lines):
            for (i, label) in lines.enumerated() where i < centers.count {
                for (k, line) in label.enumerated() {
                    Text.draw(
                        line, x: centers[i], y: firstBaseline + Double(k) * Self.lineHeight,
                        size: Theme.tickSize, anchor: "middle", fill: i == bold ? Ink.title : Ink.text,
                        weight: i == bold ? "700" : nil, into: &writer)
                }
            }
        case .rotated(let labels):
            // Thinned on the centres drawn at, not the offsets assumed.
            for i in Self.shownIndices(centers, bold: bold) where i < labels.count {
                Text.draw(
                    labels[i], x: centers[i] + 4, y: plotBottom + Theme.tickGap + 6, size: Theme.tickSize,
                    anchor: "end", fill: i == bold ? Ink.title : Ink.text, weight: i == bold ? "700" : nil,
                    rotation: -45, into: &writer)
            }
        }
    }
}
