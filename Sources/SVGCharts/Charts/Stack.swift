/// Series values aligned on the union of their x values and accumulated.
package struct Stack {
    /// Sorted distinct finite x values of all series.
    package let xs: [Double]
    /// `cumulative[i][j]`: sum of series 0...i at `xs[j]`.
    package let cumulative: [[Double]]

    package init(series: [Series]) {
        var all: [Double] = []
        for s in series { all += s.points.map(\.x).filter(\.isFinite) }
        all.sort()
        var unique: [Double] = []
        for x in all where unique.last != x { unique.append(x) }
        xs = unique
        var running = [Double](repeating: 0, count: unique.count)
        var levels: [[Double]] = []
        for s in series {
            var values = [Double](repeating: 0, count: unique.count)
            for p in s.points where p.x.isFinite {
                guard let j = Stack.index(of: p.x, in: unique) else { continue }
                values[j] = p.y.isFinite ? max(0, min(1e300, p.y)) : 0
            }
            for j in running.indices { running[j] = min(1e300, running[j] + values[j]) }
            levels.append(running)
        }
        cumulative = levels
    }

    /// Right edge of the last bucket: one previous bucket width past the
    /// last x; nil with fewer than two x values.
    package var stepEnd: Double? {
        guard xs.count > 1 else { return nil }
        return xs[xs.count - 1] + (xs[xs.count - 1] - xs[xs.count - 2])
    }

    /// Binary search in a sorted array.
    package static func index(of value: Double, in sorted: [Double]) -> Int? {
        var low = 0
        var high = sorted.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if sorted[mid] == value { return mid }
            if sorted[mid] < value { low = mid + 1 } else { high = mid - 1 }
        }
        return nil
    }
}
