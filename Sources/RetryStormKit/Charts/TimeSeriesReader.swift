/// Reads timeseries.csv into one ``VariantTimeSeries`` per variant, in order of first appearance.
package enum TimeSeriesReader {
    /// Sums of one variant's rows while reading.
    private struct Accumulator {
        var variant: String
        var replications = FirstAppearance<Int>()
        /// Bucket start times, in file order; their numbers index the slots below.
        var times = FirstAppearance<Double>()
        /// Flat: slot `s` holds column `c`'s sum at `s * columnCount + c` (one allocation, not
        /// one per bucket, for runs of millions of buckets).
        var sums: [Double] = []
        var rowsPerSlot: [Int] = []
    }

    /// - Parameter fallbackBucket: the width (seconds) to use when a variant has one bucket only.
    /// - Throws: ``RunDirectoryError`` for a missing column, a non-numeric or negative value, or a
    ///   file without data rows.
    package static func read(_ csv: CSVDocument, fallbackBucket: Double) throws(RunDirectoryError) -> [VariantTimeSeries] {
        let variantColumn = try csv.column("variant")
        let replicationColumn = try csv.column("replication")
        let timeColumn = try csv.column("t_s")
        var valueColumns: [Int?] = []
        for c in TimeSeriesColumn.allCases {
            valueColumns.append(c.isRequired ? try csv.column(c.rawValue) : csv.columns.firstIndex(of: c.rawValue))
        }
        let width = valueColumns.count
        var accumulators: [Accumulator] = []
        var variants = FirstAppearance<String>()
        try csv.forEachRow { (row) throws(RunDirectoryError) in
            let variant = try row.text(variantColumn)
            let replication = try replicationIndex(row, replicationColumn)
            let t = try nonNegative(row, timeColumn)
            let (v, newVariant) = variants.number(variant)
            if newVariant { accumulators.append(Accumulator(variant: variant)) }
            _ = accumulators[v].replications.number(replication)
            let (slot, newSlot) = accumulators[v].times.number(t)
            if newSlot {
                accumulators[v].sums.append(contentsOf: repeatElement(0, count: width))
                accumulators[v].rowsPerSlot.append(0)
            }
            for (i, column) in valueColumns.enumerated() {
                guard let column else { continue }
                accumulators[v].sums[slot * width + i] += try nonNegative(row, column)
            }
            accumulators[v].rowsPerSlot[slot] += 1
        }
        guard !accumulators.isEmpty else { throw RunDirectoryError("\(csv.file): has no data rows") }
        return accumulators.map { finish($0, columns: width, fallbackBucket: fallbackBucket) }
    }

    private static func finish(_ a: Accumulator, columns: Int, fallbackBucket: Double) -> VariantTimeSeries {
        let keys = a.times.keys
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        let times = order.map { keys[$0] }
        var width = Double.infinity
        for i in times.indices.dropFirst() { width = min(width, times[i] - times[i - 1]) }
        if !width.isFinite { width = fallbackBucket }
        let means = (0..<columns).map { c in
            order.map { a.sums[$0 * columns + c] / Double(a.rowsPerSlot[$0]) }
        }
        return VariantTimeSeries(variant: a.variant, replications: a.replications.count, bucketSeconds: width,
                                 times: times, means: means)
    }

    private static func nonNegative(_ row: CSVDocument.Row, _ column: Int) throws(RunDirectoryError) -> Double {
        let x = try row.number(column)
        guard x.isFinite, x >= 0 else { throw row.problem(column, "expected a finite number ≥ 0 (got '\(row.fields[column])')") }
        return x
    }

    /// A replication index: a whole number ≥ 0.
    static func replicationIndex(_ row: CSVDocument.Row, _ column: Int) throws(RunDirectoryError) -> Int {
        guard let i = Int(row.fields[column]), i >= 0 else {
            throw row.problem(column, "expected a replication index (got '\(row.fields[column])')")
        }
        return i
    }
}
