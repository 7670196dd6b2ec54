import RetryStormResults
import RetryStormScenario

/// A sweep's points laid out on a grid: the first swept key across (columns), the others up
/// (rows: the second key's values, or with three keys every combination of the second and third
/// that occurs, joined with " · "), from ``MetricTable``'s names, parameters and cells.
///
/// Every cell of the grid is one of: a point the sweep ran; a point it did not run because it
/// is the same configuration as one it did (tune.json's aliases: it shows that point's values);
/// an invalid combination (the scenario with those values does not validate — a rule across keys,
/// such as a max delay below the base delay: the sweep leaves those out); or a point not
/// evaluated (a valid combination the sweep never ran: a tune refines near its leader only).
struct SweepGrid {
    enum Content: Equatable {
        /// The index into the table's names of the point whose values the cell shows, and whether
        /// that point was run under another name (an alias).
        case point(Int, alias: Bool)
        case invalid
        case notEvaluated
    }

    let table: MetricTable
    /// The swept keys, in column order of sweep.csv.
    let keys: [SweepKey]
    /// The values of the first key, left to right.
    var columns: SweepKey { keys[0] }
    /// The tuples of the other keys' values, bottom to top; one empty tuple with a single key.
    let rows: [[String]]
    /// `contents[row][column]`.
    let contents: [[Content]]

    /// The grid of `table`; `scenario` decides which absent combinations are invalid, `aliases`
    /// (alias name → name of the point run) which are another point's configuration.
    init(_ table: MetricTable, scenario: LoadedScenario, aliases: [String: String] = [:]) {
        self.table = table
        let paths = table.parameterPaths
        let points = table.parameters.filter { $0.count == paths.count }
        keys = paths.indices.map { k in SweepKey(path: paths[k], values: points.map { $0[k] }) }
        let others = Array(keys.dropFirst())
        var tuples: [[String]] = []
        for p in points where !tuples.contains(Array(p.dropFirst())) { tuples.append(Array(p.dropFirst())) }
        rows = Self.ordered(tuples, keys: others)
        var byParameters: [[String]: Int] = [:]
        for (i, p) in table.parameters.enumerated() where byParameters[p] == nil { byParameters[p] = i }
        let names = Dictionary(table.names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let columnValues = keys.first?.values ?? []
        contents = rows.map { row in
            columnValues.map { column in
                let values = [column] + row
                if let i = byParameters[values] { return .point(i, alias: false) }
                if let twin = aliases[Self.name(paths: paths, values: values)], let i = names[twin] { return .point(i, alias: true) }
                let valid = (try? scenario.scenario(applying: Array(zip(paths, values)), source: "--grid")) != nil
                return valid ? .notEvaluated : .invalid
            }
        }
    }

    /// Sorts tuples of values by each key's axis order (lexicographically over the keys).
    static func ordered(_ tuples: [[String]], keys: [SweepKey]) -> [[String]] {
        tuples.enumerated().sorted { a, b in
            for (k, key) in keys.enumerated() {
                let x = key.values.firstIndex(of: a.element[k]) ?? 0
                let y = key.values.firstIndex(of: b.element[k]) ?? 0
                if x != y { return x < y }
            }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// A grid point's name as the sweep gives it (`base=250ms+max=2s`: each key's last path
    /// component and value), to find it among tune.json's aliases.
    static func name(paths: [String], values: [String]) -> String {
        zip(paths, values).map { "\($0.split(separator: ".").last.map(String.init) ?? $0)=\($1)" }.joined(separator: "+")
    }

    /// The rows' labels: the second key's labels (in one unit), or the tuples joined with " · ".
    var rowLabels: [String] {
        if keys.count == 2 { return keys[1].labels }
        return rows.map { $0.joined(separator: " · ") }
    }

    /// The rows' title: the second key's title, or the other keys' paths joined with " × ".
    var rowTitle: String {
        if keys.count == 2 { return keys[1].title }
        return keys.dropFirst().map(\.path).joined(separator: " × ")
    }

    /// The mean of `metric` in every cell, `[row][column]`; NaN where no point was run.
    func means(_ metric: Metric) -> [[Double]] {
        contents.map { row in
            row.map { content in
                guard case .point(let i, _) = content else { return .nan }
                return table.interval(table.names[i], metric)?.mean ?? .nan
            }
        }
    }

    /// The points (indices into the table) that lose clearly more operations than another point of
    /// the grid (``MetricTable/losesClearlyMore(_:than:)``), when `metric` is one a lower loss
    /// should not win: every metric but the losses themselves, whose values already show them.
    func losingMore(on metric: Metric) -> Set<Int> {
        let losses: [Metric] = [.lostFraction, .gaveUpFraction, .blockedFraction, .unfinishedFraction, .gaveUp, .blocked]
        guard !losses.contains(metric) else { return [] }
        let points = contents.joined().compactMap { c -> Int? in if case .point(let i, _) = c { i } else { nil } }
        return table.losingClearlyMore(among: Array(Set(points)).sorted())
    }

    /// The cells of `kind`, as (column, row).
    func cells(where test: (Content) -> Bool) -> [(column: Int, row: Int)] {
        contents.indices.flatMap { r in contents[r].indices.filter { test(contents[r][$0]) }.map { (column: $0, row: r) } }
    }

    /// The cells whose means meet every constraint (a cell without the metric does not).
    func feasible(_ constraints: [TuningChoice.Constraint]) -> [(column: Int, row: Int)] {
        guard !constraints.isEmpty else { return [] }
        let tables = constraints.map { means($0.metric) }
        return cells { _ in true }.filter { c in zip(constraints, tables).allSatisfy { $0.admits($1[c.row][c.column]) } }
    }

    /// The cell of the point named `name` (run under that name, not an alias).
    func cell(named name: String) -> (column: Int, row: Int)? {
        guard let i = table.names.firstIndex(of: name) else { return nil }
        return cells { $0 == .point(i, alias: false) }.first
    }

    /// The tuner's chosen cell: its variant's cell, else the cell of its point's values.
    func chosen(_ tuning: TuningChoice?) -> (column: Int, row: Int)? {
        guard let tuning, !tuning.chosenPoint.isEmpty else { return nil }
        if let v = tuning.chosenVariant, let cell = cell(named: v) { return cell }
        let values = table.parameterPaths.map { tuning.chosenPoint[$0] }
        guard values.allSatisfy({ $0 != nil }), let i = table.parameters.firstIndex(of: values.map { $0! }) else { return nil }
        return cells { $0 == .point(i, alias: false) }.first
    }
}
