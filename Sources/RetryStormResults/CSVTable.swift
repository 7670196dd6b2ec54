/// A CSV file assembled in memory: a header row, then rows, `\n` line ends, comma separators.
/// Fields are written as given: callers format numbers with ``Format`` and pass names that need
/// no quoting (variant names are restricted to letters, digits and `-_.+`).
package struct CSVTable: Sendable {
    package let columns: [String]
    private(set) var text: String

    package init(columns: [String]) {
        self.columns = columns
        text = columns.joined(separator: ",") + "\n"
    }

    /// Rows without the header line, to be appended to a full table with ``append(rowsOf:)``.
    package init(rowsOf columns: [String]) {
        self.columns = columns
        text = ""
    }

    /// Appends the rows of `rows`, a table made with ``init(rowsOf:)`` for the same columns.
    package mutating func append(rowsOf rows: CSVTable) {
        precondition(rows.columns == columns, "CSV rows for other columns")
        text += rows.text
    }

    /// Appends one row; it must have one field per column.
    package mutating func append(_ fields: [String]) {
        precondition(fields.count == columns.count, "CSV row has \(fields.count) fields for \(columns.count) columns")
        text += fields.joined(separator: ",")
        text += "\n"
    }

    package var contents: String { text }
}
