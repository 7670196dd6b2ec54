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
    /// `cap` is the most bytes of the file's kind (a policy file's is smaller).
    static func read(
        _ file: String, setAt location: SourceLocation, field: String, held: Double = 0, cap: Int = maxBytes,
        limits: MachineLimits = .current
    ) throws(ScenarioError) -> [UInt8] {
        // The bytes first; their rows are counted and checked before they are parsed.
        let room = Int(max(0, min(Double(cap), limits.usable - processBytes - held)))
        do {
            return try InputFile.read(file, cap: room)
        } catch {
            switch error {
            case .notRegular:
                throw ScenarioError(location, field: field, "\(file) \(error.message): give the path of a \(cap == maxBytes ? "CSV" : "policy") file")
            case .cannotOpen(let reason), .cannotRead(let reason): throw ScenarioError(location, field: field, "cannot read \(file): \(reason)")
            case .tooLarge(let room) where room < cap:
                throw ScenarioError(
                    location, field: field,
                    "\(file) holds more than \(Format.grouped(Int64(room))) bytes, more than \(limits.description) leaves room to read and parse (\(Format.bytes(limits.usable)) usable, \(Format.bytes(held)) of input files held); give \(field) fewer rows, or run where more memory is free"
                )
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
    static func checkRoom(
        rows: Int, bytes: Int, held: Double, file: String, field: String, at location: SourceLocation,
        limits: MachineLimits = .current
    ) throws(ScenarioError) {
        let need = processBytes + held + Double(bytes) + Double(rows) * parsedBytesPerRow(field)
        guard need > limits.usable else { return }
        throw ScenarioError(
            location, field: field,
            "\(file) has \(Format.grouped(Int64(rows))) rows: reading and parsing them needs about \(Format.bytes(need)) but \(limits.description) allows \(Format.bytes(limits.usable)); give \(field) fewer rows, or run where more memory is free"
        )
    }

    /// Parses the bytes of a curve file (`file` names it in messages) with the columns `t_s`
    /// and `column`.
    ///
    /// Lines and cells come from ``CSVTokenizer`` (a line ends at `\n` or `\r\n`; cells are
    /// split at `,` and trimmed of white space, as `String` would split and trim them), straight
    /// from the bytes: a ten-million-row file holds only its bytes and the points while it is
    /// parsed, and one array of cells serves every line.
    static func parse(_ bytes: [UInt8], file: String, field: String, column: String) throws(ScenarioError) -> [LoadProfile.Point] {
        func fail(_ line: Int, _ message: String) -> ScenarioError {
            ScenarioError(SourceLocation(origin: .file(file), line: line), field: field, message)
        }
        if !CSVTokenizer.isUTF8(bytes) {
            throw ScenarioError(SourceLocation(origin: .file(file)), field: field, "is not UTF-8 text")
        }
        let header = "t_s,\(column)"
        func wrongHeader(_ raw: String) -> ScenarioError {
            fail(1, "expected the header `\(header)` (got `\(MessageText.escaped(raw))`)")
        }
        var rows = 0
        for b in bytes where b == CSVTokenizer.newline { rows += 1 }
        var points: [LoadProfile.Point] = []
        points.reserveCapacity(rows)
        // The lines of blank rows, to give a point's line in messages without a line per point.
        var blank: [Int] = []
        var cells: [String] = []
        var headerRead = false
        try bytes.withUnsafeBufferPointer { (bytes) throws(ScenarioError) in
            try CSVTokenizer.forEachLine(bytes) { (line, number, _) throws(ScenarioError) -> Bool in
                guard headerRead else {
                    let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self)
                    guard raw.trimmingWhitespace() == header else { throw wrongHeader(raw) }
                    headerRead = true
                    return true
                }
                CSVTokenizer.trimmedCells(bytes, line, into: &cells)
                if cells.count == 1 && cells[0].isEmpty {
                    blank.append(number)
                    return true
                }
                guard cells.count == 2 else {
                    throw fail(number, "expected 2 columns, t_s and \(column) (got \(cells.count))")
                }
                guard let t = Units.decimal(cells[0]) else {
                    throw fail(number, "column t_s: expected seconds (got '\(MessageText.escaped(cells[0]))')")
                }
                guard t >= 0, t * 1e9 <= Double(ScenarioSchema.maxHorizon) else {
                    throw fail(number, "column t_s: \(cells[0]) is outside 0…\(ScenarioSchema.maxHorizon / 1_000_000_000) seconds")
                }
                guard let v = Units.decimal(cells[1]) else {
                    throw fail(number, "column \(column): expected a number (got '\(MessageText.escaped(cells[1]))')")
                }
                guard v >= 0 else { throw fail(number, "column \(column): must not be negative (got \(cells[1]))") }
                points.append(LoadProfile.Point(time: Time.nanoseconds(seconds: t), multiplier: v))
                guard points.count <= Field.maxPoints else { throw fail(number, "more than \(Field.maxPoints) rows") }
                return true
            }
        }
        guard headerRead else { throw wrongHeader("") }
        guard !points.isEmpty else { throw fail(1, "has no rows after the header") }
        try Field.checkPoints(points, value: column) { (n: Int, message: String) throws(ScenarioError) in
            // Point n is row n after the header, moved down by the blank rows before it.
            var at = n + 1
            for b in blank where b <= at { at += 1 }
            throw fail(at, message.hasPrefix("time") ? "column t_s: \(message)" : "column \(message)")
        }
        return points
    }
}
