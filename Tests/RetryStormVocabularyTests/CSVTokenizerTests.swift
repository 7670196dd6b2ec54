import RetryStormVocabulary
import Testing

/// The one tokenizer under both CSV dialects (result tables, curve files): where lines end, how
/// they are numbered, and that cells cut from bytes are the cells `String` would cut.
@Suite("CSV tokenizer")
struct CSVTokenizerTests {
    /// Every line of `text`: its content and number.
    static func lines(_ text: String) -> [(String, Int)] {
        let bytes = Array(text.utf8)
        var out: [(String, Int)] = []
        bytes.withUnsafeBufferPointer { b in
            CSVTokenizer.forEachLine(b) { (line: Range<Int>, number: Int, _: Int) -> Bool in
                out.append((String(decoding: bytes[line], as: UTF8.self), number))
                return true
            }
        }
        return out
    }

    @Test(
        "a line ends at \\n, \\r\\n or the end; blank lines are numbered; no empty line after the last break",
        arguments: [
            ("", []),
            ("\n", [("", 1)]),
            ("a,b", [("a,b", 1)]),
            ("a,b\n", [("a,b", 1)]),
            ("a\r\nb\r\n", [("a", 1), ("b", 2)]),
            ("a\n\n\r\nb", [("a", 1), ("", 2), ("", 3), ("b", 4)]),
            ("a\r", [("a", 1)]),
            ("a\rb\n", [("a\rb", 1)])
        ] as [(String, [(String, Int)])])
    func lines(text: String, expected: [(String, Int)]) {
        let found = Self.lines(text)
        #expect(found.map(\.0) == expected.map(\.0))
        #expect(found.map(\.1) == expected.map(\.1))
    }

    @Test("forEachLine stops when the body says so, and gives where the next line starts")
    func stops() {
        let bytes = Array("h1,h2\r\n1,2\n3,4\n".utf8)
        var seen: [(Range<Int>, Int, Int)] = []
        bytes.withUnsafeBufferPointer { b in
            CSVTokenizer.forEachLine(b) { (line: Range<Int>, number: Int, next: Int) -> Bool in
                seen.append((line, number, next))
                return false
            }
        }
        #expect(seen.count == 1)
        #expect(seen.first?.0 == 0..<5 && seen.first?.1 == 1 && seen.first?.2 == 7)
    }

    @Test("fields split at every comma, as byte ranges, quotes not special")
    func split() {
        let bytes = Array(",a,,\"b,c\"".utf8)
        var fields: [Range<Int>] = [0..<1]
        bytes.withUnsafeBufferPointer { CSVTokenizer.split($0, 0..<bytes.count, into: &fields) }
        #expect(fields.map { String(decoding: bytes[$0], as: UTF8.self) } == ["", "a", "", "\"b", "c\""])
    }

    /// Lines whose cells must come out as `String`'s split at "," and trim of white space would
    /// cut them: ASCII ones (cut from the bytes) and others (cut as `String`).
    static let cellLines = [
        "", "   ", "\t1.5 , 2\u{0B}", "0,1", " t_s ,multiplier", "1,,2,", "a b, c d ",
        "\u{00A0}1,2\u{00A0}", "1,\u{2003}", "é,ü", ",\u{0301}1", "\u{3000}"
    ]

    @Test("trimmed cells from the bytes are the cells String gives", arguments: cellLines)
    func trimmedCells(line: String) {
        let bytes = Array(line.utf8)
        var cells = ["left over"]
        bytes.withUnsafeBufferPointer { CSVTokenizer.trimmedCells($0, 0..<bytes.count, into: &cells) }
        let expected = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        #expect(cells == expected)
    }

    @Test("quoted fields: commas inside quotes, doubled quotes; an open quote is nil")
    func quoted() {
        #expect(CSVTokenizer.quotedFields("\"4,5\",\"say \"\"hi\"\"\",6") == ["4,5", "say \"hi\"", "6"])
        #expect(CSVTokenizer.quotedFields("\"\",x") == ["", "x"])
        #expect(CSVTokenizer.quotedFields("\"1,2") == nil)
    }

    @Test("the results reader keeps fields with characters of several bytes whole, quoted or not")
    func multibyteFields() throws {
        var rows: [[String]] = []
        let csv = try CSVReader(text: "größe,名前\r\nä,ö\n\"ü,ß\",€\n", file: "f.csv")
        try csv.forEachRow { rows.append($0.fields.map(String.init)) }
        #expect(csv.columns == ["größe", "名前"])
        #expect(rows == [["ä", "ö"], ["ü,ß", "€"]])
    }
}
