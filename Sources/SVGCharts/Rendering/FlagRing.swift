/// A dashed ring around a point that a caption qualifies, e.g. a sweep's point that loses clearly
/// more operations: its value is drawn as every other, and the ring says "read it with care"
/// without hiding it. Dashed and dark, so it tells apart from the solid ring of a highlight.
package enum FlagRing {
    package static let radius = 8.0
    package static let dash = "3 2"

    package static func draw(at center: PixelPoint, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        writer.element(
            "circle",
            [
                ("cx", n(center.x)), ("cy", n(center.y)), ("r", n(radius)), ("fill", "none"),
                ("stroke", Ink.text), ("stroke-width", "1.5"), ("stroke-dasharray", dash)
            ])
    }
}
