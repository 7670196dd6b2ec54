import RetryStormResults
import RetryStormScenario
/// A sweep's grid for one variant: the first swept parameter across, the others (combined) up,
/// each in increasing order of value (a tune's refinements add values after the grid's, so file
/// order is not value order); values that are not numbers keep their order of first appearance.
struct SweepGrid {
    let table: StatisticsFile
    /// The variant whose rows fill the grid; nil: every row, whatever its variant (a sweep that
    /// names each grid point as its own variant).
    let variant: String?
    /// Values of the first parameter, left to right.
    package let columns: [String]
    /// Values of the other parameters joined with " · ", bottom to top; one empty row when the
    /// sweep has a single parameter.
    let rows: [String]

    /// One grid per variant when the sweep ran several variants over the grid, else one grid
    /// of all rows.
    static func grids(_ table: StatisticsFile) -> [SweepGrid] {
        let variants = table.variants
        let perVariant = variants.count > 1 && variants.allSatisfy { v in
            Set(table.rows.lazy.filter { $0.variant == v }.map(\.point)).count > 1
        }
        return perVariant ? variants.map { SweepGrid(table: table, variant: $0) } : [SweepGrid(table: table, variant: nil)]
    }

    init(table: StatisticsFile, variant: String?) {
        self.table = table
        self.variant = variant
        var columns: [String] = []
        var rowPoints: [[String]] = []
        for point in table.points where !point.isEmpty {
            if !columns.contains(point[0]) { columns.append(point[0]) }
            let rest = Array(point.dropFirst())
            if !rowPoints.contains(rest) { rowPoints.append(rest) }
        }
        let paths = table.parameters
        self.columns = Self.ordered(columns.map { [$0] }, paths: Array(paths.prefix(1))).map { $0[0] }
        self.rows = Self.ordered(rowPoints, paths: Array(paths.dropFirst())).map { $0.joined(separator: " · ") }
    }

    /// Sorts value tuples by their numeric values (lexicographically over the parameters), when
    /// every value is a number, a duration or a rate; otherwise keeps the given order.
    static func ordered(_ points: [[String]], paths: [String]) -> [[String]] {
        let keys = points.map { point in zip(paths, point).map { SweepGrid.number($1, path: $0) } }
        guard keys.allSatisfy({ $0.allSatisfy { $0 != nil } }) else { return points }
        return zip(points, keys).enumerated().sorted { a, b in
            let x = a.element.1.map { $0! }, y = b.element.1.map { $0! }
            return x.lexicographicallyPrecedes(y) || (x == y && a.offset < b.offset)
        }.map(\.element.0)
    }

    /// The value of `text` for key `path` as a number (nanoseconds for durations, per second for rates).
    static func number(_ text: String, path: String) -> Double? {
        guard let field = ScenarioSchema.byPath[path], let v = try? field.parse(text) else { return Units.decimal(text) }
        switch v {
        case .integer(let i): return i.map(Double.init)
        case .number(let d): return d
        case .duration(let ns): return ns.map(Double.init)
        default: return nil
        }
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

    func includes(_ row: StatisticsFile.Row) -> Bool { variant == nil || row.variant == variant }

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
