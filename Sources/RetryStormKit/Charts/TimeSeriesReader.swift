/// Reads timeseries.csv into one ``VariantTimeSeries`` per variant, in order of first appearance.
package enum TimeSeriesReader {
    /// Sums of one variant's rows while reading.
    private struct Accumulator {
        var variant: String
        var replications = FirstAppearance<Int>()
        /// Bucket start times, in file order; their numbers index `sums` and `rowsPerSlot`.
        var times = FirstAppearance<Double>()
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
        var variants = FirstAppearance<String>()
        for row in csv.rows.indices {
            let variant = try csv.text(row: row, column: variantColumn)
            let replication = try Self.index(csv, row: row, column: replicationColumn)
            let t = try Self.nonNegative(csv, row: row, column: timeColumn)
            let (v, newVariant) = variants.number(variant)
            if newVariant { accumulators.append(Accumulator(variant: variant)) }
            var values: [Double] = []
            for column in valueColumns {
                values.append(try column.map { (c: Int) throws(RunDirectoryError) in try Self.nonNegative(csv, row: row, column: c) } ?? 0)
            }
            _ = accumulators[v].replications.number(replication)
            let (slot, newSlot) = accumulators[v].times.number(t)
            if newSlot {
                accumulators[v].sums.append([Double](repeating: 0, count: values.count))
                accumulators[v].rowsPerSlot.append(0)
            }
            for i in values.indices { accumulators[v].sums[slot][i] += values[i] }
            accumulators[v].rowsPerSlot[slot] += 1
        }
        return accumulators.map { Self.finish($0, fallbackBucket: fallbackBucket) }
    }

    private static func finish(_ a: Accumulator, fallbackBucket: Double) -> VariantTimeSeries {
        let order = a.times.keys.indices.sorted { a.times.keys[$0] < a.times.keys[$1] }
        let times = order.map { a.times.keys[$0] }
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
