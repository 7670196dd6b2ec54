/// A sweep's grid for one variant: the first swept parameter across, the others (combined) up,
/// each in order of first appearance in sweep.csv (the order the sweep listed its values).
struct SweepGrid {
    let table: MetricTable
    /// The variant whose rows fill the grid; nil: every row, whatever its variant (a sweep that
    /// names each grid point as its own variant).
    let variant: String?
    /// Values of the first parameter, left to right.
    let columns: [String]
    /// Values of the other parameters joined with " · ", bottom to top; one empty row when the
    /// sweep has a single parameter.
    let rows: [String]

    /// One grid per variant when the sweep ran several variants over the grid, else one grid
    /// of all rows.
    static func grids(_ table: MetricTable) -> [SweepGrid] {
        let variants = table.variants
        let perVariant = variants.count > 1 && variants.allSatisfy { v in
            Set(table.rows.lazy.filter { $0.variant == v }.map(\.point)).count > 1
        }
        return perVariant ? variants.map { SweepGrid(table: table, variant: $0) } : [SweepGrid(table: table, variant: nil)]
    }

    init(table: MetricTable, variant: String?) {
        self.table = table
        self.variant = variant
        var columns: [String] = []
        var rows: [String] = []
        for point in table.points where !point.isEmpty {
            if !columns.contains(point[0]) { columns.append(point[0]) }
            let row = Self.rowKey(point)
            if !rows.contains(row) { rows.append(row) }
        }
        self.columns = columns
        self.rows = rows
    }

    static func rowKey(_ point: [String]) -> String { point.dropFirst().joined(separator: " · ") }

    /// The x axis title: the first parameter's dotted path.
    var xLabel: String { table.parameters.first ?? "" }
    /// The y axis title: the other parameters' paths joined with " × ".
    var yLabel: String { table.parameters.dropFirst().joined(separator: " × ") }

    /// The grid cell of a point, nil when the point is not on the grid.
    func cell(of point: [String]) -> (column: Int, row: Int)? {
        guard let first = point.first, let c = columns.firstIndex(of: first),
              let r = rows.firstIndex(of: Self.rowKey(point)) else { return nil }
        return (c, r)
    }

    /// The mean of `metric` at every cell, `values[row][column]`, NaN where the sweep has no row.
    func means(_ metric: String) -> [[Double]] {
        var values = rows.map { _ in columns.map { _ in Double.nan } }
        for row in table.rows where includes(row) && row.metric == metric {
            if let cell = cell(of: row.point) { values[cell.row][cell.column] = row.mean }
        }
        return values
    }

    func includes(_ row: MetricTable.Row) -> Bool { variant == nil || row.variant == variant }

    /// The cells whose means satisfy every constraint (a cell missing a constrained metric does not).
    func feasible(_ constraints: [TuningChoice.Constraint]) -> [(column: Int, row: Int)] {
        guard !constraints.isEmpty else { return [] }
        let tables = constraints.map { means($0.metric) }
        var cells: [(column: Int, row: Int)] = []
        for r in rows.indices {
            for c in columns.indices where zip(constraints, tables).allSatisfy({ $0.admits($1[r][c]) }) {
                cells.append((c, r))
            }
        }
        return cells
    }

    /// The chosen point of `tuning` when it belongs to this variant and lies on the grid.
    func chosen(_ tuning: TuningChoice?) -> (column: Int, row: Int)? {
        guard let tuning, !tuning.chosenPoint.isEmpty else { return nil }
        if let v = tuning.chosenVariant, let variant, v != variant { return nil }
        var point: [String] = []
        for p in table.parameters {
            guard let value = tuning.chosenPoint[p] else { return nil }
            point.append(value)
        }
        return cell(of: point)
    }
}
