/// Reads timeseries.csv into one ``VariantTimeSeries`` per variant, in order of first appearance.
package enum TimeSeriesReader {
    /// Sums of one variant's rows while reading.
    private struct Accumulator {
        var variant: String
        var replications: [Int] = []
        var slotOfTime: [Double: Int] = [:]
        var times: [Double] = []
        var sums: [[Double]] = []
        var rowsPerSlot: [Int] = []
    }

    /// - Parameter fallbackBucket: the width (seconds) to use when a variant has one bucket only.
    /// - Throws: ``RunDirectoryError`` for a missing column, a non-numeric or negative value, or a
    ///   file without data rows.
    package static func read(_ csv: CSVDocument, fallbackBucket: Double) throws(RunDirectoryError) -> [VariantTimeSeries] {
        guard !csv.rows.isEmpty else { throw RunDirectoryError("\(csv.file): has no data rows") }
        let variantColumn = try csv.column("variant")
        let replicationColumn = try csv.column("replication")
        let timeColumn = try csv.column("t_s")
        var valueColumns: [Int?] = []
        for c in TimeSeriesColumn.allCases {
            valueColumns.append(c.isRequired ? try csv.column(c.rawValue) : csv.columns.firstIndex(of: c.rawValue))
        }
        var accumulators: [Accumulator] = []
        var indexOfVariant: [String: Int] = [:]
        for row in csv.rows.indices {
            let variant = try csv.text(row: row, column: variantColumn)
            let replication = try Self.index(csv, row: row, column: replicationColumn)
            let t = try Self.nonNegative(csv, row: row, column: timeColumn)
            let v: Int
            if let known = indexOfVariant[variant] {
                v = known
            } else {
                v = accumulators.count
                indexOfVariant[variant] = v
                accumulators.append(Accumulator(variant: variant))
            }
            var values: [Double] = []
            for column in valueColumns {
                values.append(try column.map { (c: Int) throws(RunDirectoryError) in try Self.nonNegative(csv, row: row, column: c) } ?? 0)
            }
            if accumulators[v].replications.last != replication, !accumulators[v].replications.contains(replication) { accumulators[v].replications.append(replication) }
            let slot: Int
            if let known = accumulators[v].slotOfTime[t] {
                slot = known
            } else {
                slot = accumulators[v].times.count
                accumulators[v].slotOfTime[t] = slot
                accumulators[v].times.append(t)
                accumulators[v].sums.append([Double](repeating: 0, count: values.count))
                accumulators[v].rowsPerSlot.append(0)
            }
            for i in values.indices { accumulators[v].sums[slot][i] += values[i] }
            accumulators[v].rowsPerSlot[slot] += 1
        }
        return accumulators.map { Self.finish($0, fallbackBucket: fallbackBucket) }
    }

    private static func finish(_ a: Accumulator, fallbackBucket: Double) -> VariantTimeSeries {
        let order = a.times.indices.sorted { a.times[$0] < a.times[$1] }
        let times = order.map { a.times[$0] }
        var width = Double.infinity
        for i in times.indices.dropFirst() { width = min(width, times[i] - times[i - 1]) }
        if !width.isFinite { width = fallbackBucket }
        let means = TimeSeriesColumn.allCases.indices.map { c in
            order.map { a.sums[$0][c] / Double(a.rowsPerSlot[$0]) }
        }
        return VariantTimeSeries(variant: a.variant, replications: a.replications.count, bucketSeconds: width,
                                 times: times, means: means)
    }

    private static func nonNegative(_ csv: CSVDocument, row: Int, column: Int) throws(RunDirectoryError) -> Double {
        let x = try csv.number(row: row, column: column)
        guard x.isFinite, x >= 0 else {
            throw RunDirectoryError("\(csv.file):\(csv.lines[row]): column '\(csv.columns[column])': expected a finite number ≥ 0 (got '\(csv.rows[row][column])')")
        }
        return x
    }

    static func index(_ csv: CSVDocument, row: Int, column: Int) throws(RunDirectoryError) -> Int {
        guard let i = Int(csv.rows[row][column]), i >= 0 else {
            throw RunDirectoryError("\(csv.file):\(csv.lines[row]): column '\(csv.columns[column])': expected a replication index (got '\(csv.rows[row][column])')")
        }
        return i
    }
}
