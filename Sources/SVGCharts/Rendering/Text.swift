/// Writes `<text>` elements with the module's conventions.
package enum Text {
    package static func draw(
        _ text: String, x: Double, y: Double, size: Double, anchor: String = "start",
        fill: String = Ink.text, weight: String? = nil, rotation: Double = 0, into writer: inout SVGWriter
    ) {
        guard !text.isEmpty else { return }
        var attributes: SVGWriter.Attributes = [
            ("x", SVGWriter.number(x)), ("y", SVGWriter.number(y)), ("font-size", SVGWriter.number(size))
        ]
        if anchor != "start" { attributes.append(("text-anchor", anchor)) }
        attributes.append(("fill", fill))
        if let weight { attributes.append(("font-weight", weight)) }
        if rotation != 0 {
            let r = SVGWriter.number(rotation)
            attributes.append(("transform", "rotate(\(r) \(SVGWriter.number(x)) \(SVGWriter.number(y)))"))
        }
        writer.element("text", attributes, text: text)
    }

    /// Text over data: a white outline drawn first keeps it legible on any
    /// line or colour. Drawn as two elements rather than with `paint-order`,
    /// which older librsvg releases ignore.
    package static func halo(
        _ text: String, x: Double, y: Double, size: Double, anchor: String = "start",
        fill: String, weight: String? = nil, into writer: inout SVGWriter
    ) {
        guard !text.isEmpty else { return }
        var attributes: SVGWriter.Attributes = [
            ("x", SVGWriter.number(x)), ("y", SVGWriter.number(y)), ("font-size", SVGWriter.number(size))
        ]
        if anchor != "start" { attributes.append(("text-anchor", anchor)) }
        if let weight { attributes.append(("font-weight", weight)) }
        writer.element(
            "text",
            attributes + [
                ("fill", "#ffffff"), ("stroke", "#ffffff"), ("stroke-width", "3.5"), ("stroke-linejoin", "round")
            ], text: text)
        writer.element("text", attributes + [("fill", fill)], text: text)
    }

    /// Text on a translucent white box, for labels that sit on data: the
    /// box hides lines crossing between glyphs, which a halo does not.
    /// The box uses the estimated width, so it errs slightly wide.
    package static func boxed(
        _ text: String, x: Double, y: Double, size: Double, anchor: String = "start",
        fill: String, into writer: inout SVGWriter
    ) {
        guard !text.isEmpty else { return }
        let width = TextMetrics.width(text, fontSize: size)
        let start = anchor == "end" ? x - width : (anchor == "middle" ? x - width / 2 : x)
        writer.element(
            "rect",
            [
                ("x", SVGWriter.number(start - 3)), ("y", SVGWriter.number(y - size * 0.95)),
                ("width", SVGWriter.number(width + 6)), ("height", SVGWriter.number(size * 1.3)),
                ("rx", "2"), ("fill", "#ffffff"), ("fill-opacity", "0.85")
            ])
        draw(text, x: x, y: y, size: size, anchor: anchor, fill: fill, into: &writer)
    }
}
