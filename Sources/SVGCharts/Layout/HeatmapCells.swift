/// Where the cells along one heatmap axis begin and end, as fractions of
/// the plot's side (0 at the left or bottom), and where each label sits.
///
/// Categorical: equal cells, labels in their middles. Numeric (linear or
/// log): each boundary lies halfway between neighbouring values (halfway in
/// log10 on a log axis, the geometric mean), and the outer edges as far
/// beyond the first and last values as the first and last boundaries are
/// inside them; labels sit at the values. Unevenly spaced values (a sweep
/// refined near its optimum) thus get unequal cells, as on an axis.
package struct HeatmapCells: Equatable {
    /// `count + 1` increasing fractions from 0 to 1.
    package let edges: [Double]
    /// `count` fractions: where each label is anchored.
    package let anchors: [Double]
    /// Whether the placement is numeric (else categorical).
    package let isNumeric: Bool

    package init(count: Int, placement: Heatmap.Placement) {
        let n = max(1, count)
        let valid = Self.coordinates(placement, count: count)
        if let coordinates = valid, n > 1 {
            var bounds = [Double](repeating: 0, count: n + 1)
            for i in 1..<n { bounds[i] = (coordinates[i - 1] + coordinates[i]) / 2 }
            bounds[0] = 2 * coordinates[0] - bounds[1]
            bounds[n] = 2 * coordinates[n - 1] - bounds[n - 1]
            let lo = bounds[0]
            let span = bounds[n] - lo
            edges = bounds.map { ($0 - lo) / span }
            anchors = coordinates.map { ($0 - lo) / span }
            isNumeric = true
        } else {
            edges = (0...n).map { Double($0) / Double(n) }
            anchors = (0..<n).map { (Double($0) + 0.5) / Double(n) }
            isNumeric = valid != nil
        }
    }

    /// The values in the space cells are even in (the value, or its log10),
    /// or nil when they cannot be placed: wrong count, non-finite, not
    /// strictly increasing, or not positive on a log axis.
    package static func coordinates(_ placement: Heatmap.Placement, count: Int) -> [Double]? {
        switch placement {
        case .categorical: return nil
        case .linear(let values), .log(let values):
            guard values.count == count, values.allSatisfy({ $0.isFinite && abs($0) <= Axis.magnitudeLimit })
            else { return nil }
            var coordinates = values
            if case .log = placement {
                guard values.allSatisfy({ $0 > 0 }) else { return nil }
                coordinates = values.map(DecimalMath.log10)
            }
            for i in coordinates.indices.dropFirst() where !(coordinates[i] > coordinates[i - 1]) { return nil }
            return coordinates
        }
    }
}
