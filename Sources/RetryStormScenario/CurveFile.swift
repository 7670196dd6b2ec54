import Foundation
import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary

/// A curve over time read from a CSV file (`load.csv`, `server.capacity_csv`): a header
/// `t_s,<value>`, then one row per point, seconds and a value, linear in between. Checked row by
/// row: a problem names the file, the line and the column. Files are read through
/// ``InputFiles``, once per command.
enum CurveFile {
    /// The most bytes read from one curve file (``InputFile``): ten million rows (``Field/maxPoints``)
    /// of about 25 bytes each.
    static let maxBytes = 256 << 20

    /// The path a scenario key names: relative paths are taken from the scenario file's
    /// directory when the file set the key, from the working directory when an option did.
    static func resolve(_ path: String, setAt location: SourceLocation) -> String {
        guard !path.hasPrefix("/"), case .file(let scenario) = location.origin else { return path }
        let directory = (scenario as NSString).deletingLastPathComponent
        return directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path)
    }

    /// The bytes of `file`, which `field` (set at `location`) names, when `held` bytes of input
    /// data are in memory already: at most ``maxBytes``, and at most what the memory left allows
    /// (the rows they parse to are checked next, ``checkRoom(rows:bytes:held:file:field:at:limits:)``).
    static func read(_ file: String, setAt location: SourceLocation, field: String, held: Double = 0,
                     limits: MachineLimits = .current) throws(ScenarioError) -> [UInt8] {
        // The bytes first; their rows are counted and checked before they are parsed.
        let room = Int(max(0, min(Double(maxBytes), limits.usable - processBytes - held)))
        do {
            return try InputFile.read(file, cap: room)
        } catch {
            switch error {
            case .notRegular: throw ScenarioError(location, field: field, "\(file) \(error.message): give the path of a CSV file")
            case .cannotOpen(let reason), .cannotRead(let reason): throw ScenarioError(location, field: field, "cannot read \(file): \(reason)")
            case .tooLarge(let cap) where cap < maxBytes:
                throw ScenarioError(location, field: field,
                    "\(file) holds more than \(Format.grouped(Int64(cap))) bytes, more than \(limits.description) leaves room to read and parse (\(Format.bytes(limits.usable)) usable, \(Format.bytes(held)) of input files held); give \(field) fewer rows, or run where more memory is free")
            case .tooLarge: throw ScenarioError(location, field: field, "\(file) \(error.message)")
            }
        }
    }

    /// The process itself, before any input: as the resource guard counts it (48 MiB).
    static let processBytes = 48.0 * 1_048_576
    /// Memory per parsed row of `field`'s file, bytes: the point, then what the engine builds
    /// from it — a load profile's integral beside the shared point, or a capacity profile's
    /// segment (the guard counts the same, ``ResourceEstimate/bytes(of:)``).
    static func parsedBytesPerRow(_ field: String) -> Double {
        let point = MemoryLayout<LoadProfile.Point>.stride
        return Double(field == "load.csv" ? point + MemoryLayout<Double>.stride : point + MemoryLayout<CapacityProfile.Segment>.stride)
    }

    /// Refuses a file whose `rows` would not fit, parsed, in the memory left beside the `held`
    /// bytes of input data and the file's own `bytes`, before any is parsed.
    static func checkRoom(rows: Int, bytes: Int, held: Double, file: String, field: String, at location: SourceLocation,
                          limits: MachineLimits = .current) throws(ScenarioError) {
        let need = processBytes + held + Double(bytes) + Double(rows) * parsedBytesPerRow(field)
        guard need > limits.usable else { return }
        throw ScenarioError(location, field: field,
            "\(file) has \(Format.grouped(Int64(rows))) rows: reading and parsing them needs about \(Format.bytes(need)) but \(limits.description) allows \(Format.bytes(limits.usable)); give \(field) fewer rows, or run where more memory is free")
    }

    /// Parses the bytes of a curve file (`file` names it in messages) with the columns `t_s`
    /// and `column`.
    ///
    /// Straight from the bytes, as `String`'s lines and cells would split them (a line ends at
    /// `\n` or `\r\n`; cells are split at `,` and trimmed of white space): a line that is all
    /// ASCII is cut without building a string for it, the rare other line goes through
    /// `String`. So a ten-million-row file holds only its bytes and the points while it is
    /// parsed (`retrystorm validate` of a scenario with a 10,000,000-row, 129 MB load.csv: 12.9 s
    /// and 759 MB resident when the text was split into `Substring`s, 4.9 s and 308 MB from the
    /// bytes).
    static func parse(_ bytes: [UInt8], file: String, field: String, column: String) throws(ScenarioError) -> [LoadProfile.Point] {
        func fail(_ line: Int, _ message: String) -> ScenarioError {
            ScenarioError(SourceLocation(origin: .file(file), line: line), field: field, message)
        }
        if !isUTF8(bytes) {
            throw ScenarioError(SourceLocation(origin: .file(file)), field: field, "is not UTF-8 text")
        }
        let header = "t_s,\(column)"
        let newline = UInt8(ascii: "\n")
        var rows = 0
        for b in bytes where b == newline { rows += 1 }
        var points: [LoadProfile.Point] = []
        points.reserveCapacity(rows)
        // The lines of blank rows, to give a point's line in messages without a line per point.
        var blank: [Int] = []
        var start = 0
        var line = 0
        while start < bytes.count || line == 0 {
            var end = start
            while end < bytes.count && bytes[end] != newline { end += 1 }
            // `\r\n` is one line break.
            let content = end < bytes.count && end > start && bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
            line += 1
            if line == 1 {
                let raw = String(decoding: bytes[start..<content], as: UTF8.self)
                guard raw.trimmingWhitespace() == header else {
                    throw fail(1, "expected the header `\(header)` (got `\(MessageText.escaped(raw))`)")
                }
                start = end + 1
                continue
            }
            let cells = Self.cells(bytes, start..<content)
            if cells.count == 1 && cells[0].isEmpty {
                blank.append(line)
            } else {
                guard cells.count == 2 else {
                    throw fail(line, "expected 2 columns, t_s and \(column) (got \(cells.count))")
                }
                guard let t = Units.decimal(cells[0]) else {
                    throw fail(line, "column t_s: expected seconds (got '\(MessageText.escaped(cells[0]))')")
                }
                guard t >= 0, t * 1e9 <= Double(ScenarioSchema.maxHorizon) else {
                    throw fail(line, "column t_s: \(cells[0]) is outside 0…\(ScenarioSchema.maxHorizon / 1_000_000_000) seconds")
                }
                guard let v = Units.decimal(cells[1]) else {
                    throw fail(line, "column \(column): expected a number (got '\(MessageText.escaped(cells[1]))')")
                }
                guard v >= 0 else { throw fail(line, "column \(column): must not be negative (got \(cells[1]))") }
                points.append(LoadProfile.Point(time: Time.nanoseconds(seconds: t), multiplier: v))
                guard points.count <= Field.maxPoints else { throw fail(line, "more than \(Field.maxPoints) rows") }
            }
            start = end + 1
        }
        guard !points.isEmpty else { throw fail(1, "has no rows after the header") }
        try Field.checkPoints(points, value: column) { (n: Int, message: String) throws(ScenarioError) in
            // Point n is row n after the header, moved down by the blank rows before it.
            var at = n + 1
            for b in blank where b <= at { at += 1 }
            throw fail(at, message.hasPrefix("time") ? "column t_s: \(message)" : "column \(message)")
        }
        return points
    }

    /// The cells of the line `bytes[range]`, split at commas and trimmed of white space; one
    /// empty cell for a blank line.
    static func cells(_ bytes: [UInt8], _ range: Range<Int>) -> [String] {
        guard bytes[range].allSatisfy({ $0 < 0x80 }) else {
            // Unicode white space and a comma joined to a combining mark follow `String`'s rules.
            let text = String(decoding: bytes[range], as: UTF8.self)
            return text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        }
        var out: [String] = []
        var a = range.lowerBound
        while true {
            var b = a
            while b < range.upperBound && bytes[b] != UInt8(ascii: ",") { b += 1 }
            var lo = a, hi = b
            while lo < hi && isSpace(bytes[lo]) { lo += 1 }
            while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
            out.append(String(decoding: bytes[lo..<hi], as: UTF8.self))
            guard b < range.upperBound else { return out }
            a = b + 1
        }
    }

    /// Whether `bytes` are UTF-8, checked in place (`String(validating:)` would copy them).
    static func isUTF8(_ bytes: [UInt8]) -> Bool {
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
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
}
