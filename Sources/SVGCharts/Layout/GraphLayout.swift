/// Where ``GraphDiagram`` puts its boxes, arrows and labels: a layered (Sugiyama-style) drawing of
/// a DAG whose edges go from an earlier node to a later one.
///
/// - Layers: a node's column is its longest path from a node nobody calls (for a call graph, from
///   the first service), so every arrow points right and a chain reads left to right.
/// - An edge that skips columns passes through a thin placeholder in each column it crosses, so it
///   runs between boxes rather than through them.
/// - Within a column, boxes and placeholders are ordered by the mean position of what calls them
///   (the barycenter heuristic, Sugiyama, Tagawa & Toda 1981), a few sweeps down and up, which
///   uncrosses the usual fan-outs; ties keep the scenario's order, so the result is deterministic.
/// - Sizes come from the layer widths: the columns share the canvas width (a box as wide as its
///   numbers, and its name where room allows; a gap as wide as its labels), the canvas widening
///   only when the columns need it; a column's height is its boxes and placeholders stacked, the
///   canvas as tall as the tallest column. An edge's label sits in the gap before its callee,
///   pushed down past the labels above it so none overlap.
package struct GraphLayout {
    /// Font sizes (px) of a box's name, its detail lines and the edge labels.
    package static let nameSize = 14.0
    package static let detailSize = 12.0
    package static let labelSize = 12.0
    /// Space inside a box around its text, and between label lines.
    package static let inset = 7.0
    package static let lineGap = 3.0
    /// Box width bounds: past the maximum a name is ellipsised; below the minimum the canvas grows.
    package static let minBoxWidth = 104.0
    package static let maxBoxWidth = 170.0
    /// Gap between columns, for the edge labels: at least the minimum (a label line is cut to fit).
    package static let minGap = 72.0
    package static let maxGap = 150.0
    /// The widest canvas (px) drawn to keep names whole; a PNG is drawn 1200 px wide.
    package static let wideCanvas = 1200.0
    /// Vertical space between boxes of one column: the focus tag straddles a box's top border.
    package static let boxGap = 28.0
    /// Height of the slot a skipping edge takes in a column it crosses.
    package static let placeholderHeight = 18.0
    /// An arrowhead's length.
    package static let arrowHead = 8.0
    /// A gap's width beyond its widest label line: the label's padding, the arrowhead and room for
    /// the arrow to curve before its straight end.
    package static let labelMargin = 8 + arrowHead + 2 + 8
    /// Label boxes in one gap keep at least this far apart.
    package static let labelSpacing = 3.0

    /// One edge's route: its points left to right (the first on its caller's right side, two per
    /// column crossed, then where its straight end begins, the last on its callee's left side) and
    /// its label's box (nil without a label).
    package struct Route {
        package var points: [PixelPoint]
        package var label: Rect?
        /// The label's lines, each cut to the gap's width.
        package var lines: [String]
    }

    /// Each node's column, 0-based.
    package let layers: [Int]
    /// Each node's box.
    package let boxes: [Rect]
    /// Each drawn node's text lines as drawn (name first, ellipsised to the box).
    package let text: [[String]]
    /// One route per edge of the input, nil for an edge that does not go forward.
    package let routes: [Route?]
    /// The box width, the gap between columns and the bottom of everything drawn.
    package let boxWidth: Double
    package let gap: Double
    package let bottom: Double

    /// An item of a column: a node, or the placeholder of edge `edge` in the column it crosses.
    enum Item: Equatable {
        case node(Int)
        case placeholder(edge: Int)
    }

    /// Lays out `nodes` (each its text lines, name first) and `edges` (from, to, label lines) within
    /// `width`, below `top`, from `left`.
    package init(nodes: [[String]], edges: [(from: Int, to: Int, label: [String])], width: Double, top: Double, left: Double) {
        let n = nodes.count
        let forward = edges.map { $0.from >= 0 && $0.from < $0.to && $0.to < n }
        var layers = [Int](repeating: 0, count: n)
        for i in 0..<n {
            for (e, edge) in edges.enumerated() where forward[e] && edge.from == i {
                layers[edge.to] = max(layers[edge.to], layers[i] + 1)
            }
        }
        self.layers = layers
        let columns = (layers.max() ?? -1) + 1

        // Columns: nodes in their order, then each skipping edge's placeholders.
        var items = [[Item]](repeating: [], count: columns)
        for i in 0..<n { items[layers[i]].append(.node(i)) }
        for (e, edge) in edges.enumerated() where forward[e] {
            for l in stride(from: layers[edge.from] + 1, to: layers[edge.to], by: 1) { items[l].append(.placeholder(edge: e)) }
        }
        let links = Links(edges: edges, forward: forward, layers: layers, columns: columns)
        items = Self.ordered(items, links: links)

        // Widths: a box holds its widest detail line (numbers are never cut) and, room allowing,
        // its name; a gap holds its widest label.
        var names = 0.0
        var details = 0.0
        for lines in nodes {
            for (k, line) in lines.enumerated() {
                if k == 0 {
                    names = max(names, TextMetrics.width(line, fontSize: Self.nameSize) * TextMetrics.boldFactor)
                } else {
                    details = max(details, TextMetrics.width(line, fontSize: Self.detailSize))
                }
            }
        }
        let boxFloor = min(Self.maxBoxWidth, max(Self.minBoxWidth, details + 2 * Self.inset))
        let wantedBox = min(Self.maxBoxWidth, max(boxFloor, names + 2 * Self.inset))
        let widestLabel = edges.flatMap(\.label).map { TextMetrics.width($0, fontSize: Self.labelSize) }.max() ?? 0
        let gapFloor = min(Self.maxGap, max(Self.minGap, widestLabel + Self.labelMargin))
        let room = width - 2 * left
        let c = Double(max(columns, 1))
        // Too little room widens the canvas up to ``wideCanvas`` (names whole), then narrows the
        // boxes (cutting long names) down to their floor, and only then widens the canvas further;
        // extra room widens the gaps (the labels) up to their maximum, and the rest centres the drawing.
        var boxWidth = wantedBox
        var gap = gapFloor
        let wide = max(room, Self.wideCanvas - 2 * left)
        if c * boxWidth + (c - 1) * gap > wide {
            boxWidth = max(boxFloor, min(wantedBox, (wide - (c - 1) * gap) / c))
        } else if columns > 1, c * boxWidth + (c - 1) * gap <= room {
            gap = min(Self.maxGap, (room - c * boxWidth) / (c - 1))
        }
        let used = c * boxWidth + (c - 1) * gap
        let x0 = left + max(0, (room - used) / 2)
        self.boxWidth = boxWidth
        self.gap = gap

        // Heights: every box as tall as the one with the most lines.
        let lineCount = nodes.map(\.count).max() ?? 1
        let boxHeight = 2 * Self.inset + Self.nameSize + Double(max(0, lineCount - 1)) * (Self.detailSize + Self.lineGap) + Self.lineGap
        func slot(_ item: Item) -> Double {
            if case .node = item { return boxHeight + Self.boxGap }
            return Self.placeholderHeight
        }
        let heights = items.map { $0.map(slot) }
        let tallest = heights.map { $0.reduce(0, +) }.max() ?? 0
        // The tallest column is stacked; each other column, outward from it, puts each item level
        // with the mean of what it is linked to in the column placed before it (so a service sits
        // beside its callees, a fan-out's callees beside their caller), pushed apart where they would overlap.
        let anchor = heights.map { $0.reduce(0, +) }.firstIndex(of: tallest) ?? 0
        var centres = [[Int: Double]](repeating: [:], count: columns)
        var boxes = [Rect](repeating: Rect(x: 0, y: 0, width: 0, height: 0), count: n)
        var placeholderY: [Int: [Int: Double]] = [:]  // edge → column → y
        func place(_ l: Int, from m: Int?) {
            let wanted = items[l].enumerated().map { k, item -> Double in
                guard let m else { return -.infinity }
                let ys = links.of(item, at: l, in: m).compactMap { centres[m][$0.key] }
                return ys.isEmpty ? -.infinity : ys.reduce(0, +) / Double(ys.count) - heights[l][k] / 2
            }
            let tops = Self.spread(wanted, heights: heights[l], from: top, to: top + tallest)
            let x = x0 + Double(l) * (boxWidth + gap)
            for (k, item) in items[l].enumerated() {
                centres[l][item.key] = tops[k] + heights[l][k] / 2
                switch item {
                case .node(let i): boxes[i] = Rect(x: x, y: tops[k] + Self.boxGap / 2, width: boxWidth, height: boxHeight)
                case .placeholder(let e): placeholderY[e, default: [:]][l] = tops[k] + heights[l][k] / 2
                }
            }
        }
        if columns > 0 {
            place(anchor, from: nil)
            for l in stride(from: anchor + 1, to: columns, by: 1) { place(l, from: l - 1) }
            for l in stride(from: anchor - 1, through: 0, by: -1) { place(l, from: l + 1) }
        }
        self.boxes = boxes
        text = nodes.map { lines in
            lines.enumerated().map { k, line in
                k == 0
                    ? TextMetrics.truncate(line, maxWidth: (boxWidth - 2 * Self.inset) / TextMetrics.boldFactor, fontSize: Self.nameSize)
                    : TextMetrics.truncate(line, maxWidth: boxWidth - 2 * Self.inset, fontSize: Self.detailSize)
            }
        }

        // Routes: the middle points first (placeholders), then ports spread down each box's side in
        // the order of where the edges come from or go, so arrows into one box do not cross at it.
        var middle: [Int: [PixelPoint]] = [:]
        for (e, edge) in edges.enumerated() where forward[e] {
            var points: [PixelPoint] = []
            for l in stride(from: layers[edge.from] + 1, to: layers[edge.to], by: 1) {
                let x = x0 + Double(l) * (boxWidth + gap)
                let y = placeholderY[e]?[l] ?? 0
                points += [PixelPoint(x: x, y: y), PixelPoint(x: x + boxWidth, y: y)]
            }
            middle[e] = points
        }
        var start: [Int: PixelPoint] = [:]
        var end: [Int: PixelPoint] = [:]
        for i in 0..<n {
            let box = boxes[i]
            let out = edges.indices.filter { forward[$0] && edges[$0].from == i }.sorted { a, b in
                let ya = middle[a]?.first?.y ?? boxes[edges[a].to].midY
                let yb = middle[b]?.first?.y ?? boxes[edges[b].to].midY
                return ya != yb ? ya < yb : a < b
            }
            for (k, e) in out.enumerated() {
                start[e] = PixelPoint(x: box.maxX, y: box.minY + box.height * Double(k + 1) / Double(out.count + 1))
            }
        }
        for i in 0..<n {
            let box = boxes[i]
            let into = edges.indices.filter { forward[$0] && edges[$0].to == i }.sorted { a, b in
                let ya = middle[a]?.last?.y ?? start[a]?.y ?? 0
                let yb = middle[b]?.last?.y ?? start[b]?.y ?? 0
                return ya != yb ? ya < yb : a < b
            }
            for (k, e) in into.enumerated() {
                end[e] = PixelPoint(x: box.minX, y: box.minY + box.height * Double(k + 1) / Double(into.count + 1))
            }
        }

        // Labels: on the straight end of the arrow, just before its head, level with where it
        // enters the callee (where the arrows into a column are furthest apart), then pushed down
        // in each gap past the one above where they would overlap.
        let lineHeight = Self.labelSize + Self.lineGap
        var routes: [Route?] = edges.indices.map { e in
            guard forward[e], let s = start[e], let t = end[e] else { return nil }
            let points = [s] + (middle[e] ?? [])
            let lines = edges[e].label.map { TextMetrics.truncate($0, maxWidth: gap - Self.labelMargin, fontSize: Self.labelSize) }
            guard !lines.allSatisfy(\.isEmpty) else {
                return Route(points: points + [PixelPoint(x: t.x - Self.arrowHead, y: t.y), t], label: nil, lines: [])
            }
            let w = (lines.map { TextMetrics.width($0, fontSize: Self.labelSize) }.max() ?? 0) + 8
            let h = Double(lines.count) * lineHeight + 4
            let label = Rect(x: t.x - Self.arrowHead - 2 - w, y: t.y - h / 2, width: w, height: h)
            return Route(points: points + [PixelPoint(x: label.minX, y: t.y), t], label: label, lines: lines)
        }
        var bottom = boxes.map(\.maxY).max() ?? top
        for l in 0..<columns {
            let inGap = routes.indices.filter { e in routes[e]?.label != nil && layers[edges[e].to] == l }.sorted { a, b in
                let ya = routes[a]!.label!.midY
                let yb = routes[b]!.label!.midY
                return ya != yb ? ya < yb : a < b
            }
            var floor = -Double.infinity
            for e in inGap {
                var label = routes[e]!.label!
                label.y = max(label.y, floor)
                floor = label.maxY + Self.labelSpacing
                routes[e]!.label = label
                bottom = max(bottom, label.maxY)
            }
        }
        self.routes = routes
        self.bottom = bottom
    }

    /// `items` with each column after the first sorted by the mean position of what calls its
    /// items in the column before, then each column but the last by what it calls in the column
    /// after, twice over; an item with no neighbour there keeps its place, ties keep their order.
    static func ordered(_ items: [[Item]], links: Links) -> [[Item]] {
        var items = items
        func neighbours(_ x: Item, at l: Int, in m: Int) -> [Item] { links.of(x, at: l, in: m) }
        func sort(_ l: Int, by m: Int) {
            guard items.indices.contains(m) else { return }
            let position = Dictionary(items[m].enumerated().map { ($1.key, Double($0)) }, uniquingKeysWith: { a, _ in a })
            let keyed = items[l].enumerated().map { k, x -> (Double, Int, Item) in
                let ps = neighbours(x, at: l, in: m).compactMap { position[$0.key] }
                return (ps.isEmpty ? Double(k) : ps.reduce(0, +) / Double(ps.count), k, x)
            }
            items[l] = keyed.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.2)
        }
        for _ in 0..<2 {
            for l in items.indices.dropFirst() { sort(l, by: l - 1) }
            for l in items.indices.reversed().dropFirst() { sort(l, by: l + 1) }
        }
        for l in items.indices.dropFirst() { sort(l, by: l - 1) }
        return items
    }
}

extension GraphLayout {
    /// Each item's links to the columns beside it, by column and item key: an edge links its
    /// caller, its placeholders and its callee in turn. Built once, in the edges' order, so looking
    /// links up costs nothing however many edges cross a column.
    struct Links {
        var before: [[Int: [Item]]]
        var after: [[Int: [Item]]]

        init(edges: [(from: Int, to: Int, label: [String])], forward: [Bool], layers: [Int], columns: Int) {
            before = Array(repeating: [:], count: columns)
            after = Array(repeating: [:], count: columns)
            for (e, edge) in edges.enumerated() where forward[e] {
                let a = layers[edge.from]
                let b = layers[edge.to]
                func item(_ c: Int) -> Item { c == a ? .node(edge.from) : c == b ? .node(edge.to) : .placeholder(edge: e) }
                for c in a..<b {
                    after[c][item(c).key, default: []].append(item(c + 1))
                    before[c + 1][item(c + 1).key, default: []].append(item(c))
                }
            }
        }

        /// The items of column `m` (`l ± 1`) that item `x` of column `l` is linked to.
        func of(_ x: Item, at l: Int, in m: Int) -> [Item] {
            (m < l ? before[l] : after[l])[x.key] ?? []
        }
    }

    /// Tops for items of `heights` in their order, each as near its `wanted` top as the others
    /// allow (-∞: just after the one before), none overlapping, all within `from…to` when they fit:
    /// pushed down past the one before, then up from the end, then down again below `from`.
    static func spread(_ wanted: [Double], heights: [Double], from: Double, to: Double) -> [Double] {
        var tops = wanted
        var floor = from
        for k in tops.indices {
            tops[k] = max(tops[k], floor)
            floor = tops[k] + heights[k]
        }
        var ceiling = to
        for k in tops.indices.reversed() {
            tops[k] = min(tops[k], ceiling - heights[k])
            ceiling = tops[k]
        }
        floor = from
        for k in tops.indices {
            tops[k] = max(tops[k], floor)
            floor = tops[k] + heights[k]
        }
        return tops
    }
}

extension GraphLayout.Item {
    /// A hashable key: nodes non-negative, placeholders negative.
    var key: Int {
        switch self {
        case .node(let i): i
        case .placeholder(let e): -1 - e
        }
    }
}
