struct LegendItem: Equatable {
    var label: String
    var swatch: Swatch
}
