/// The one tokenizer of CSV text: lines and comma-separated fields of UTF-8 bytes, found in place,
/// without a `String` per line. Both dialects RetryStorm reads stand on it: ``CSVReader`` (result
/// tables: a header naming the columns, double-quoted fields, blank lines skipped) and the
/// scenario's curve files (`load.csv`, `server.capacity_csv`: a fixed header, cells trimmed of
/// white space, no quoting).
///
/// A line ends at `\n`; a `\r` just before it, or at the end of the text, belongs to the line
/// break, so `\r\n` files read as `\n` ones. Lines are numbered from 1, blank ones included, as
/// an editor numbers them, so that a message names the line a person finds.
///
/// Straight from the bytes, because these files are large: `retrystorm validate` of a scenario
/// with a 10,000,000-row, 129 MB load.csv took 12.9 s and 759 MB resident when the text was split
/// into `Substring`s, 4.9 s and 308 MB from the bytes. This tokenizer replaced the curve file's
/// own scanner at the same cost: 4.8 s of CPU and 386 MB resident for a 10,000,000-row, 127 MB
/// load.csv, against 4.9 s and 386 MB (GNU time, `validate`, the file made with awk).
package enum CSVTokenizer {
    package static let comma = UInt8(ascii: ",")
    package static let quote = UInt8(ascii: "\"")
    package static let newline = UInt8(ascii: "\n")
    package static let carriageReturn = UInt8(ascii: "\r")

    /// Calls `body` with every line of `bytes` from offset `start` on — the line without its break
    /// (offsets into `bytes`), its 1-based number (`firstLine` for the first) and the offset of the
    /// next line — until `body` returns false. Empty text has no lines, and text that ends with a
    /// line break has no empty line after it.
    @inlinable
    package static func forEachLine<E: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, firstLine: Int = 1,
        _ body: (_ line: Range<Int>, _ number: Int, _ next: Int) throws(E) -> Bool
    ) throws(E) {
        var index = start
        var number = firstLine
        while index < bytes.count {
            var end = index
            while end < bytes.count && bytes[end] != newline { end += 1 }
            let next = end < bytes.count ? end + 1 : end
            let content = end > index && bytes[end - 1] == carriageReturn ? end - 1 : end
            guard try body(index..<content, number, next) else { return }
            index = next
            number += 1
        }
    }

    /// The fields of the line `bytes[line]`, split at every comma, as offsets into `bytes`, in
    /// `fields` (emptied first, so that one array serves every line). Quotes are not special here:
    /// a line with one (``containsQuote(_:_:)``) is split by ``quotedFields(_:)``.
    package static func split(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, into fields: inout [Range<Int>]) {
        fields.removeAll(keepingCapacity: true)
        var from = line.lowerBound
        for i in line where bytes[i] == comma {
            fields.append(from..<i)
            from = i + 1
        }
        fields.append(from..<line.upperBound)
    }

    /// The cells of the line `bytes[line]` as a hand-written file has them: split at commas and
    /// trimmed of white space, in `cells` (emptied first); a blank line is one empty cell. An ASCII
    /// line is cut in place; the rare other line is cut as `String` cuts it (Unicode white space,
    /// and a comma that a combining mark joins is no separator), so both give the same cells.
    package static func trimmedCells(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, into cells: inout [String]) {
        cells.removeAll(keepingCapacity: true)
        guard isASCII(bytes, line) else {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self)
            for cell in text.split(separator: ",", omittingEmptySubsequences: false) { cells.append(String(cell).trimmingWhitespace()) }
            return
        }
        var from = line.lowerBound
        while true {
            var to = from
            while to < line.upperBound && bytes[to] != comma { to += 1 }
            var lo = from
            var hi = to
            while lo < hi && isSpace(bytes[lo]) { lo += 1 }
            while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
            cells.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self))
            guard to < line.upperBound else { return }
            from = to + 1
        }
    }

    /// Whether the line `bytes[line]` holds a double quote.
    package static func containsQuote(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
        line.contains { bytes[$0] == quote }
    }

    /// The fields of a line with double-quoted fields, as a spreadsheet writes them: a quoted field
    /// may hold commas, and `""` inside quotes is one quote. Read by `Character`, so a quote or a
    /// comma that a combining mark joins is text.
    /// - Returns: nil when a quoted field is not closed.
    package static func quotedFields(_ line: Substring) -> [Substring]? {
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
        guard !quoted else { return nil }
        fields.append(Substring(current))
        return fields
    }

    /// Whether every byte of `bytes[range]` is ASCII.
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.allSatisfy { bytes[$0] < 0x80 }
    }

    /// Whether `bytes` are UTF-8, checked in place (`String(validating:)` would copy them).
    package static func isUTF8(_ bytes: [UInt8]) -> Bool {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return true }
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// ASCII white space as `Character.isWhitespace` has it: tab, line feed, vertical tab, form
    /// feed, carriage return and space.
    @inline(__always) package static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
}
