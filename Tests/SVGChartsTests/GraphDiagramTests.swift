import SVGCharts
import Testing

/// The call-graph picture (issue 40): columns by depth, boxes that never overlap, text that stays
/// in its box or gap, the focus marked, the same bytes for the same input.
@Suite("Call-graph diagram")
struct GraphDiagramTests {
    /// a → b, a → c, b → d, c → d, a → d (skipping a column), d → e; f calls and is called by nobody.
    static let dag = GraphDiagram(
        title: "dag", nodes: ["a", "b", "c", "d", "e", "f"].map { GraphDiagram.Node(name: $0, lines: ["1 req/op"]) },
        edges: [(0, 1), (0, 2), (1, 3), (2, 3), (0, 3), (3, 4)].map { GraphDiagram.Edge(from: $0.0, to: $0.1, label: ["1 att/call"]) })

    @Test("a node's column is its longest path from a node nobody calls")
    func layers() {
        #expect(Self.dag.layout().layers == [0, 1, 1, 2, 3, 0])
    }

    /// a → d crosses column 1: it runs straight through it at a placeholder's height, between
    /// b's and c's boxes rather than through them.
    @Test("an edge that skips a column passes between the boxes of the column it crosses")
    func skippingEdge() throws {
        let layout = Self.dag.layout()
        let route = try #require(layout.routes[4])
        #expect(route.points.count == 5)
        let (b, c) = (layout.boxes[1], layout.boxes[2])
        #expect(route.points[1].x == b.minX && route.points[2].x == b.maxX)
        #expect(route.points[1].y == route.points[2].y)
        for box in [b, c] { #expect(route.points[1].y < box.minY || route.points[1].y > box.maxY) }
        // Every arrow leaves its caller's right side and ends on its callee's left side.
        for (e, edge) in Self.dag.edges.enumerated() {
            let r = try #require(layout.routes[e])
            let from = layout.boxes[edge.from]
            let to = layout.boxes[edge.to]
            #expect(r.points.first?.x == from.maxX && r.points.last?.x == to.minX)
            #expect((from.minY...from.maxY).contains(r.points.first!.y) && (to.minY...to.maxY).contains(r.points.last!.y))
        }
    }

    @Test("an edge that does not go down the list is not drawn")
    func backwardEdge() {
        let diagram = GraphDiagram(
            title: "t", nodes: [.init(name: "a"), .init(name: "b")], edges: [.init(from: 1, to: 0, label: ["x"]), .init(from: 0, to: 0)])
        #expect(diagram.layout().routes.allSatisfy { $0 == nil })
        #expect(diagram.layout().layers == [0, 0])
    }

    /// Twelve services as a shop might have them: a gateway fanning out, services with two callers,
    /// a three-way parallel fan-out, an edge skipping a column, a flaky leaf, and a long name.
    static let twelve: GraphDiagram = {
        let names = [
            "edge-gateway", "auth", "orders", "search-with-a-very-long-service-name", "inventory", "payments", "index", "fraud",
            "users-db", "stock-db", "ledger-db", "audit"
        ]
        let calls = [(0, 1), (0, 2), (0, 3), (1, 8), (2, 4), (2, 5), (2, 8), (3, 6), (4, 9), (5, 7), (5, 10), (10, 11), (0, 11)]
        return GraphDiagram(
            title: "twelve", subtitle: "boxes: requests per user operation, peak load ÷ capacity",
            nodes: names.enumerated().map { i, n in
                GraphDiagram.Node(name: n, lines: ["0.00962 req/op", "peak 0.00450×"], isFocus: i == 8)
            },
            edges: calls.enumerated().map { k, c in
                GraphDiagram.Edge(
                    from: c.0, to: c.1, label: k == 4 ? ["×3 at once", "1.00 att/call", "0.0577 req/op"] : ["1.03 att/call", "0.0196 req/op"])
            })
    }()

    /// api calling 63 leaves, and a chain of 64: the tallest and the deepest graphs a scenario may have.
    static let fanOut = GraphDiagram(
        title: "fan-out", nodes: (0..<64).map { GraphDiagram.Node(name: "service-\($0)", lines: ["12.5 req/op", "peak 3.10×"]) },
        edges: (1..<64).map { GraphDiagram.Edge(from: 0, to: $0, label: ["2.00 att/call", "12.5 req/op"]) })
    static let chain = GraphDiagram(
        title: "chain", nodes: (0..<64).map { GraphDiagram.Node(name: "layer-\($0)", lines: ["\($0) req/op"], isFocus: $0 == 63) },
        edges: (1..<64).map { GraphDiagram.Edge(from: $0 - 1, to: $0, label: ["3.00 att/call"]) })

    @Test(
        "boxes never overlap, every line fits its box, every label its gap, no text overlaps or leaves the canvas",
        arguments: [("twelve", twelve), ("fan-out", fanOut), ("chain", chain), ("dag", dag)])
    func noOverlaps(name: String, diagram: GraphDiagram) {
        let layout = diagram.layout()
        let size = diagram.size(layout)
        let boxes = layout.boxes
        for i in boxes.indices {
            for j in boxes.indices where j > i { #expect(!boxes[i].intersects(boxes[j]), "\(name): boxes \(i) and \(j) overlap") }
            #expect(boxes[i].minX >= 0 && boxes[i].maxX <= size.width && boxes[i].minY >= 0 && boxes[i].maxY <= size.height)
            for (k, line) in layout.text[i].enumerated() {
                let width = TextMetrics.width(line, fontSize: k == 0 ? GraphLayout.nameSize : GraphLayout.detailSize)
                #expect(width * (k == 0 ? TextMetrics.boldFactor : 1) <= boxes[i].width - 2 * GraphLayout.inset, "\(name): \(line)")
            }
            // Numbers are never cut: only a name may be.
            #expect(layout.text[i].dropFirst() == diagram.nodes[i].lines[...], "\(name)")
        }
        let labels = layout.routes.compactMap { $0?.label }
        #expect(labels.count == diagram.edges.count)
        for (a, label) in labels.enumerated() {
            for b in labels.indices where b > a { #expect(!label.intersects(labels[b]), "\(name): labels \(a) and \(b) overlap") }
            for box in boxes { #expect(!label.intersects(box), "\(name): label \(a) covers a box") }
            #expect(label.minX >= 0 && label.maxX <= size.width && label.maxY <= size.height)
        }
        // Every edge goes down the list here, and every label line fits its gap whole.
        for (e, route) in layout.routes.enumerated() { #expect(route?.lines == diagram.edges[e].label, "\(name)") }
        let svg = diagram.svg()
        #expect(SVGCheck.problems(svg) == [], "\(name)")
        #expect(TextLayoutCheck.problems(svg) == [], "\(name)")
    }

    @Test("a long name is cut with … to fit its box; the other lines are whole")
    func longName() {
        let layout = Self.twelve.layout()
        #expect(layout.text[3][0].hasSuffix("…") && layout.text[3][0].hasPrefix("search-"))
        #expect(layout.text[0] == ["edge-gateway", "0.00962 req/op", "peak 0.00450×"])
    }

    @Test("sizes follow the layer widths: 63 leaves stack in one tall column, 64 layers widen the canvas")
    func sizes() {
        let tall = Self.fanOut.layout()
        #expect(Set(tall.layers.dropFirst()) == [1])
        #expect(Self.fanOut.size(tall).width == 960)
        #expect(Self.fanOut.size(tall).height > 63 * (tall.boxes[1].height + GraphLayout.boxGap) - 1)
        let deep = Self.chain.layout()
        #expect(deep.layers == Array(0..<64))
        // Past the room of 960 px the boxes are at their narrowest and the canvas widens.
        #expect(deep.boxWidth == GraphLayout.minBoxWidth)
        #expect(abs(Self.chain.size(deep).width - (2 * 16 + 64 * deep.boxWidth + 63 * deep.gap)) < 1e-6)
    }

    @Test("the focus has a thick vermillion border, a focus tag and a legend; no focus, no marks")
    func focus() {
        let svg = Self.twelve.svg()
        let focusBorder = "stroke=\"\(GraphDiagram.focusColor)\" stroke-width=\"3\""
        #expect(svg.components(separatedBy: focusBorder).count - 1 == 2)  // the box and the legend's swatch
        #expect(svg.contains("font-weight=\"700\">focus</text>"))
        var plain = Self.twelve
        plain.nodes = plain.nodes.map { GraphDiagram.Node(name: $0.name, lines: $0.lines) }
        let none = plain.svg()
        #expect(!none.contains(GraphDiagram.focusColor) && !none.contains(">focus</text>"))
    }

    @Test("the same input gives the same bytes")
    func deterministic() {
        #expect(Self.twelve.svg() == Self.twelve.svg())
    }
}
