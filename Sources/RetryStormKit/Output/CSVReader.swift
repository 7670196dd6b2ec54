import Foundation

/// Reads the CSV files this program writes (header row, comma-separated, no quoting) back, for
/// merging shards and re-deriving statistics. Errors name the file and line.
public struct CSVFile: Sendable {
    public let path: String
    public let columns: [String]
    /// Data rows, each with one field per column.
    public let rows: [[String]]
    /// 1-based line numbers of the rows in the file.
    public let lines: [Int]

    public init(path: String) throws(OutputError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OutputError(message: "\(path): cannot read the file")
        }
        try self.init(text: String(decoding: data, as: UTF8.self), path: path)
    }

    public init(text: String, path: String) throws(OutputError) {
        self.path = path
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let header = lines.first, !header.isEmpty else { throw OutputError(message: "\(path): is empty (no header row)") }
        columns = header.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var rows: [[String]] = []
        var numbers: [Int] = []
        for (i, line) in lines.enumerated().dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == columns.count else {
                throw OutputError(message: "\(path):\(i + 1): has \(fields.count) fields, the header has \(columns.count)")
            }
            rows.append(fields)
            numbers.append(i + 1)
        }
        self.rows = rows
        self.lines = numbers
    }

    /// The index of `column`, or an error naming the file.
    public func column(_ name: String) throws(OutputError) -> Int {
        guard let i = columns.firstIndex(of: name) else { throw OutputError(message: "\(path): has no column '\(name)'") }
        return i
    }
}
