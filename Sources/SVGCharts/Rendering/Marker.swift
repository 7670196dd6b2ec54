/// Draws the point marks of series and legend swatches, one shape per ``MarkerShape``.
package enum Marker {
    /// Draws `shape` centred at `center` with about the area of a circle of
    /// `radius`, filled with `color` and outlined in white so that
    /// overlapping marks and the lines under them stay apart.
    package static func draw(
        _ shape: MarkerShape, at center: PixelPoint, radius: Double, color: Color,
        into writer: inout SVGWriter
    ) {
        let n = SVGWriter.number
        let (x, y, r) = (center.x, center.y, radius)
        let outline: SVGWriter.Attributes = [("fill", color.hex), ("stroke", "#ffffff"), ("stroke-width", "1")]
        switch shape {
        case .circle:
            writer.element("circle", [("cx", n(x)), ("cy", n(y)), ("r", n(r))] + outline)
        case .square:
            // Side r·√π: the circle's area.
            let half = r * 0.886
            writer.element(
                "rect",
                [
                    ("x", n(x - half)), ("y", n(y - half)), ("width", n(2 * half)),
                    ("height", n(2 * half))
                ] + outline)
        case .diamond:
            let d = r * 1.25
            writer.element(
                "polygon",
                [("points", "\(n(x)),\(n(y - d)) \(n(x + d)),\(n(y)) \(n(x)),\(n(y + d)) \(n(x - d)),\(n(y))")]
                    + outline)
        case .triangle:
            let top = r * 1.35
            let base = r * 0.78
            let half = r * 1.35
            writer.element(
                "polygon",
                [("points", "\(n(x)),\(n(y - top)) \(n(x + half)),\(n(y + base)) \(n(x - half)),\(n(y + base))")]
                    + outline)
        }
    }
}

/// Point marks: the shape repeats what the colour says, so series stay
/// apart in greyscale and for colour-blind readers.
package enum MarkerShape: Equatable, CaseIterable {
    case circle, square, diamond, triangle

    /// The shape for the series at `index` (cycles after four).
    package static func at(_ index: Int) -> MarkerShape {
        allCases[((index % allCases.count) + allCases.count) % allCases.count]
    }
}
