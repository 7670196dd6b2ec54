/// A series with its resolved colour, dash pattern and marker shape.
package struct StyledSeries {
    package var series: Series
    package var color: Color
    package var dash: String
    package var marker: MarkerShape

    /// Assigns palette colours by position and, beyond four series, dash
    /// patterns too; explicit colours and the `.dashed` style are kept.
    package static func assign(_ series: [Series]) -> [StyledSeries] {
        series.enumerated().map { index, s in
            style(s, index: index, count: series.count)
        }
    }

    package static func style(_ s: Series, index: Int, count: Int) -> StyledSeries {
        let dash = s.style == .dashed ? Palette.userDash : Palette.dash(at: index, of: count)
        return StyledSeries(
            series: s, color: s.color ?? Palette.color(at: index), dash: dash,
            marker: MarkerShape.at(index))
    }

    package var legendItem: LegendItem {
        let swatch: Swatch
        if series.marksPoints {
            swatch = .point(color: color, shape: marker, dash: dash)
        } else {
            swatch = series.style == .area ? .area(color: color, dash: dash) : .line(color: color, dash: dash)
        }
        return LegendItem(label: series.name, swatch: swatch)
    }
}
