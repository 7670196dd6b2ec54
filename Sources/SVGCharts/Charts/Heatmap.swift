/// A value per cell over two parameters (e.g. base delay on x, max delay on
/// y), coloured with viridis and explained by a colour bar.
///
/// `values[row][column]`: row 0 is the bottom row (y grows upwards like an
/// axis), column 0 the leftmost.
///
/// What the chart promises, so that it does not mislead:
/// - One unit for the whole chart: cells and colour bar print durations in
///   the same unit, named in the colour bar's title ("p99 (s)"), with
///   decimals chosen so that distinct values print distinctly
///   (``UniformFormat``).
/// - A log colour scale (`colorAxis.scale = .log`) for values spanning
///   decades; its colour bar has ticks at powers of ten and says "log scale".
///   Values ≤ 0 then take the lowest colour (their printed value still says 0).
/// - With ``Placement/linear(_:)`` or ``Placement/log(_:)`` cells are placed
///   as on an axis (see ``HeatmapCells``); with ``Placement/categorical``
///   cells are equal and the axis title says "(categorical, not to scale)".
/// - Two kinds of missing cell, both in the legend: `invalid` combinations
///   (e.g. max delay below base delay: a white cell crossed out) and values
///   that are missing or non-finite, "not evaluated" (grey, hatched) — but
///   with an `infinityLabel`, +∞ is a value, not a missing one: a dark cell
///   with that label printed in it ("never" for a time that never came), in
///   the legend too, and no colour of the scale.
/// - A cell's value is printed only where it fits inside the cell, at one
///   size for the whole grid when possible (11 down to 8 px); see
///   `valueSize`. The colour bar still gives every value.
/// - `meetsConstraints` cells get a common black-and-white outline around
///   their region; `chosen` gets an outline and a star inside the cell, with
///   `chosenLabel` in the legend.
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

    /// How the cells along one axis are placed.
    public enum Placement: Sendable, Equatable {
        /// Equal cells in the given order; the axis is labelled categorical.
        case categorical
        /// The numeric value of each column (row), strictly increasing:
        /// cell boundaries at the midpoints between neighbours.
        case linear([Double])
        /// As ``linear(_:)`` with geometric midpoints (all values > 0).
        case log([Double])
    }

    public var title: String
    public var subtitle: String?
    /// Title of the x parameter with unit, e.g. "base delay".
    public var xLabel: String
    /// Title of the y parameter with unit, e.g. "max delay".
    public var yLabel: String
    /// x labels, left to right.
    public var columns: [String]
    /// y labels, bottom to top.
    public var rows: [String]
    public var values: [[Double]]
    /// The colour bar: its label, scale (linear or log), format and optional
    /// fixed range; colours span its resolved range.
    public var colorAxis: Axis
    /// Placement of the columns; values that cannot be placed (wrong count,
    /// not increasing, ≤ 0 on a log axis) fall back to categorical.
    public var columnPlacement: Placement
    /// Placement of the rows, as ``columnPlacement``.
    public var rowPlacement: Placement
    public var meetsConstraints: [Cell]
    public var constraintLabel: String
    public var chosen: Cell?
    public var chosenLabel: String
    /// Legend text for missing or non-finite values.
    public var noDataLabel: String
    /// Combinations that are not valid configurations; drawn crossed out
    /// whatever their value.
    public var invalid: [Cell]
    public var invalidLabel: String
    /// Print each value in its cell when it fits.
    public var showsValues: Bool
    /// The text of each cell's value, `valueLabels[row][column]`, in the unit the colour bar's
    /// title names: a caller that prints the same values in tables passes its own rounding, so
    /// that a value reads the same in both. Nil (or a missing entry): the colour bar's
    /// ``UniformFormat``.
    public var valueLabels: [[String]]?
    /// What +∞ means ("never"), printed in its cells; nil: +∞ is "not evaluated" like NaN.
    public var infinityLabel: String?
    public var size: ChartSize

    public init(
        title: String, subtitle: String? = nil, xLabel: String, yLabel: String,
        columns: [String], rows: [String], values: [[Double]], colorAxis: Axis,
        columnPlacement: Placement = .categorical, rowPlacement: Placement = .categorical,
        meetsConstraints: [Cell] = [], constraintLabel: String = "meets constraints",
        chosen: Cell? = nil, chosenLabel: String = "tuned", noDataLabel: String = "not evaluated",
        invalid: [Cell] = [], invalidLabel: String = "invalid combination",
        showsValues: Bool = true, valueLabels: [[String]]? = nil, infinityLabel: String? = nil, size: ChartSize = .standard
    ) {
        self.title = title
        self.subtitle = subtitle
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.columns = columns
        self.rows = rows
        self.values = values
        self.colorAxis = colorAxis
        self.columnPlacement = columnPlacement
        self.rowPlacement = rowPlacement
        self.meetsConstraints = meetsConstraints
        self.constraintLabel = constraintLabel
        self.chosen = chosen
        self.chosenLabel = chosenLabel
        self.noDataLabel = noDataLabel
        self.invalid = invalid
        self.invalidLabel = invalidLabel
        self.showsValues = showsValues
        self.valueLabels = valueLabels
        self.infinityLabel = infinityLabel
        self.size = size
    }

    /// The value at a cell, NaN when missing.
    package func value(column: Int, row: Int) -> Double {
        guard row >= 0, row < values.count, column >= 0, column < values[row].count else { return .nan }
        return values[row][column]
    }

    /// The text printed in the cell holding `value`.
    package func valueLabel(column: Int, row: Int, _ value: Double, format: UniformFormat) -> String {
        if let valueLabels, row < valueLabels.count, column < valueLabels[row].count { return valueLabels[row][column] }
        return format.string(value)
    }

    package func contains(_ cell: Cell) -> Bool {
        cell.column >= 0 && cell.column < columns.count && cell.row >= 0 && cell.row < rows.count
    }

    /// What the cells show: the colourable values (invalid cells excluded),
    /// which kinds of missing cell occur, and the one format of every value.
    package struct Contents {
        package var finite: [Double] = []
        package var invalid: Set<Cell> = []
        package var hasNoData = false
        /// A +∞ cell drawn as ``infinityLabel``.
        package var hasInfinity = false
        package var format: UniformFormat
    }

    /// The colour of a +∞ cell (with ``infinityLabel``): darker than any colour of the scale.
    package static let infinityColor = Color(hex: 0x3D3D3D)

    /// Whether `v` is drawn as an ``infinityLabel`` cell.
    package func isLabelledInfinity(_ v: Double) -> Bool { v == .infinity && infinityLabel != nil }

    package func contents() -> Contents {
        let invalidCells = Set(invalid.filter(contains))
        var finite: [Double] = []
        var hasNoData = false
        var hasInfinity = false
        for r in rows.indices {
            for c in columns.indices where !invalidCells.contains(Cell(column: c, row: r)) {
                let v = value(column: c, row: r)
                if v.isFinite {
                    finite.append(v)
                } else if isLabelledInfinity(v) {
                    hasInfinity = true
                } else {
                    hasNoData = true
                }
            }
        }
        let named = colorAxis.format == .duration ? AxisTitle.namedUnit(in: colorAxis.label) : nil
        let format = UniformFormat.fitting(finite, format: colorAxis.format, scale: colorAxis.scale, unit: named)
        return Contents(finite: finite, invalid: invalidCells, hasNoData: hasNoData, hasInfinity: hasInfinity, format: format)
    }

    /// Contents and the layout drawn from them (the legend explains what occurs).
    package func layout() -> (contents: Contents, layout: HeatmapLayout) {
        let contents = contents()
        var items: [LegendItem] = []
        if !contents.invalid.isEmpty { items.append(LegendItem(label: invalidLabel, swatch: .crossed)) }
        if contents.hasNoData { items.append(LegendItem(label: noDataLabel, swatch: .hatched)) }
        if contents.hasInfinity, let infinityLabel { items.append(LegendItem(label: infinityLabel, swatch: .box(color: Self.infinityColor))) }
        if meetsConstraints.contains(where: contains) {
            items.append(LegendItem(label: constraintLabel, swatch: .outline))
        }
        if let chosen, contains(chosen) { items.append(LegendItem(label: chosenLabel, swatch: .chosenCell)) }
        return (contents, HeatmapLayout(chart: self, contents: contents, legendItems: items))
    }

    public func svg() -> String {
        let (contents, layout) = layout()
        let feasible = meetsConstraints.filter(contains)
        let chosenCell = chosen.flatMap { contains($0) ? $0 : nil }
        var writer = SVGWriter(width: size.width, height: size.height, title: title, fontFamily: Theme.fontFamily)
        Header.draw(title: title, subtitle: subtitle, width: size.width, into: &writer)
        drawCells(layout, contents: contents, chosen: chosenCell, into: &writer)
        HeatmapRenderer.drawRegionOutline(Set(feasible), layout: layout, into: &writer)
        if let chosenCell { HeatmapRenderer.drawChosen(chosenCell, layout: layout, into: &writer) }
        layout.drawAxes(chart: self, into: &writer)
        HeatmapRenderer.drawColorBar(layout, into: &writer)
        layout.legend.draw(top: layout.legendTop, centerX: size.width / 2, into: &writer)
        return writer.finish()
    }

    /// The text size for all cell values: the largest (11 down to 8 px) at
    /// which every value fits its cell, so the grid reads evenly; when none
    /// does, each value gets the largest size that fits its own cell, but
    /// only if at least two thirds of the values fit at all (a grid with a
    /// scattering of labels reads worse than one without: the colour bar
    /// carries the values). Nil: print no values.
    package func valueSize(_ layout: HeatmapLayout, contents: Contents, chosen: Cell?) -> (size: Double, uniform: Bool)? {
        guard showsValues else { return nil }
        var labelled: [(text: String, rect: Rect, keepOut: Rect?)] = []
        for r in rows.indices {
            for c in columns.indices where !contents.invalid.contains(Cell(column: c, row: r)) {
                let v = value(column: c, row: r)
                guard v.isFinite else { continue }
                let rect = layout.cell(column: c, row: r)
                let keepOut = chosen == Cell(column: c, row: r) ? HeatmapRenderer.starBox(in: rect) : nil
                labelled.append((valueLabel(column: c, row: r, v, format: contents.format), rect, keepOut))
            }
        }
        guard !labelled.isEmpty else { return nil }
        var size = HeatmapRenderer.valueSize
        while size >= HeatmapRenderer.smallestValueSize {
            let all = labelled.allSatisfy {
                HeatmapRenderer.valuePlacement($0.text, in: $0.rect, avoiding: $0.keepOut, largest: size)?.size == size
            }
            if all { return (size, true) }
            size -= 1
        }
        let fitting = labelled.filter {
            HeatmapRenderer.valuePlacement($0.text, in: $0.rect, avoiding: $0.keepOut) != nil
        }.count
        return 3 * fitting >= 2 * labelled.count ? (HeatmapRenderer.valueSize, false) : nil
    }

    private func drawCells(
        _ layout: HeatmapLayout, contents: Contents, chosen: Cell?,
        into writer: inout SVGWriter
    ) {
        let n = SVGWriter.number
        let textSize = valueSize(layout, contents: contents, chosen: chosen)
        for r in rows.indices {
            for c in columns.indices {
                let rect = layout.cell(column: c, row: r)
                if contents.invalid.contains(Cell(column: c, row: r)) {
                    HeatmapRenderer.drawInvalidCell(rect, into: &writer)
                    continue
                }
                let v = value(column: c, row: r)
                if isLabelledInfinity(v), let infinityLabel {
                    HeatmapRenderer.drawLabelledCell(
                        rect, color: Self.infinityColor, label: infinityLabel, largest: textSize?.size ?? HeatmapRenderer.valueSize, into: &writer)
                    continue
                }
                guard v.isFinite else {
                    HeatmapRenderer.drawNoDataCell(rect, into: &writer)
                    continue
                }
                let color = ColorScale.viridis(layout.colors.fraction(v))
                // Slightly oversized so anti-aliasing leaves no hairline gaps.
                writer.element(
                    "rect",
                    [
                        ("x", n(rect.minX)), ("y", n(rect.minY)), ("width", n(rect.width + 0.5)),
                        ("height", n(rect.height + 0.5)), ("fill", color.hex)
                    ])
                guard let textSize else { continue }
                let isChosen = chosen == Cell(column: c, row: r)
                let keepOut = isChosen ? HeatmapRenderer.starBox(in: rect) : nil
                HeatmapRenderer.drawValue(
                    valueLabel(column: c, row: r, v, format: contents.format), in: isChosen ? HeatmapRenderer.insideOutline(rect) : rect,
                    on: color, avoiding: keepOut, largest: textSize.size, into: &writer)
            }
        }
    }
}
