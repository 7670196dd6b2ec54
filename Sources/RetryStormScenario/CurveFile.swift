import Foundation
import RetryPolicy
import RetryStormEngine

/// A curve over time read from a CSV file (`load.csv`, `server.capacity_csv`): a header
/// `t_s,<value>`, then one row per point, seconds and a value, linear in between. Checked row by
/// row: a problem names the file, the line and the column.
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

    /// Reads the curve of `field` (set to `path` at `location`) with the columns `t_s` and `column`.
    static func read(_ path: String, setAt location: SourceLocation, field: String, column: String) throws(ScenarioError) -> [LoadProfile.Point] {
        let file = resolve(path, setAt: location)
        let decoded: String?
        do {
            decoded = try InputFile.text(file, cap: maxBytes)
        } catch {
            switch error {
            case .notRegular: throw ScenarioError(location, field: field, "\(file) \(error.message): give the path of a CSV file")
            case .cannotOpen(let reason), .cannotRead(let reason): throw ScenarioError(location, field: field, "cannot read \(file): \(reason)")
            case .tooLarge: throw ScenarioError(location, field: field, "\(file) \(error.message)")
            }
        }
        guard let text = decoded else {
            throw ScenarioError(SourceLocation(origin: .file(file)), field: field, "is not UTF-8 text")
        }
        return try parse(text, file: file, field: field, column: column)
    }

    /// Parses the text of a curve file (`file` names it in messages).
    static func parse(_ text: String, file: String, field: String, column: String) throws(ScenarioError) -> [LoadProfile.Point] {
        func fail(_ line: Int, _ message: String) -> ScenarioError {
            ScenarioError(SourceLocation(origin: .file(file), line: line), field: field, message)
        }
        let header = "t_s,\(column)"
        // "\r\n" is one Character in Swift: both line ends are separators.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first, String(first).trimmingWhitespace() == header else {
            throw fail(1, "expected the header `\(header)` (got `\(MessageText.escaped(String(lines.first ?? "")))`)")
        }
        var points: [LoadProfile.Point] = []
        var lineOf: [Int] = []
        points.reserveCapacity(lines.count - 1)
        for (index, raw) in lines.enumerated().dropFirst() {
            let line = index + 1
            if String(raw).trimmingWhitespace().isEmpty { continue }
            let cells = raw.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
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
            lineOf.append(line)
            guard points.count <= Field.maxPoints else { throw fail(line, "more than \(Field.maxPoints) rows") }
        }
        guard !points.isEmpty else { throw fail(1, "has no rows after the header") }
        try Field.checkPoints(points, value: column) { (n: Int, message: String) throws(ScenarioError) in
            throw fail(lineOf[n - 1], message.hasPrefix("time") ? "column t_s: \(message)" : "column \(message)")
        }
        return points
    }
}
