/// The sample drawn before a legend label.
package enum Swatch: Equatable {
    case line(color: Color, dash: String)
    case area(color: Color, dash: String)
    case box(color: Color)
    /// Grey with diagonal hatching: "not evaluated" cells.
    case hatched
    /// White, crossed out: invalid combinations.
    case crossed
    /// A cell outline: "meets constraints".
    case outline
    /// A cell outlined black on white with a star: the chosen heatmap cell.
    case chosenCell
    /// A bar with an error whisker.
    case whisker
    /// A light grey box: a shaded (highlighted) category.
    case shade
    /// A point mark, on a short line unless `dash` is nil.
    case point(color: Color, shape: MarkerShape, dash: String?)
    /// A dashed ring (``FlagRing``): flagged points.
    case flagRing
    /// No sample: the "+N more" entry of a legend cut short.
    case none
}
