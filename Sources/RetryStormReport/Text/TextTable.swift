/// Columns of text aligned for a terminal: header lines (a label, then its unit), a rule of dashes
/// under them, then rows. Names sit left and a column of one metric's numbers right, so that its
/// digits line up however many there are.
struct TextTable {
    enum Alignment { case left, right }

    /// Header lines, each with one entry per column.
    var header: [[String]]
    var rows: [[String]] = []
    var alignments: [Alignment]

    /// Every line, each indented by `indent`, without trailing spaces.
    func lines(indent: String = "  ") -> [String] {
        let all = header + rows
        let widths = alignments.indices.map { c in all.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let padded = alignments.indices.map { c -> String in
                let cell = c < cells.count ? cells[c] : ""
                let fill = String(repeating: " ", count: widths[c] - cell.count)
                return alignments[c] == .left ? cell + fill : fill + cell
            }
            return String((indent + padded.joined(separator: "  ")).reversed().drop { $0 == " " }.reversed())
        }
        return header.map(line) + [indent + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")] + rows.map(line)
    }
}
