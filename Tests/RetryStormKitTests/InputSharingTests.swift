import Foundation
import Testing
import RetryStormKit

/// The CSV reader splits lines and cells as `String` would.
struct InputSharingTests {
    /// A directory holding `scenario.yaml` (`yaml`) and `files`.
    static func directory(_ yaml: String, files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("retrystorm-sharing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try yaml.write(to: dir.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    enum Curve: Equatable {
        case points([LoadProfile.Point])
        /// The error's description, without the directory.
        case error(String)

        static func of(_ pairs: [(Int64, Double)]) -> Curve {
            .points(pairs.map { LoadProfile.Point(time: $0.0 * 1_000_000_000, multiplier: $0.1) })
        }
    }

    /// What loading a scenario whose `load.csv` holds `bytes` gives.
    static func curve(_ bytes: [UInt8]) throws -> Curve {
        let dir = try Self.directory("horizon: 60s\nclients: {count: 100, rate: 1/s}\nload.csv: traffic.csv\n", files: [:])
        try Data(bytes).write(to: dir.appendingPathComponent("traffic.csv"))
        do {
            return .points(try ScenarioLoader.load(path: dir.appendingPathComponent("scenario.yaml").path).base.load.points)
        } catch {
            return .error(error.description.replacingOccurrences(of: dir.path + "/", with: ""))
        }
    }

    static func curve(_ text: String) throws -> Curve { try curve(Array(text.utf8)) }

    @Test("CSV lines and cells split as String splits them: CRLF, blank and white-space lines, Unicode spaces, a comma joined to a combining mark")
    func curveSplitting() throws {
        #expect(try Self.curve("t_s,multiplier\r\n0,1\r\n\r\n 10 ,\t2\r\n") == .of([(0, 1), (10, 2)]))
        #expect(try Self.curve(" t_s,multiplier \n0,1\n\u{00A0}5\u{2003},\u{00A0}3\n  \n") == .of([(0, 1), (5, 3)]))
        #expect(try Self.curve("t_s,multiplier\n0,1") == .of([(0, 1)]))
        // A lone \r is no line break, but white space around a cell.
        #expect(try Self.curve("t_s,multiplier\n0,1\r") == .of([(0, 1)]))
        // "," followed by U+0301 is one character, not a separator: one cell.
        #expect(try Self.curve("t_s,multiplier\n0,\u{301}1\n") == .error("traffic.csv:2: field 'load.csv': expected 2 columns, t_s and multiplier (got 1)"))
        #expect(try Self.curve("t_s , multiplier\n0,1\n") == .error("traffic.csv:1: field 'load.csv': expected the header `t_s,multiplier` (got `t_s , multiplier`)"))
        #expect(try Self.curve("") == .error("traffic.csv:1: field 'load.csv': expected the header `t_s,multiplier` (got ``)"))
        // Blank lines move the line a later problem is reported on.
        #expect(try Self.curve("t_s,multiplier\n0,1\n\n\n5,2\n3,1\n")
                == .error("traffic.csv:6: field 'load.csv': column t_s: time 3s comes before the previous point's 5s: times must increase"))
        #expect(try Self.curve("t_s,multiplier\n\n0,1\n1,\u{00E9}\n") == .error("traffic.csv:4: field 'load.csv': column multiplier: expected a number (got 'é')"))
        #expect(try Self.curve(Array("t_s,multiplier\n0,1\n".utf8) + [0xFF]) == .error("traffic.csv: field 'load.csv': is not UTF-8 text"))
    }
}
