import RetryStormVocabulary
/// A CSV file as RetryStorm writes it, read back: a header row, then rows of fields, comma
/// separated, `\n` (or `\r\n`) line ends. Fields may be double-quoted (`""` inside quotes is one
/// quote), so files edited in a spreadsheet still read; RetryStorm itself never quotes.
///
/// Errors name the file and the 1-based line: `summary.csv:4: expected 32 fields (got 3)`.
public struct CSVReader: Sendable {
    /// The file name used in messages (as given, e.g. `results/q/summary.csv`).
    public let file: String
    public let columns: [String]
    private let text: String
    /// Where the line after the header starts, and its 1-based number.
    private let bodyStart: String.UTF8View.Index
    private let bodyLine: Int

    /// One data row, met during ``CSVReader/forEachRow(_:)``; it has exactly one field per column.
    public struct Row {
        /// The 1-based line number, for messages.
        public let line: Int
        public let fields: [Substring]
        let file: String
        package let columns: [String]

        /// The field in `column` as a number; `nan`, `inf` and `-inf` are numbers.
        /// - Throws: ``ResultsError`` naming file, line and column when it is not a number.
        public func number(_ column: Int) throws(ResultsError) -> Double {
            if let value = Double(fields[column]) { return value }
            throw problem(column, "expected a number (got '\(fields[column])')")
        }

        /// The field in `column`, which must not be empty.
        public func text(_ column: Int) throws(ResultsError) -> String {
            guard !fields[column].isEmpty else { throw problem(column, "is empty") }
            return String(fields[column])
        }

        /// "file:line: column 'name': message".
        public func problem(_ column: Int, _ message: String) -> ResultsError {
            ResultsError("\(file):\(line): column '\(columns[column])': \(message)")
        }
    }

    /// Reads the header of `text`; the rows are read by ``forEachRow(_:)``, one at a time, so a
    /// file of millions of rows never holds them all as fields.
    /// - Throws: ``ResultsError`` for an empty file or an empty or repeated column name.
    public init(text: String, file: String) throws(ResultsError) {
        self.file = file
        self.text = text
        var header: [String]?
        var next = text.utf8.startIndex
        var lineNumber = 0
        try Self.lines(text, from: next, firstLine: 1) { (line, number, end) throws(ResultsError) in
            let fields = try Self.fields(of: line, file: file, line: number)
            try Self.checkHeader(fields, file: file, line: number)
            header = fields.map(String.init)
            next = end
            lineNumber = number
            return false
        }
        guard let header else { throw ResultsError("\(file): is empty (expected a header row)") }
        columns = header
        bodyStart = next
        bodyLine = lineNumber + 1
    }

    /// Calls `body` with every data row in file order; blank lines are skipped.
    /// - Throws: ``ResultsError`` for a row with the wrong number of fields or an
    ///   unterminated quote, or what `body` throws.
    public func forEachRow(_ body: (Row) throws(ResultsError) -> Void) throws(ResultsError) {
        try Self.lines(text, from: bodyStart, firstLine: bodyLine) { (line, number, _) throws(ResultsError) in
            let fields = try Self.fields(of: line, file: file, line: number)
            guard fields.count == columns.count else {
                throw ResultsError("\(file):\(number): expected \(columns.count) fields (got \(fields.count))")
            }
            try body(Row(line: number, fields: fields, file: file, columns: columns))
            return true
        }
    }

    /// The index of `name`, which must be a column.
    /// - Throws: ``ResultsError`` naming the missing column.
    public func column(_ name: String) throws(ResultsError) -> Int {
        guard let i = columns.firstIndex(of: name) else {
            throw ResultsError("\(file):1: missing column '\(name)'")
        }
        return i
    }

    /// Calls `body` with each non-blank line from `start` (without its `\n` or `\r\n`), its
    /// 1-based number and where the next line starts, until `body` returns false. Bytes, not
    /// Characters: "\r\n" is one Character, and scanning bytes is much faster.
    private static func lines(
        _ text: String, from start: String.UTF8View.Index, firstLine: Int,
        _ body: (Substring, Int, String.UTF8View.Index) throws(ResultsError) -> Bool
    ) throws(ResultsError) {
        let bytes = text.utf8
        var index = start
        var number = firstLine
        while index < bytes.endIndex {
            let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var raw = bytes[index..<end]
            if raw.last == UInt8(ascii: "\r") { raw = raw.dropLast() }
            let next = end < bytes.endIndex ? bytes.index(after: end) : end
            if !raw.allSatisfy({ $0 == UInt8(ascii: " ") }) {
                guard try body(Substring(raw), number, next) else { return }
            }
            index = next
            number += 1
        }
    }

    private static func checkHeader(_ fields: [Substring], file: String, line: Int) throws(ResultsError) {
        for (i, name) in fields.enumerated() {
            guard !name.isEmpty else { throw ResultsError("\(file):\(line): column \(i + 1) has no name") }
            if fields[..<i].contains(name) {
                throw ResultsError("\(file):\(line): column '\(name)' appears twice")
            }
        }
    }

    /// Splits one line into fields, unquoting quoted ones.
    private static func fields(of line: Substring, file: String, line number: Int) throws(ResultsError) -> [Substring] {
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
        guard !quoted else { throw ResultsError("\(file):\(number): a quoted field is not closed") }
        fields.append(Substring(current))
        return fields
    }
}
