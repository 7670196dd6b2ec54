/// A named sequence of points drawn as one line or area.
///
/// Points are drawn in the given order (give them in increasing x). A point
/// with a non-finite coordinate is skipped and breaks the line there, so
/// missing data reads as a gap rather than an invented straight line.
public struct Series: Sendable, Equatable {
    public enum Style: Sendable, Equatable {
        /// Straight segments between points.
        case line
        /// Straight segments, dashed; for baselines and model predictions.
        case dashed
        /// Values per time bucket: each y holds from its x until the next
        /// point's x; the last bucket is as wide as the one before it.
        case step
        /// A line with the region down to y = 0 filled, e.g. capacity.
        case area
    }

    /// Legend text.
    public var name: String
    public var points: [DataPoint]
    public var style: Style
    /// nil picks the next Okabe–Ito colour by the series' position.
    public var color: Color?
    /// Draw a mark at every point (a shape per series position), for lines
    /// through a few measured values, where the segments only connect them.
    public var marksPoints: Bool

    public init(
        name: String, points: [DataPoint], style: Style = .line, color: Color? = nil,
        marksPoints: Bool = false
    ) {
        self.name = name
        self.points = points
        self.style = style
        self.color = color
        self.marksPoints = marksPoints
    }

    /// Pairs `x[i]` with `y[i]`, as read from two CSV columns; extra values
    /// in the longer array are ignored.
    public init(
        name: String, x: [Double], y: [Double], style: Style = .line, color: Color? = nil,
        marksPoints: Bool = false
    ) {
        self.init(
            name: name, points: zip(x, y).map { DataPoint(x: $0, y: $1) }, style: style, color: color,
            marksPoints: marksPoints)
    }

    /// The empirical CDF of `samples`: points (x, fraction of samples ≤ x).
    ///
    /// Non-finite samples are dropped (zero and negative values are kept; a
    /// log axis draws them at its minimum). More than `maxPoints` distinct
    /// values are thinned to `maxPoints` evenly spaced ranks, so a million
    /// samples do not make a megabyte of SVG; the last point is always
    /// (max, 1).
    /// - Complexity: O(n log n) for n samples.
    public static func empiricalCDF(
        name: String, samples: [Double], maxPoints: Int = 1000, style: Style = .step, color: Color? = nil
    ) -> Series {
        let sorted = samples.filter(\.isFinite).sorted()
        let n = sorted.count
        var points: [DataPoint] = []
        guard n > 0 else { return Series(name: name, points: [], style: style, color: color) }
        let limit = max(1, maxPoints)
        if n <= limit {
            for i in 0..<n where i == n - 1 || sorted[i + 1] != sorted[i] {
                points.append(DataPoint(x: sorted[i], y: Double(i + 1) / Double(n)))
            }
        } else {
            var lastRank = 0
            for k in 1...limit {
                // Ceiling of k·n/limit in integers: the rank reached at step k.
                let rank = (k * n + limit - 1) / limit
                if rank == lastRank { continue }
                lastRank = rank
                let x = sorted[rank - 1]
                if let last = points.last, last.x == x {
                    points[points.count - 1] = DataPoint(x: x, y: Double(rank) / Double(n))
                } else {
                    points.append(DataPoint(x: x, y: Double(rank) / Double(n)))
                }
            }
        }
        return Series(name: name, points: points, style: style, color: color)
    }
}
