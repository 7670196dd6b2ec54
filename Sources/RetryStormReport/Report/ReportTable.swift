import RetryStormResults
import RetryStormScenario
import GSLSupport

/// One table of the report: a header row and rows of cells, each a mean with its 95% confidence
/// interval (or plain text), the best value in a row or column marked with a star.
struct ReportTable {
    struct Cell {
        /// Escaped HTML content.
        var html: String
        var isBest = false

        package static func text(_ text: String) -> Cell { Cell(html: HTML.escape(text)) }

        /// "0.807" and, below it when there is a spread, "[0.512, 1.102]".
        static func interval(_ ci: ConfidenceInterval, _ info: MetricInfo) -> Cell {
            var html = HTML.escape(info.format(ci.mean))
            if ci.count > 1, ci.low.isFinite, ci.high.isFinite, ci.low != ci.high {
                html += "<span class=\"ci\">[\(HTML.escape(info.format(ci.low))), \(HTML.escape(info.format(ci.high)))]</span>"
            }
            return Cell(html: html)
        }
    }

    var header: [String]
    var rows: [[Cell]]
    /// Cells that are row headers: the first `labelColumns` of every row.
    var labelColumns = 1

    /// Marks the best of `values` (one per cell in `cells`, same order) by `better`; ties share
    /// the star, non-finite values never win, and nothing is marked with fewer than two finite values.
    static func markBest(_ cells: inout [Cell], values: [Double], better: MetricInfo.Better) {
        let finite = values.filter(\.isFinite)
        guard finite.count > 1, better != .neither else { return }
        let best = better == .lower ? finite.min()! : finite.max()!
        guard finite.contains(where: { $0 != best }) else { return }
        for i in cells.indices where values[i] == best { cells[i].isBest = true }
    }

    var html: String {
        var out = "<div class=\"scroll\"><table>\n<thead><tr>"
        for (i, h) in header.enumerated() {
            out += i < labelColumns ? "<th class=\"label\">\(HTML.escape(h))</th>" : "<th>\(HTML.escape(h))</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows {
            out += "<tr>"
            for (i, cell) in row.enumerated() {
                if i < labelColumns {
                    out += "<th scope=\"row\">\(cell.html)</th>"
                } else if cell.isBest {
                    out += "<td class=\"best\"><span class=\"star\" title=\"best\">★</span> \(cell.html)</td>"
                } else {
                    out += "<td>\(cell.html)</td>"
                }
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table></div>\n"
    }
}
