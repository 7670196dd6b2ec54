import RetryStormResults
import RetryStormVocabulary
import Testing

/// The one CSV reader of result files: what it accepts and the one message it gives for each fault.
@Suite("CSV reader")
struct ChartsCSVReaderTests {
    /// Every row of `text`, read to the end.
    static func rows(_ text: String, file: String = "f.csv") throws -> [CSVReader.Row] {
        var rows: [CSVReader.Row] = []
        try CSVReader(text: text, file: file).forEachRow { rows.append($0) }
        return rows
    }

    @Test("reads a header and rows; tolerates CRLF, blank lines and quoted fields")
    func reads() throws {
        let text = "a,b,c\r\n1,x,3\r\n\n\"4,5\",\"say \"\"hi\"\"\",6\n"
        let csv = try CSVReader(text: text, file: "f.csv")
        #expect(csv.columns == ["a", "b", "c"])
        let rows = try Self.rows(text)
        #expect(rows.map { $0.fields.map(String.init) } == [["1", "x", "3"], ["4,5", "say \"hi\"", "6"]])
        #expect(rows.map(\.line) == [2, 4])
        #expect(try csv.column("c") == 2)
        #expect(try rows[0].number(2) == 3)
        #expect(try rows[1].text(1) == "say \"hi\"")
    }

    @Test("nan and inf are numbers (an undefined metric, a recovery that never came)")
    func specialNumbers() throws {
        let row = try #require(try Self.rows("x,y\nnan,inf\n").first)
        #expect(try row.number(0).isNaN)
        #expect(try row.number(1) == .infinity)
    }

    static let faults: [(String, String, String)] = [
        ("", "f.csv: is empty (expected a header row)", "empty file"),
        ("\n\n", "f.csv: is empty (expected a header row)", "blank lines only"),
        ("a,b\n1,2\n3\n", "f.csv:3: expected 2 fields (got 1)", "short row"),
        ("a,b\n1,2,3\n", "f.csv:2: expected 2 fields (got 3)", "long row"),
        ("a,,b\n", "f.csv:1: column 2 has no name", "unnamed column"),
        ("a,b,a\n", "f.csv:1: column 'a' appears twice", "repeated column"),
        ("a,b\n\"1,2\n", "f.csv:2: a quoted field is not closed", "open quote")
    ]

    @Test("each malformed file gets one message naming file and line", arguments: faults.indices)
    func fault(index: Int) {
        let (text, message, what) = Self.faults[index]
        #expect(throws: ResultsError(message), "\(what)") { try Self.rows(text) }
    }

    @Test("a missing column and a non-number name the column (and the line)")
    func lookups() throws {
        let csv = try CSVReader(text: "a,b\n1,x\n,2\n", file: "d/f.csv")
        #expect(throws: ResultsError("d/f.csv:1: missing column 'c'")) { try csv.column("c") }
        let rows = try Self.rows("a,b\n1,x\n,2\n", file: "d/f.csv")
        #expect(throws: ResultsError("d/f.csv:2: column 'b': expected a number (got 'x')")) { try rows[0].number(1) }
        #expect(throws: ResultsError("d/f.csv:3: column 'a': is empty")) { try rows[1].text(0) }
    }
}
