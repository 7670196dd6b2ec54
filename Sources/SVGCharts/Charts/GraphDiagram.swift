/// A picture of a call graph: each node a box (its name and a few short lines), each edge an
/// arrow from caller to callee with its label, columns left to right by depth
/// (``GraphLayout``). One node may be the focus: a thicker border in vermillion and a "focus" tag,
/// which a legend under the drawing explains.
///
/// The input is plain text: the caller formats every number, so the diagram draws whatever it is
/// given (a label of "—" for an edge nobody measured). Text never leaves its box or gap: a line too
/// wide is cut with "…" by the same estimate of text width as every chart's.
///
/// ```swift
/// let diagram = GraphDiagram(
///     title: "Call graph", nodes: [.init(name: "api", lines: ["3 req/op"]), .init(name: "db", lines: ["9 req/op"], isFocus: true)],
///     edges: [.init(from: 0, to: 1, label: ["3 att/call"])])
/// ```
public struct GraphDiagram: Chart {
    /// A box: its name (bold, first line), then its detail lines.
    public struct Node: Sendable, Equatable {
        public var name: String
        public var lines: [String]
        public var isFocus: Bool

        public init(name: String, lines: [String] = [], isFocus: Bool = false) {
            self.name = name
            self.lines = lines
            self.isFocus = isFocus
        }
    }

    /// An arrow from node `from` to node `to` (indices into ``GraphDiagram/nodes``; `from < to`,
    /// others are not drawn), labelled with `label`'s lines.
    public struct Edge: Sendable, Equatable {
        public var from: Int
        public var to: Int
        public var label: [String]

        public init(from: Int, to: Int, label: [String] = []) {
            self.from = from
            self.to = to
            self.label = label
        }
    }

    public var title: String
    public var subtitle: String?
    public var nodes: [Node]
    public var edges: [Edge]
    /// The legend's words for the focus mark, e.g. "focus: where the storm lands"; shown when a node is the focus.
    public var focusLegend: String
    /// The canvas width (px); the height follows from the tallest column.
    public var width: Double

    public init(
        title: String, subtitle: String? = nil, nodes: [Node], edges: [Edge], focusLegend: String = "focus", width: Double = 960
    ) {
        self.title = title
        self.subtitle = subtitle
        self.nodes = nodes
        self.edges = edges
        self.focusLegend = focusLegend
        self.width = width
    }

    /// The focus mark's colour: the palette's vermillion, 4.4:1 on white.
    package static let focusColor = Palette.okabeIto[4].hex
    static let boxFill = "#f5f7fa"
    static let edgeColor = "#6b6b6b"
    static let legendHeight = 26.0

    /// The layout of the drawing for a canvas `width` wide, below the header.
    package func layout() -> GraphLayout {
        GraphLayout(
            nodes: nodes.map { [$0.name] + $0.lines }, edges: edges.map { ($0.from, $0.to, $0.label) },
            width: max(200, width), top: Header.bottom(subtitle: subtitle, width: max(200, width)), left: Theme.padding)
    }

    /// The canvas size: as wide as asked or as the columns need at their narrowest, as tall as the drawing and its legend.
    package func size(_ layout: GraphLayout) -> ChartSize {
        let right = (layout.boxes.map(\.maxX).max() ?? 0) + Theme.padding
        let legend = nodes.contains(where: \.isFocus) ? Self.legendHeight : 0
        return ChartSize(width: max(width, right), height: layout.bottom + legend + Theme.padding)
    }

    public func svg() -> String {
        let layout = layout()
        let size = size(layout)
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        // Arrows first, so boxes and labels sit on top of them.
        for route in layout.routes.compactMap({ $0 }) { drawArrow(route.points, into: &writer) }
        for route in layout.routes.compactMap({ $0 }) {
            guard let box = route.label else { continue }
            writer.element(
                "rect",
                [
                    ("x", SVGWriter.number(box.x)), ("y", SVGWriter.number(box.y)), ("width", SVGWriter.number(box.width)),
                    ("height", SVGWriter.number(box.height)), ("rx", "3"), ("fill", "#ffffff"), ("fill-opacity", "0.92")
                ])
            for (k, line) in route.lines.enumerated() {
                let y = box.y + 2 + GraphLayout.labelSize * 0.85 + Double(k) * (GraphLayout.labelSize + GraphLayout.lineGap)
                Text.draw(line, x: box.midX, y: y, size: GraphLayout.labelSize, anchor: "middle", fill: Ink.text, into: &writer)
            }
        }
        for (i, node) in nodes.enumerated() {
            drawBox(layout.boxes[i], lines: layout.text[i], focus: node.isFocus, into: &writer)
        }
        if nodes.contains(where: \.isFocus) {
            let y = layout.bottom + 8
            let swatch = Rect(x: Theme.padding, y: y + 2, width: 22, height: 12)
            writer.element("rect", boxAttributes(swatch, focus: true))
            let room = size.width - swatch.maxX - 8 - Theme.padding
            let text = TextMetrics.truncate(focusLegend, maxWidth: room, fontSize: Theme.legendSize)
            Text.draw(text, x: swatch.maxX + 8, y: y + 12, size: Theme.legendSize, fill: Ink.text, into: &writer)
        }
        return writer.finish()
    }

    func boxAttributes(_ box: Rect, focus: Bool) -> SVGWriter.Attributes {
        [
            ("x", SVGWriter.number(box.x)), ("y", SVGWriter.number(box.y)), ("width", SVGWriter.number(box.width)),
            ("height", SVGWriter.number(box.height)), ("rx", "4"), ("fill", focus ? "#ffffff" : Self.boxFill),
            ("stroke", focus ? Self.focusColor : Ink.axis), ("stroke-width", focus ? "3" : "1")
        ]
    }

    func drawBox(_ box: Rect, lines: [String], focus: Bool, into writer: inout SVGWriter) {
        writer.element("rect", boxAttributes(box, focus: focus))
        for (k, line) in lines.enumerated() {
            let y =
                box.y + GraphLayout.inset + GraphLayout.nameSize * 0.8
                + (k == 0 ? 0 : GraphLayout.lineGap + Double(k) * (GraphLayout.detailSize + GraphLayout.lineGap))
            Text.draw(
                line, x: box.x + GraphLayout.inset, y: y, size: k == 0 ? GraphLayout.nameSize : GraphLayout.detailSize,
                fill: k == 0 ? Ink.title : Ink.text, weight: k == 0 ? "600" : nil, into: &writer)
        }
        guard focus else { return }
        // The tag straddles the top border at the right, in the gap above the box.
        let size = 10.0
        let tag = Rect(
            x: box.maxX - 6 - TextMetrics.width("focus", fontSize: size) * TextMetrics.boldFactor - 8, y: box.y - 8,
            width: TextMetrics.width("focus", fontSize: size) * TextMetrics.boldFactor + 8, height: 14)
        writer.element(
            "rect",
            [
                ("x", SVGWriter.number(tag.x)), ("y", SVGWriter.number(tag.y)), ("width", SVGWriter.number(tag.width)),
                ("height", SVGWriter.number(tag.height)), ("rx", "7"), ("fill", Self.focusColor)
            ])
        Text.draw("focus", x: tag.midX, y: tag.y + 10.5, size: size, anchor: "middle", fill: "#ffffff", weight: "700", into: &writer)
    }

    /// A smooth curve through `points` (horizontal where it leaves and enters, so arrows leave
    /// boxes square), straight across each column it crosses and along its last stretch (under
    /// its label), ending in an arrowhead.
    func drawArrow(_ points: [PixelPoint], into writer: inout SVGWriter) {
        guard let first = points.first, let last = points.last, points.count >= 3 else { return }
        let head = GraphLayout.arrowHead
        func n(_ x: Double) -> String { SVGWriter.number(x) }
        var d = "M\(n(first.x)) \(n(first.y))"
        // Curves into each column crossed and into the last stretch; straight across each column.
        let curveEnds = points.count - 2
        var k = 1
        while k <= curveEnds {
            let a = points[k - 1]
            let b = points[k]
            let dx = (b.x - a.x) / 2
            d += " C\(n(a.x + dx)) \(n(a.y)) \(n(b.x - dx)) \(n(b.y)) \(n(b.x)) \(n(b.y))"
            if k < curveEnds {
                d += " L\(n(points[k + 1].x)) \(n(points[k + 1].y))"
                k += 2
            } else {
                k += 1
            }
        }
        d += " L\(n(last.x - head)) \(n(last.y))"
        writer.element("path", [("d", d), ("fill", "none"), ("stroke", Self.edgeColor), ("stroke-width", "1.5")])
        let tip = "\(n(last.x)),\(n(last.y)) \(n(last.x - head)),\(n(last.y - 4)) \(n(last.x - head)),\(n(last.y + 4))"
        writer.element("polygon", [("points", tip), ("fill", Self.edgeColor)])
    }
}
