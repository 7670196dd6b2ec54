import Foundation
import RetryStormKit
import Testing

/// An input file is read and parsed once per command and its arrays are shared by every point
/// that names it; the resource guard counts them once; the scenario text results keep names the
/// copies; the CSV reader splits lines and cells as `String` would.
struct InputSharingTests {
    /// A directory holding `scenario.yaml` (`yaml`) and `files`.
    static func directory(_ yaml: String, files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("retrystorm-sharing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try yaml.write(to: dir.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    static let yaml = """
        horizon: 60s
        clients: {count: 100, rate: 1/s, timeout: 2s}
        server: {capacity: 150/s, capacity_csv: capacity.csv}
        load.csv: traffic.csv

        """

    /// `rows` rows of multiplier 1 (a flat profile: the operations it gives, and so every other
    /// part of the estimate, do not depend on `rows`), spread over the horizon.
    static func traffic(rows: Int) -> String {
        "t_s,multiplier\n" + (0..<rows).map { "\(Double($0) * 60 / Double(rows)),1\n" }.joined()
    }

    static let capacity = "t_s,capacity_per_s\n0,150\n20,30\n30,30\n40,150\n"

    static func address<T>(_ array: [T]) -> UnsafeRawPointer? { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }

    static func vary(_ text: String) throws -> [GridSpec] { [try GridSpec.parse(text, at: SourceLocation(origin: .option("--vary \(text)")))] }

    @Test("five --vary points and the base hold one storage of the load profile and one of the capacity profile; another capacity replays its own")
    func pointsShareStorage() throws {
        let dir = try Self.directory(Self.yaml, files: ["traffic.csv": Self.traffic(rows: 1000), "capacity.csv": Self.capacity])
        let loaded = try ScenarioLoader.load(path: dir.appendingPathComponent("scenario.yaml").path)
        let study = try Studies.compare(loaded, vary: try Self.vary("policy.backoff.base=100ms,200ms,300ms,400ms,500ms"), replications: 1)
        #expect(study.points.count == 5)
        #expect(loaded.base.load.points.count == 1000)
        for p in study.points {
            #expect(Self.address(p.scenario.load.points) == Self.address(loaded.base.load.points), "\(p.name): load profile copied")
            #expect(
                Self.address(p.scenario.server.profile.segments) == Self.address(loaded.base.server.profile.segments),
                "\(p.name): capacity profile copied")
        }
        // Capacity is replayed as fractions of the nominal: another nominal, another profile; the load profile is still shared.
        let other = try Studies.compare(loaded, vary: try Self.vary("server.capacity=150/s,300/s"), replications: 1)
        #expect(Self.address(other.points[0].scenario.server.profile.segments) == Self.address(loaded.base.server.profile.segments))
        #expect(Self.address(other.points[1].scenario.server.profile.segments) != Self.address(loaded.base.server.profile.segments))
        // 150, 30, 30 and 150 per second of 300/s: 0 → 20 s from 0.5 to 0.1, 0.1 until 30 s, back to 0.5 by 40 s, then 0.5.
        #expect(other.points[1].scenario.server.profile.segments.map(\.from) == [0.5, 0.1, 0.1, 0.5])
        #expect(Self.address(other.points[1].scenario.load.points) == Self.address(loaded.base.load.points))
    }

    /// The budget of five `--vary` points of the scenario with a `rows`-row traffic file.
    static func budget(rows: Int, inputs: Bool) throws -> StudyBudget {
        let dir = try Self.directory(Self.yaml, files: ["traffic.csv": Self.traffic(rows: rows), "capacity.csv": Self.capacity])
        let loaded = try ScenarioLoader.load(path: dir.appendingPathComponent("scenario.yaml").path)
        let study = try Studies.compare(loaded, vary: try Self.vary("policy.backoff.base=100ms,200ms,300ms,400ms,500ms"), replications: 1)
        return inputs ? StudyBudget(study: study, jobs: 1, series: true, inputs: loaded.inputs) : StudyBudget(study: study, jobs: 1, series: true)
    }

    @Test(
        "the guard's estimate grows with the profile: by each row's point and integral (16 + 8 bytes) once, not once per point; with the inputs, by the file's bytes too"
    )
    func estimateGrowsOnce() throws {
        let small = try Self.budget(rows: 1_000, inputs: false)
        let large = try Self.budget(rows: 101_000, inputs: false)
        // LoadProfile.Point is an Int64 and a Double; Λ a Double per point.
        #expect(large.bytes - small.bytes == 100_000 * 24)
        let smallFile = Double(Self.traffic(rows: 1_000).utf8.count)
        let largeFile = Double(Self.traffic(rows: 101_000).utf8.count)
        let withSmall = try Self.budget(rows: 1_000, inputs: true)
        let withLarge = try Self.budget(rows: 101_000, inputs: true)
        #expect(withLarge.bytes - withSmall.bytes == 100_000 * 24 + largeFile - smallFile)
        // The traffic file's bytes, points and integrals; the capacity file's bytes, its 4 rows (16 bytes each) and the 3
        // segments replayed at 150/s (from 1 to 0.2, 0.2, back to 1; nominal after 40 s is no segment), 40 bytes each.
        #expect(MemoryLayout<LoadProfile.Point>.stride == 16 && MemoryLayout<CapacityProfile.Segment>.stride == 40)
        let capacityBytes = Double(Self.capacity.utf8.count) + 4 * 16 + 3 * 40
        #expect(withSmall.inputBytes == smallFile + 1_000 * 24 + capacityBytes)
    }

    @Test(
        "the scenario text results keep names the copies: plain, quoted, in flow mappings and variants, after anchors; comments and the rest untouched"
    )
    func resultsText() throws {
        let yaml = """
            horizon: 60s   # one minute
            clients: {count: 100, rate: 1/s}
            server:
              capacity: 150/s
              capacity_csv: 'capacity.csv'  # quoted
            load: {csv: "traffic.csv"}
            variants:
              - {name: a, load.csv: &t traffic.csv}
              - name: b
                load.csv: none

            """
        let dir = try Self.directory(yaml, files: ["traffic.csv": "t_s,multiplier\n0,1\n", "capacity.csv": Self.capacity])
        let loaded = try ScenarioLoader.load(path: dir.appendingPathComponent("scenario.yaml").path)
        // The first 16 hex digits of sha256sum of the two files.
        let traffic = "input-load-csv-b813d777c5d75b68.csv"
        let capacity = "input-server-capacity-csv-1263b0b9d3a3bba9.csv"
        #expect(
            loaded.resultsText == """
                horizon: 60s   # one minute
                clients: {count: 100, rate: 1/s}
                server:
                  capacity: 150/s
                  capacity_csv: \(capacity)  # quoted
                load: {csv: \(traffic)}
                variants:
                  - {name: a, load.csv: &t \(traffic)}
                  - name: b
                    load.csv: none

                """)
        #expect(loaded.inputs.records.map(\.file) == ["traffic.csv", "capacity.csv"])
        // Read where the copies are, the text names them as they are: it is kept as it is.
        for r in loaded.inputs.records {
            try FileManager.default.copyItem(at: dir.appendingPathComponent(r.file), to: dir.appendingPathComponent(r.copy))
        }
        let again = try ScenarioLoader.parse(text: loaded.resultsText, path: dir.appendingPathComponent("scenario.yaml").path)
        #expect(again.resultsText == loaded.resultsText)
    }

    @Test("a path written as a block scalar cannot name its copy: refused where it is written, saying how to write it")
    func blockScalarRefused() throws {
        let dir = try Self.directory(
            "horizon: 60s\nclients: {count: 100, rate: 1/s}\nload.csv: |\n  traffic.csv\n",
            files: ["traffic.csv": "t_s,multiplier\n0,1\n"])
        let path = dir.appendingPathComponent("scenario.yaml").path
        let error = #expect(throws: ScenarioError.self) { try ScenarioLoader.load(path: path) }
        #expect(
            error?.description
                == "\(path):3:11: field 'load.csv': results keep a copy of this file and name it here in their scenario.yaml, which needs the path written on one line as a plain or quoted value of its own (not a block scalar, nor an alias another key shares)"
        )
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
        #expect(
            try Self.curve("t_s,multiplier\n0,\u{301}1\n")
                == .error("traffic.csv:2: field 'load.csv': expected 2 columns, t_s and multiplier (got 1)"))
        #expect(
            try Self.curve("t_s , multiplier\n0,1\n")
                == .error("traffic.csv:1: field 'load.csv': expected the header `t_s,multiplier` (got `t_s , multiplier`)"))
        #expect(try Self.curve("") == .error("traffic.csv:1: field 'load.csv': expected the header `t_s,multiplier` (got ``)"))
        // Blank lines move the line a later problem is reported on.
        #expect(
            try Self.curve("t_s,multiplier\n0,1\n\n\n5,2\n3,1\n")
                == .error("traffic.csv:6: field 'load.csv': column t_s: time 3s comes before the previous point's 5s: times must increase"))
        #expect(
            try Self.curve("t_s,multiplier\n\n0,1\n1,\u{00E9}\n")
                == .error("traffic.csv:4: field 'load.csv': column multiplier: expected a number (got 'é')"))
        #expect(try Self.curve(Array("t_s,multiplier\n0,1\n".utf8) + [0xFF]) == .error("traffic.csv: field 'load.csv': is not UTF-8 text"))
    }
}
