import Foundation
import TestSupport
import Testing

/// `merge` verifies what it merges: a tampered, duplicated, truncated or reordered shard, renamed
/// or swapped columns and impossible shard.json metadata are refused with status 2 and one line
/// naming the shard's file and line, before any output (or staging) directory exists.
///
/// The shards (ShardWorkspace): shard 0 of 3 holds tasks 0 ('jitter=none' replication 0) and 3
/// ('jitter=full' replication 0): summary.csv lines 2 and 3, timeseries.csv lines 2–13 and
/// 14–25, tts_quantiles.csv lines 2–1002 and 1003–2003.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct MergeIntegrityTests {
    /// `line` with field `column` changed to another value of the same shape.
    static func edited(_ line: String, column: Int) -> String {
        var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let last = fields[column].last!
        fields[column] = String(fields[column].dropLast()) + (last == "7" ? "8" : "7")
        return fields.joined(separator: ",")
    }

    @Test("the untouched shards merge (the workspace is sound)")
    func untouched() throws {
        let w = try ShardWorkspace()
        let r = try w.merge()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try w.leftovers() == ["merged"])
    }

    @Test("shards run with --seed, of a scenario without `name:`, merge into exactly the unsharded bytes (table.txt's name and seed included)")
    func seedAndName() throws {
        let dir = try CLI.temporaryDirectory()
        let scenario = dir.appendingPathComponent("my-study.yaml")
        let text = try CLI.read(CLI.fixture("tiny.yaml")).split(separator: "\n").filter { !$0.hasPrefix("name:") }.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: scenario)
        let common = ["sweep", scenario.path, "--grid", "policy.max_attempts=2,4", "--replications", "2", "--seed", "7", "--jobs", "1"]
        #expect(try CLI.run(common + ["--out", dir.appendingPathComponent("whole").path]).status == 0)
        for i in 0..<2 { #expect(try CLI.run(common + ["--shard", "\(i)/2", "--out", dir.appendingPathComponent("s\(i)").path]).status == 0) }
        let m = try CLI.run([
            "merge", dir.appendingPathComponent("s1").path, dir.appendingPathComponent("s0").path, "--out", dir.appendingPathComponent("merged").path
        ])
        #expect(m.status == 0, "\(m.stderr)")
        #expect(m.stdout.hasPrefix("my-study: 2 grid points over policy.max_attempts, seed 7"), "\(m.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("whole").path).filter { $0 != "perf.json" }
            .sorted()
        #expect(names.contains("table.txt"))
        for name in names {
            #expect(
                try CLI.read(dir.appendingPathComponent("merged/\(name)")) == (try CLI.read(dir.appendingPathComponent("whole/\(name)"))),
                "\(name) differs")
        }
    }

    @Test(
        "an edited value is refused, naming the first row of the task whose rows changed",
        arguments: [
            ("summary.csv", 3, 5, 3),
            ("timeseries.csv", 20, 4, 14),
            ("tts_quantiles.csv", 1500, 3, 1003)
        ])
    func editedValue(file: String, line: Int, column: Int, named: Int) throws {
        let w = try ShardWorkspace()
        var lines = try w.lines(0, file)
        lines[line - 1] = Self.edited(lines[line - 1], column: column)
        try w.writeLines(0, file, lines)
        try w.expectRefusal(try w.merge(), file: w.file(0, file), line: named, "SHA-256 differs")
    }

    @Test("a duplicated row is refused at the copy: next to its original, or after other rows")
    func duplicatedRow() throws {
        let w = try ShardWorkspace()
        var summary = try w.lines(0, "summary.csv")
        try w.writeLines(0, "summary.csv", [summary[0], summary[1], summary[1], summary[2]])
        try w.expectRefusal(try w.merge(), file: w.file(0, "summary.csv"), line: 3, "repeats line 2")

        summary.append(summary[1])
        try w.writeLines(0, "summary.csv", summary)
        try w.expectRefusal(
            try w.merge(), file: w.file(0, "summary.csv"), line: 4, "repeats rows of 'jitter=none' replication 0, which begin at line 2")
        try w.writeLines(0, "summary.csv", Array(summary.dropLast()))

        var series = try w.lines(1, "timeseries.csv")
        series.insert(series[4], at: 9)
        try w.writeLines(1, "timeseries.csv", series)
        try w.expectRefusal(try w.merge(), file: w.file(1, "timeseries.csv"), line: 10, "repeats line 5")
    }

    @Test("the same shard given twice is refused: the same directory, or a copy of it")
    func shardTwice() throws {
        let w = try ShardWorkspace()
        let indexLine = ShardWorkspace.line(of: "\"index\" :", in: try w.read(0, "shard.json"))
        try w.expectRefusal(
            try w.merge([w.shard(0), w.shard(1), w.shard(0), w.shard(2)]), file: w.file(0, "shard.json"), line: indexLine,
            "the directory \(w.shard(0)) is given twice")
        let copy = w.root.appendingPathComponent("copy-of-s1")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: w.shard(1)), to: copy)
        try w.expectRefusal(
            try w.merge([w.shard(0), w.shard(1), copy.path, w.shard(2)]), file: copy.appendingPathComponent("shard.json").path,
            line: indexLine, "shard 1/3 is given twice (also as \(w.file(1, "shard.json")))")
    }

    @Test("a truncated file is refused: rows missing at the end, a line cut short, nothing left")
    func truncated() throws {
        let w = try ShardWorkspace()
        let summary = try w.lines(0, "summary.csv")
        try w.writeLines(0, "summary.csv", Array(summary.dropLast()))
        try w.expectRefusal(
            try w.merge(), file: w.file(0, "summary.csv"), line: 2,
            "the file ends here, but shard.json records 1 row of 'jitter=full' replication 0 after it")
        try w.writeLines(0, "summary.csv", summary)

        let series = try w.lines(2, "timeseries.csv")
        try w.writeLines(2, "timeseries.csv", Array(series.dropLast(3)))
        try w.expectRefusal(try w.merge(), file: w.file(2, "timeseries.csv"), line: 22, "has 9 of the 12 rows shard.json records (from line 14)")
        try w.writeLines(2, "timeseries.csv", series)

        let quantiles = try w.read(1, "tts_quantiles.csv")
        try w.write(1, "tts_quantiles.csv", String(quantiles.dropLast(5)))
        try w.expectRefusal(try w.merge(), file: w.file(1, "tts_quantiles.csv"), line: 2003, "cut short")
        try w.write(1, "tts_quantiles.csv", "")
        try w.expectRefusal(try w.merge(), file: w.file(1, "tts_quantiles.csv"), line: 1, "is empty")
    }

    @Test("reordered rows are refused: two tasks swapped, or rows swapped within a task")
    func reordered() throws {
        let w = try ShardWorkspace()
        let summary = try w.lines(0, "summary.csv")
        try w.writeLines(0, "summary.csv", [summary[0], summary[2], summary[1]])
        try w.expectRefusal(try w.merge(), file: w.file(0, "summary.csv"), line: 2, "rows are missing or out of order")
        try w.writeLines(0, "summary.csv", summary)

        var series = try w.lines(0, "timeseries.csv")
        series.swapAt(12, 13)
        try w.writeLines(0, "timeseries.csv", series)
        try w.expectRefusal(try w.merge(), file: w.file(0, "timeseries.csv"), line: 13, "found a row of 'jitter=full' replication 0")
        series.swapAt(12, 13)
        series.swapAt(15, 16)
        try w.writeLines(0, "timeseries.csv", series)
        try w.expectRefusal(try w.merge(), file: w.file(0, "timeseries.csv"), line: 14, "rows were reordered")
    }

    @Test("renamed, swapped, added or removed columns are refused on the header line, naming the column")
    func columns() throws {
        let w = try ShardWorkspace()
        let summary = try w.lines(0, "summary.csv")
        try w.writeLines(0, "summary.csv", [summary[0].replacingOccurrences(of: ",attempts,", with: ",attempt,")] + summary.dropFirst())
        try w.expectRefusal(try w.merge(), file: w.file(0, "summary.csv"), line: 1, "column 6 is 'attempt', where retrystorm writes 'attempts'")

        // Columns 3 and 4 swapped everywhere: consistent, but not the file retrystorm writes.
        let swapped = summary.map { line -> String in
            var f = line.split(separator: ",", omittingEmptySubsequences: false)
            f.swapAt(2, 3)
            return f.joined(separator: ",")
        }
        try w.writeLines(0, "summary.csv", swapped)
        try w.expectRefusal(try w.merge(), file: w.file(0, "summary.csv"), line: 1, "column 3 is 'clients' (the column that belongs at 4)")
        try w.writeLines(0, "summary.csv", summary)

        let series = try w.lines(2, "timeseries.csv")
        try w.writeLines(2, "timeseries.csv", series.map { $0 + ",0" })
        try w.expectRefusal(try w.merge(), file: w.file(2, "timeseries.csv"), line: 1, "column 26 '0' was added")
        try w.writeLines(2, "timeseries.csv", series.map { String($0[..<$0.lastIndex(of: ",")!]) })
        try w.expectRefusal(try w.merge(), file: w.file(2, "timeseries.csv"), line: 1, "column 'held_back' is missing")
    }

    @Test(
        "impossible shard.json numbers and names are refused on their line",
        arguments: [
            ("replications", "-4", "'replications' must be a whole number from 1 to 100000 (got -4)"),
            ("replications", "0", "(got 0)"),
            ("replications", "100001", "(got 100001)"),
            ("replications", "99999999999999999999999", "(got 99999999999999999999999)"),
            ("replications", "3.5", "(got 3.5)"),
            ("replications", "3e0", "(got 3e0)"),
            ("replications", "\"3\"", "(got a string)"),
            ("replications", "null", "(got null)"),
            ("index", "3", "'shard.index' is 3, but a shard of 3 has an index from 0 to 2"),
            ("index", "-1", "'shard.index' must be a whole number"),
            ("count", "0", "'shard.count' must be a whole number from 1 to 100000 (got 0)"),

            ("kind", "\"sweeps\"", "'kind' is 'sweeps'; a shard's kind is run, compare or sweep"),
            ("kind", "\"tune\"", "(tune cannot be sharded)"),

            ("version", "\"0.0.9\"", "written by retrystorm 0.0.9, this is"),
            ("rows", "-1", "'files[0].rows' must be a whole number from 0 to"),
            ("rows", "25", "'files[0].rows' is 25, but its tasks' rows add up to 24"),
            ("task", "1", "'files[0].tasks[0].task' is 1; the tasks of shard 0/3 are 0, 3, … so this one is 0"),
            ("sha256", "\"00\"", "'files[0].sha256' must be 64 lowercase hexadecimal digits"),
            ("studySHA256", "\"\(String(repeating: "0", count: 64))\"", "the study's digest does not match the study this file describes"),
            ("scenarioFile", "\"../tiny.yaml\"", "'scenarioFile' must be a file name")
        ])
    func metadata(key: String, value: String, fragment: String) throws {
        let w = try ShardWorkspace()
        let line = try w.setManifestValue(0, key, value)
        try w.expectRefusal(try w.merge(), file: w.file(0, "shard.json"), line: line, fragment)
    }

    @Test(
        "a shard.json field that contradicts another is refused on the line of the one that no longer fits",
        arguments: [
            ("count", "2", "\"tasks\" :", "'files[0].tasks' lists 2 tasks, but shard 0/2 of this study has 3"),
            ("kind", "\"sweep\"", "\"parameterPaths\" :", "a sweep shard has one to three swept parameters (got 0)"),
            ("kind", "\"run\"", "\"points\" :", "a run shard has one point (got 2)")
        ])
    func contradiction(key: String, value: String, at: String, fragment: String) throws {
        let w = try ShardWorkspace()
        try w.setManifestValue(0, key, value)
        let line = ShardWorkspace.line(of: at, in: try w.read(0, "shard.json"))
        try w.expectRefusal(try w.merge(), file: w.file(0, "shard.json"), line: line, fragment)
    }

    /// Rewrites shard 0's shard.json through `change` (as JSON objects) and returns the new text.
    func rewriteManifest(_ w: ShardWorkspace, _ change: (inout [String: Any]) throws -> Void) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(try w.read(0, "shard.json").utf8)) as? [String: Any])
        try change(&object)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
        try w.write(0, "shard.json", text)
        return text
    }

    @Test("a points list that is empty, huge, or does not match the tasks is refused")
    func points() throws {
        let w = try ShardWorkspace()
        let original = try w.read(0, "shard.json")
        var text = try rewriteManifest(w) { $0["points"] = [] as [Any] }
        try w.expectRefusal(
            try w.merge(), file: w.file(0, "shard.json"), line: ShardWorkspace.line(of: "\"points\"", in: text),
            "a compare shard has 1 to 1000000 points (got 0)")
        try w.write(0, "shard.json", original)
        // A million and one points, spliced in as text (Foundation's JSON writer takes half a minute for it).
        var lines = try w.lines(1, "shard.json")
        let start = try #require(lines.firstIndex { $0.hasPrefix("  \"points\" : [") })
        let end = try #require(lines[start...].firstIndex { $0 == "  ]," })
        lines.replaceSubrange(
            start...end, with: ["  \"points\" : [" + (0...1_000_000).map { "{\"name\":\"p\($0)\",\"parameters\":[]}" }.joined(separator: ","), "  ],"]
        )
        try w.writeLines(1, "shard.json", lines)
        try w.expectRefusal(try w.merge(), file: w.file(1, "shard.json"), line: start + 1, "a compare shard has 1 to 1000000 points (got 1000001)")
        try w.write(1, "shard.json", try ShardWorkspace().read(1, "shard.json"))
        text = try rewriteManifest(w) {
            $0["points"] = [
                ["name": "jitter=none", "parameters": []], ["name": "jitter=full", "parameters": []],
                ["name": "extra", "parameters": []]
            ]
        }
        try w.expectRefusal(
            try w.merge(), file: w.file(0, "shard.json"), line: ShardWorkspace.line(of: "\"tasks\"", in: text),
            "'files[0].tasks' lists 2 tasks, but shard 0/3 of this study has 3")
        text = try rewriteManifest(w) { $0["points"] = [["name": "a", "parameters": []], ["name": "a", "parameters": []]] }
        let second = text.split(separator: "\n", omittingEmptySubsequences: false).indices.filter {
            text.split(separator: "\n", omittingEmptySubsequences: false)[$0].contains("\"a\"")
        }.dropFirst().first
        try w.expectRefusal(try w.merge(), file: w.file(0, "shard.json"), line: 1 + (second ?? -2), "the point name 'a' appears twice")
    }

    @Test("a shard.json that says the same in other bytes (a space, an escaped letter) is refused on the changed line")
    func rewrittenManifest() throws {
        let w = try ShardWorkspace()
        var lines = try w.lines(0, "shard.json")
        let k = try #require(lines.firstIndex { $0.contains("\"replications\" :") })
        lines[k] = lines[k].replacingOccurrences(of: " :", with: "\t:")
        try w.writeLines(0, "shard.json", lines)
        try w.expectRefusal(try w.merge(), file: w.file(0, "shard.json"), line: k + 1, "is not as retrystorm writes this line")
        lines[k] = lines[k].replacingOccurrences(of: "\t:", with: " :")
        let v = try #require(lines.firstIndex { $0.contains("\"version\" :") })
        lines[v] = lines[v].replacingOccurrences(of: "\"0.", with: "\"\\u0030.")
        try w.writeLines(0, "shard.json", lines)
        try w.expectRefusal(try w.merge(), file: w.file(0, "shard.json"), line: v + 1, "is not as retrystorm writes this line")
    }

    @Test("a shard.json written before digests is refused with a clear message")
    func olderManifest() throws {
        let w = try ShardWorkspace()
        _ = try rewriteManifest(w) { m in
            for key in ["files", "studySHA256", "scenarioFile", "seed"] { m[key] = nil }
        }
        try w.expectRefusal(try w.merge(), file: w.file(0, "shard.json"), line: 1, "written by an older retrystorm")
    }

    @Test("a shard of another study (another --seed) is refused, naming the field that differs")
    func otherStudy() throws {
        let w = try ShardWorkspace()
        let other = w.root.appendingPathComponent("other1").path
        try w.expectRefusal(
            try w.merge([w.shard(0), other, w.shard(2)]), file: (other as NSString).appendingPathComponent("shard.json"),
            line: ShardWorkspace.line(of: "\"seed\" :", in: try CLI.read(URL(fileURLWithPath: other).appendingPathComponent("shard.json"))),
            "belongs to another study than \(w.file(0, "shard.json")): its seed differs")
    }

    @Test("a row of another shard is refused, naming the shard it belongs to")
    func rowOfAnotherShard() throws {
        let w = try ShardWorkspace()
        let summary = try w.lines(0, "summary.csv")
        try w.writeLines(0, "summary.csv", summary + [try w.lines(1, "summary.csv")[1]])
        try w.expectRefusal(
            try w.merge(), file: w.file(0, "summary.csv"), line: 4,
            "the row of 'jitter=none' replication 1 (task 1) belongs to shard 1/3, not to this shard 0/3")
    }

    /// The lowercase hex SHA-256 of `text`, from coreutils (an implementation apart from the one
    /// under test).
    static func sha256(_ text: String) throws -> String {
        let file = try CLI.temporaryDirectory().appendingPathComponent("text")
        try Data(text.utf8).write(to: file)
        let r = try CLI.run(program: URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", file.path], in: nil, timeout: 60)
        return String(r.stdout.prefix(64))
    }

    @Test(
        "values retrystorm never writes are refused by column even when the digests were forged to match",
        arguments: [
            ("summary.csv", 5, "1e300", "column 'attempts': '1e300' is not a number as retrystorm writes it"),
            ("summary.csv", 5, "9999999999999999", "column 'attempts'"),
            ("summary.csv", 2, "-1", "column 'seed': '-1' is not a seed"),
            ("summary.csv", 18, "abc", "column 'recovery_s'"),
            ("timeseries.csv", 4, "-3", "column 'offered': '-3' is not a number ≥ 0"),
            ("timeseries.csv", 3, "nan", "column 'capacity_per_s'"),
            ("tts_quantiles.csv", 2, "1.5", "column 'quantile': '1.5' is not a quantile level from 0 to 1")
        ])
    func forgedValues(file: String, column: Int, value: String, fragment: String) throws {
        let w = try ShardWorkspace()
        var lines = try w.lines(0, file)
        let rows = { (lines: [String]) in lines.dropFirst().prefix { $0.hasPrefix("jitter=none,0,") }.map { $0 + "\n" }.joined() }
        let (oldTask, oldFile) = (try Self.sha256(rows(lines)), try Self.sha256(try w.read(0, file)))
        var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[column] = value
        lines[1] = fields.joined(separator: ",")
        try w.writeLines(0, file, lines)
        // Forge shard.json: the task's and the file's digests recomputed for the edited rows, in place.
        let (newTask, newFile) = (try Self.sha256(rows(lines)), try Self.sha256(try w.read(0, file)))
        let manifest = try w.read(0, "shard.json")
        #expect(manifest.contains(oldTask) && manifest.contains(oldFile))
        try w.write(0, "shard.json", manifest.replacingOccurrences(of: oldTask, with: newTask).replacingOccurrences(of: oldFile, with: newFile))
        try w.expectRefusal(try w.merge(), file: w.file(0, file), line: 2, fragment)
    }
}
