import Foundation
import TestSupport
import Testing

/// A seeded fuzz test of `merge` over mutated shards: deleted, duplicated and swapped lines,
/// edited digits, renamed headers, numbers in shard.json made negative, huge, fractional or
/// strings, files cut mid-line, added columns, stray bytes. Every mutant that changes a byte is
/// refused with status 2 and one line naming the mutated shard's file; none traps, hangs or
/// leaves an output or staging directory.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct MergeFuzzTests {
    struct LCG {
        var x: UInt64
        mutating func next() -> UInt64 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return x >> 17
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
    }

    static let files = ["summary.csv", "timeseries.csv", "tts_quantiles.csv", "shard.json"]
    static let numbers = ["-1", "0", "-0", "99999999999999999999", "2.5", "1e3", "\"x\"", "null", "100001", "[]", "{}", "1E2", "0x10"]
    static let fields = ["-1", "1e300", "nan", "", "abc", "99999999999999999", "1.0e3", " 1", "0.1234567890", "-inf", "inf"]
    static let junk = ["\r", "\u{0}", "é", "\"", ",", "\t", "\u{FEFF}", "\\", "\n"]

    /// One to three mutations of `text`, with a note of what they were.
    static func mutate(_ text: String, _ rng: inout LCG) -> (String, [String]) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var notes: [String] = []
        for _ in 0...rng.below(3) {
            if lines.isEmpty { lines = [""] }
            let i = rng.below(max(1, lines.count - 1))
            switch rng.below(9) {
            case 0:
                if lines.count < 2 { continue }
                lines.remove(at: i)
                notes.append("delete line \(i + 1)")
            case 1:
                lines.insert(lines[i], at: i)
                notes.append("duplicate line \(i + 1)")
            case 2:
                let j = rng.below(max(1, lines.count - 1))
                lines.swapAt(i, j)
                notes.append("swap lines \(i + 1) and \(j + 1)")
            case 3:
                let digits = lines[i].indices.filter { lines[i][$0].isNumber }
                if digits.isEmpty { continue }
                let at = rng.pick(digits)
                lines[i].replaceSubrange(at...at, with: String(rng.below(10)))
                notes.append("edit a digit on line \(i + 1)")
            case 4:
                // The header of a CSV, a key of shard.json.
                let k = lines[0].hasPrefix("{") ? min(lines.count - 1, 1 + rng.below(lines.count - 1)) : 0
                if lines[k].isEmpty { continue }
                let at = lines[k].index(lines[k].startIndex, offsetBy: rng.below(lines[k].count))
                lines[k].replaceSubrange(at...at, with: rng.pick(["x", "_", ",", "A"]))
                notes.append("rename on line \(k + 1)")
            case 5:
                if let colon = lines[i].range(of: " : "), lines[i][colon.upperBound...].first.map({ $0.isNumber || $0 == "-" }) == true {
                    let comma = lines[i].hasSuffix(",") ? "," : ""
                    let value = rng.pick(numbers)
                    lines[i] = String(lines[i][..<colon.upperBound]) + value + comma
                    notes.append("number on line \(i + 1) := \(value)")
                } else if !lines[0].hasPrefix("{") {
                    var f = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    let c = rng.below(f.count)
                    f[c] = rng.pick(fields)
                    lines[i] = f.joined(separator: ",")
                    notes.append("field \(c + 1) of line \(i + 1) := '\(f[c])'")
                }
            case 6:
                let cut = rng.below(lines.joined(separator: "\n").utf8.count)
                let joined = Array(lines.joined(separator: "\n").utf8)
                lines = String(decoding: joined[..<cut], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                notes.append("cut at byte \(cut)")
            case 7:
                if rng.below(2) == 0 {
                    lines = lines.map { $0.isEmpty ? $0 : $0 + ",0" }
                    notes.append("add a column")
                } else {
                    lines[i] += ",0"
                    notes.append("add a field to line \(i + 1)")
                }
            default:
                if lines[i].isEmpty { continue }
                let at = lines[i].index(lines[i].startIndex, offsetBy: rng.below(lines[i].count))
                let bytes = rng.pick(junk)
                lines[i].insert(contentsOf: bytes, at: at)
                notes.append("insert \(bytes.debugDescription) into line \(i + 1)")
            }
        }
        return (lines.joined(separator: "\n"), notes)
    }

    @Test("200 mutated shards: each changed one is refused with status 2 and one line naming its shard; no trap, hang or leftover")
    func fuzz() throws {
        let w = try ShardWorkspace()
        var rng = LCG(x: 20_261_123)
        var refused = 0
        for n in 0..<200 {
            let shard = rng.below(3)
            let file = rng.pick(Self.files)
            let original = try w.read(shard, file)
            let (text, notes) = Self.mutate(original, &rng)
            try w.write(shard, file, text)
            let r = try w.merge()
            let context = "mutant \(n): \(w.file(shard, file)): \(notes.joined(separator: "; "))\n--- stderr:\n\(r.stderr.prefix(2000))"
            #expect(!r.timedOut && !r.signalled, "trap or hang (status \(r.status)): \(context)")
            if text == original {
                #expect(r.status == 0, "unchanged bytes refused: \(context)")
            } else {
                refused += 1
                #expect(r.status == 2, "status \(r.status): \(context)")
                #expect(r.stderr.hasPrefix("retrystorm: error: \(w.shard(shard))/"), "does not name the shard: \(context)")
                #expect(r.stderr.filter { $0 == "\n" }.count == 1 && r.stderr.hasSuffix("\n"), "not one line: \(context)")
                #expect(try w.leftovers() == [], "left behind: \(context)")
            }
            try w.write(shard, file, original)
            try? FileManager.default.removeItem(at: w.root.appendingPathComponent("merged"))
            if r.signalled || r.timedOut { break }
        }
        // The mutations nearly always change something: the test is about refusals.
        #expect(refused > 150, "only \(refused) of 200 mutants changed a byte")
    }
}
