/// Neutral colours for chart furniture (not data).
package enum Ink {
    package static let title = "#1a1a1a"
    package static let text = "#333333"
    package static let muted = "#5c5c5c"
    package static let grid = "#e6e6e6"
    package static let minorGrid = "#f2f2f2"
    package static let axis = "#8c8c8c"
    package static let annotation = "#3d3d3d"
    /// ``annotation`` as a colour, for a legend's swatch.
    package static let annotationColor = Color(red: 0x3d, green: 0x3d, blue: 0x3d)
    package static let band = "#8c8c8c"
    package static let noData = "#eeeeee"
    /// Background of a highlighted category or cell region.
    package static let shade = "#ededed"
    package static let hatch = "#b3b3b3"
}
