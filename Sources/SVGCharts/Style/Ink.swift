/// Neutral colours for chart furniture (not data).
enum Ink {
    static let title = "#1a1a1a"
    static let text = "#333333"
    static let muted = "#5c5c5c"
    static let grid = "#e6e6e6"
    static let minorGrid = "#f2f2f2"
    static let axis = "#8c8c8c"
    static let annotation = "#3d3d3d"
    static let band = "#8c8c8c"
    static let noData = "#eeeeee"
    /// Background of a highlighted category or cell region.
    static let shade = "#ededed"
    static let hatch = "#b3b3b3"
}
