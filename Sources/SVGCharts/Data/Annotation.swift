/// A labelled mark on a line, stacked or CDF chart, in data units.
///
/// Annotated values are included when the axis range is derived from data,
/// so a capacity line above every series still shows.
public enum Annotation: Sendable, Equatable {
    /// A shaded x range, e.g. `.xInterval(from: 60, to: 90, label: "outage 60–90 s")`.
    case xInterval(from: Double, to: Double, label: String)
    /// A vertical line, e.g. `.xMarker(at: 132, label: "recovered +42 s")`.
    case xMarker(at: Double, label: String)
    /// A horizontal line, e.g. `.yReference(at: 1000, label: "capacity 1k/s")`.
    case yReference(at: Double, label: String)

    package var xValues: [Double] {
        switch self {
        case .xInterval(let from, let to, _): return [from, to]
        case .xMarker(let at, _): return [at]
        case .yReference: return []
        }
    }

    package var yValues: [Double] {
        if case .yReference(let at, _) = self { return [at] }
        return []
    }
}
