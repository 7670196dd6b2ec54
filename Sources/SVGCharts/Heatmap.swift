/// A value per cell over two ordered parameters (e.g. base delay on x, max
/// delay on y), coloured with viridis and explained by a colour bar.
///
/// `values[row][column]`: row 0 is the bottom row (y grows upwards like an
/// axis), column 0 the leftmost. Missing or non-finite values are "no
/// data": drawn grey and hatched, and explained in the legend. Cells in
/// `meetsConstraints` get a common black-and-white outline around their
/// region; `chosen` gets a thick outline and a star labelled `chosenLabel`.
public struct Heatmap: Chart {
    /// A cell position: `column` indexes `columns`, `row` indexes `rows`.
    public struct Cell: Sendable, Hashable {
        public var column: Int
        public var row: Int

        public init(column: Int, row: Int) {
            self.column = column
            self.row = row
        }
    }

    public var title: String
    public var subtitle: String?
    /// Title of the x parameter with unit, e.g. "base delay".
    public var xLabel: String
    /// Title of the y parameter with unit, e.g. "max delay".
    public var yLabel: String
    /// x category labels, left to right.
    public var columns: [String]
    /// y category labels, bottom to top.
    public var rows: [String]
    public var values: [[Double]]
    /// The colour bar: its label (with unit), scale, format and optional
    /// fixed range; colours span its resolved range.
    public var colorAxis: Axis
    public var meetsConstraints: [Cell]
    public var constraintLabel: String
    public var chosen: Cell?
    public var chosenLabel: String
    public var noDataLabel: String
    /// Print each value in its cell when the cells are large enough.
    public var showsValues: Bool
    public var size: ChartSize

    public init(
        title: String, subtitle: String? = nil, xLabel: String, yLabel: String,
        columns: [String], rows: [String], values: [[Double]], colorAxis: Axis,
        meetsConstraints: [Cell] = [], constraintLabel: String = "meets constraints",
        chosen: Cell? = nil, chosenLabel: String = "tuned", noDataLabel: String = "no data",
        showsValues: Bool = true, size: ChartSize = .standard
    ) {
        self.title = title
        self.subtitle = subtitle
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.columns = columns
        self.rows = rows
        self.values = values
        self.colorAxis = colorAxis
        self.meetsConstraints = meetsConstraints
        self.constraintLabel = constraintLabel
        self.chosen = chosen
        self.chosenLabel = chosenLabel
        self.noDataLabel = noDataLabel
        self.showsValues = showsValues
        self.size = size
    }

    /// The value at a cell, NaN when missing.
    func value(column: Int, row: Int) -> Double {
        guard row >= 0, row < values.count, column >= 0, column < values[row].count else { return .nan }
        return values[row][column]
    }

    func contains(_ cell: Cell) -> Bool {
        cell.column >= 0 && cell.column < columns.count && cell.row >= 0 && cell.row < rows.count
    }

    public func svg() -> String {
        var finite: [Double] = []
        var hasNoData = false
        for r in rows.indices {
            for c in columns.indices {
                let v = value(column: c, row: r)
                if v.isFinite { finite.append(v) } else { hasNoData = true }
            }
        }
        let feasible = meetsConstraints.filter(contains)
        let chosenCell = chosen.flatMap { contains($0) ? $0 : nil }
        var items: [LegendItem] = []
        if hasNoData { items.append(LegendItem(label: noDataLabel, swatch: .hatched)) }
        if !feasible.isEmpty { items.append(LegendItem(label: constraintLabel, swatch: .outline)) }
        if chosenCell != nil { items.append(LegendItem(label: chosenLabel, swatch: .star)) }

        let layout = HeatmapLayout(chart: self, values: finite, legendItems: items)
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        drawCells(layout, into: &writer)
        HeatmapRenderer.drawRegionOutline(Set(feasible), layout: layout, into: &writer)
        if let chosenCell { HeatmapRenderer.drawChosen(chosenCell, label: chosenLabel, layout: layout, into: &writer) }
        layout.drawAxes(chart: self, into: &writer)
        HeatmapRenderer.drawColorBar(layout, label: colorAxis.label, into: &writer)
        layout.legend.draw(top: layout.legendTop, centerX: size.width / 2, into: &writer)
        return writer.finish()
    }

    private func drawCells(_ layout: HeatmapLayout, into writer: inout SVGWriter) {
        let n = SVGWriter.number
        for r in rows.indices {
            for c in columns.indices {
                let rect = layout.cell(column: c, row: r)
                let v = value(column: c, row: r)
                guard v.isFinite else {
                    HeatmapRenderer.drawNoDataCell(rect, into: &writer)
                    continue
                }
                let color = ColorScale.viridis(layout.colors.fraction(v))
                // Slightly oversized so anti-aliasing leaves no hairline gaps.
                writer.element("rect", [
                    ("x", n(rect.minX)), ("y", n(rect.minY)), ("width", n(rect.width + 0.5)),
                    ("height", n(rect.height + 0.5)), ("fill", color.hex),
                ])
                guard showsValues else { continue }
                let text = HeatmapRenderer.valueLabel(v, format: colorAxis.format)
                let fits = TextMetrics.width(text, fontSize: 11) <= rect.width - 6 && rect.height >= 16
                guard fits else { continue }
                // Whichever of white and near-black contrasts more (WCAG ratio).
                let dark = Color(hex: 0x1A1A1A)
                let ink = color.contrastRatio(with: .white) >= color.contrastRatio(with: dark) ? "#ffffff" : "#1a1a1a"
                Text.draw(text, x: rect.midX, y: rect.midY + 4, size: 11, anchor: "middle", fill: ink,
                          into: &writer)
            }
        }
    }
}
