/// A CSV file as RetryStorm writes it, read back: a header row, then rows of fields, comma
/// separated, `\n` (or `\r\n`) line ends. Fields may be double-quoted (`""` inside quotes is one
/// quote), so files edited in a spreadsheet still read; RetryStorm itself never quotes.
///
/// Errors name the file and the 1-based line: `summary.csv:4: expected 32 fields (got 3)`.
public struct CSVDocument: Sendable {
    /// The file name used in messages (as given, e.g. `results/q/summary.csv`).
    public let file: String
    public let columns: [String]
    /// Data rows; each has exactly `columns.count` fields.
    public let rows: [[Substring]]
    /// `lines[i]`: the 1-based line number of `rows[i]`, for messages.
    public let lines: [Int]

    /// Parses `text`. Blank lines are skipped; every other line must have one field per column.
    /// - Throws: ``RunDirectoryError`` for an empty file, an empty or repeated column name, a row
    ///   with the wrong number of fields, or an unterminated quote.
    public init(text: String, file: String) throws(RunDirectoryError) {
        self.file = file
        var header: [String]?
        var rows: [[Substring]] = []
        var lines: [Int] = []
        var lineNumber = 0
        // Bytes, not Characters: "\r\n" is one Character, and byte splitting is much faster.
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = Substring(rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine)
            if line.allSatisfy({ $0 == " " }) { continue }
            let fields = try Self.fields(of: line, file: file, line: lineNumber)
            guard let columns = header else {
                try Self.checkHeader(fields, file: file, line: lineNumber)
                header = fields.map(String.init)
                continue
            }
            guard fields.count == columns.count else {
                throw RunDirectoryError("\(file):\(lineNumber): expected \(columns.count) fields (got \(fields.count))")
            }
            rows.append(fields)
            lines.append(lineNumber)
        }
        guard let header else { throw RunDirectoryError("\(file): is empty (expected a header row)") }
        columns = header
        self.rows = rows
        self.lines = lines
    }

    /// The index of `name`, which must be a column.
    /// - Throws: ``RunDirectoryError`` naming the missing column.
    public func column(_ name: String) throws(RunDirectoryError) -> Int {
        guard let i = columns.firstIndex(of: name) else {
            throw RunDirectoryError("\(file):1: missing column '\(name)'")
        }
        return i
    }

    /// Row `row`'s field in column `column` as a number; `nan`, `inf` and `-inf` are numbers.
    /// - Throws: ``RunDirectoryError`` naming line and column when the field is not a number.
    public func number(row: Int, column: Int) throws(RunDirectoryError) -> Double {
        let text = rows[row][column]
        if let value = Double(text) { return value }
        throw RunDirectoryError("\(file):\(lines[row]): column '\(columns[column])': expected a number (got '\(text)')")
    }

    /// Row `row`'s field in column `column`, which must not be empty.
    public func text(row: Int, column: Int) throws(RunDirectoryError) -> String {
        let text = rows[row][column]
        guard !text.isEmpty else {
            throw RunDirectoryError("\(file):\(lines[row]): column '\(columns[column])': is empty")
        }
        return String(text)
    }

    private static func checkHeader(_ fields: [Substring], file: String, line: Int) throws(RunDirectoryError) {
        for (i, name) in fields.enumerated() {
            guard !name.isEmpty else { throw RunDirectoryError("\(file):\(line): column \(i + 1) has no name") }
            if fields[..<i].contains(name) {
                throw RunDirectoryError("\(file):\(line): column '\(name)' appears twice")
            }
        }
    }

    /// Splits one line into fields, unquoting quoted ones.
    private static func fields(of line: Substring, file: String, line number: Int) throws(RunDirectoryError) -> [Substring] {
        guard line.utf8.contains(UInt8(ascii: "\"")) else {
            return line.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { Substring($0) }
        }
        var fields: [Substring] = []
        var current = ""
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let c = line[index]
            index = line.index(after: index)
            if quoted {
                if c != "\"" {
                    current.append(c)
                } else if index < line.endIndex, line[index] == "\"" {
                    current.append("\"")
                    index = line.index(after: index)
                } else {
                    quoted = false
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                fields.append(Substring(current))
                current = ""
            } else {
                current.append(c)
            }
        }
        guard !quoted else { throw RunDirectoryError("\(file):\(number): a quoted field is not closed") }
        fields.append(Substring(current))
        return fields
    }
}
