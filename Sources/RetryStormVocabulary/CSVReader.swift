/// A CSV file as RetryStorm writes it, read back: a header row, then rows of fields, comma
/// separated, `\n` (or `\r\n`) line ends. Fields may be double-quoted (`""` inside quotes is one
/// quote), so files edited in a spreadsheet still read; RetryStorm itself never quotes. Lines of
/// spaces alone are skipped, before the header too. Tokenized by ``CSVTokenizer``, in place.
///
/// Errors name the file and the 1-based line: `summary.csv:4: expected 32 fields (got 3)`.
package struct CSVReader: Sendable {
    /// The file name used in messages (as given, e.g. `results/q/summary.csv`).
    package let file: String
    package let columns: [String]
    /// The text, its UTF-8 contiguous (``CSVTokenizer`` reads its bytes in place).
    private let text: String
    /// Where the line after the header starts (a UTF-8 offset), and its 1-based number.
    private let bodyStart: Int
    private let bodyLine: Int

    /// One data row, met during ``CSVReader/forEachRow(_:)``; it has exactly one field per column.
    package struct Row {
        /// The 1-based line number, for messages.
        package let line: Int
        package let fields: [Substring]
        let file: String
        package let columns: [String]

        /// The field in `column` as a number; `nan`, `inf` and `-inf` are numbers.
        /// - Throws: ``ResultsError`` naming file, line and column when it is not a number.
        package func number(_ column: Int) throws(ResultsError) -> Double {
            if let value = Double(fields[column]) { return value }
            throw problem(column, "expected a number (got '\(fields[column])')")
        }

        /// The field in `column`, which must not be empty.
        package func text(_ column: Int) throws(ResultsError) -> String {
            guard !fields[column].isEmpty else { throw problem(column, "is empty") }
            return String(fields[column])
        }

        /// "file:line: column 'name': message".
        package func problem(_ column: Int, _ message: String) -> ResultsError {
            ResultsError("\(file):\(line): column '\(columns[column])': \(message)")
        }
    }

    /// Reads the header of `text`; the rows are read by ``forEachRow(_:)``, one at a time, so a
    /// file of millions of rows never holds them all as fields.
    /// - Throws: ``ResultsError`` for an empty file or an empty or repeated column name.
    package init(text: String, file: String) throws(ResultsError) {
        var text = text
        text.makeContiguousUTF8()
        self.file = file
        self.text = text
        var header: [String]?
        var next = 0
        var lineNumber = 0
        try Self.lines(text, file: file, from: 0, firstLine: 1) { (fields, number, end) throws(ResultsError) in
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
    package func forEachRow(_ body: (Row) throws(ResultsError) -> Void) throws(ResultsError) {
        try Self.lines(text, file: file, from: bodyStart, firstLine: bodyLine) { (fields, number, _) throws(ResultsError) in
            guard fields.count == columns.count else {
                throw ResultsError("\(file):\(number): expected \(columns.count) fields (got \(fields.count))")
            }
            try body(Row(line: number, fields: fields, file: file, columns: columns))
            return true
        }
    }

    /// The index of `name`, which must be a column.
    /// - Throws: ``ResultsError`` naming the missing column.
    package func column(_ name: String) throws(ResultsError) -> Int {
        guard let i = columns.firstIndex(of: name) else {
            throw ResultsError("\(file):1: missing column '\(name)'")
        }
        return i
    }

    /// Calls `body` with the fields of each line of `text` (the file `file`, for messages) from
    /// UTF-8 offset `start` that is not blank (spaces alone), its 1-based number and where the
    /// next line starts, until `body` returns false.
    /// - Throws: ``ResultsError`` for a quoted field that is not closed, or what `body` throws.
    private static func lines(
        _ text: String, file: String, from start: Int, firstLine: Int,
        _ body: ([Substring], Int, Int) throws(ResultsError) -> Bool
    ) throws(ResultsError) {
        let utf8 = text.utf8
        func substring(_ range: Range<Int>) -> Substring {
            Substring(utf8[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)])
        }
        try withBytes(text) { (bytes) throws(ResultsError) in
            var ranges: [Range<Int>] = []
            try CSVTokenizer.forEachLine(bytes, from: start, firstLine: firstLine) { (line, number, next) throws(ResultsError) in
                if line.allSatisfy({ bytes[$0] == UInt8(ascii: " ") }) { return true }
                let fields: [Substring]
                if CSVTokenizer.containsQuote(bytes, line) {
                    guard let quoted = CSVTokenizer.quotedFields(substring(line)) else {
                        throw ResultsError("\(file):\(number): a quoted field is not closed")
                    }
                    fields = quoted
                } else {
                    CSVTokenizer.split(bytes, line, into: &ranges)
                    fields = ranges.map(substring)
                }
                return try body(fields, number, next)
            }
        }
    }

    /// Calls `body` with the UTF-8 bytes of `text`, in place when they are contiguous (as
    /// ``init(text:file:)`` made them).
    private static func withBytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(ResultsError) -> Void) throws(ResultsError) {
        var outcome: Result<Void, ResultsError>?
        text.utf8.withContiguousStorageIfAvailable { bytes in outcome = Result { () throws(ResultsError) in try body(bytes) } }
        if let outcome { return try outcome.get() }
        try Array(text.utf8).withUnsafeBufferPointer { (bytes) throws(ResultsError) in try body(bytes) }
    }

    private static func checkHeader(_ fields: [Substring], file: String, line: Int) throws(ResultsError) {
        for (i, name) in fields.enumerated() {
            guard !name.isEmpty else { throw ResultsError("\(file):\(line): column \(i + 1) has no name") }
            if fields[..<i].contains(name) {
                throw ResultsError("\(file):\(line): column '\(name)' appears twice")
            }
        }
    }
}
