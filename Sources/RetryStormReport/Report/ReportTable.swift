import GSLSupport
import RetryStormResults

/// One table of the report: a header row (each column's label and, on a line below, its unit) and
/// rows of cells — a mean with its interval on a second line, or text — with the best values
/// starred. Tables grow downward (points are rows), so they fit the page however many points
/// there are; long labels wrap.
struct ReportTable {
    struct Header {
        var label: String
        /// Shown on its own line under the label, in brackets ("s", "%", "×"); empty for none.
        var unit: String

        init(_ label: String, unit: String = "") {
            self.label = label
            self.unit = unit
        }
    }

    struct Cell {
        /// Escaped HTML content.
        var html: String
        var isBest = false

        static func text(_ text: String) -> Cell { Cell(html: HTML.escape(text)) }

        /// "98.4" and, on a second line, "±1.8" or "[0, 11]" (nothing with one replication).
        static func value(_ ci: ConfidenceInterval?, _ format: ColumnFormat) -> Cell {
            guard let ci else { return Cell(html: "–") }
            var html = HTML.escape(format.number(ci.mean))
            if let spread = format.spread(ci) { html += "<span class=\"ci\">\(HTML.escape(spread))</span>" }
            return Cell(html: html)
        }
    }

    var header: [Header]
    var rows: [[Cell]] = []
    /// Cells that are row headers: the first `labelColumns` of every row.
    var labelColumns = 1
    /// A class for the table element (nil: none).
    var className: String?

    var html: String {
        var out = "<div class=\"table\"><table\(className.map { " class=\"\($0)\"" } ?? "")>\n<thead><tr>"
        for (i, h) in header.enumerated() {
            let unit = h.unit.isEmpty ? "" : "<span class=\"unit\">(\(HTML.escape(h.unit)))</span>"
            out += "<th scope=\"col\"\(i < labelColumns ? " class=\"label\"" : "")>\(HTML.escape(h.label))\(unit)</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows {
            out += "<tr>"
            for (i, cell) in row.enumerated() {
                if i < labelColumns {
                    // A swept point's name ("base=400ms+max_attempts=1") may break after each
                    // "+": unbroken, the widest name widens every column of an 800 px page.
                    out += "<th scope=\"row\">\(cell.html.replacing("+", with: "+<wbr>"))</th>"
                } else if cell.isBest {
                    out += "<td class=\"best\"><span class=\"star\" title=\"best\">★</span>\(cell.html)</td>"
                } else {
                    out += "<td>\(cell.html)</td>"
                }
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table></div>\n"
    }
}
