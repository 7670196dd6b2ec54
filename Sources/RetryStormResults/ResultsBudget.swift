import Foundation
import RetryStormVocabulary

/// What reading result files takes in memory — `report` and `chart` read a result directory,
/// `merge` its shard directories, then parse the tables and draw from them — counted against the
/// machine's real limit (``MachineLimits``: physical memory, `ulimit -v`, the cgroup's limit), as
/// the study budget counts a study before it runs. A directory too large for that is refused
/// with one line naming the file and the limit, never read until the allocator aborts or the
/// kernel kills the process.
///
/// Memory at the peak is the process, plus each byte of text read times its file's
/// ``expansion`` (the text, the records parsed from it, the means, tables and charts drawn from
/// them). The sizes the file system reports give the first estimate (``check(_:)``), before
/// anything is read; they may lie (a file in `/proc` reports 0 bytes and may yield gigabytes, a
/// file can grow while it is read), so every read goes through ``InputFile`` and stops at what
/// is left (``read(_:cap:expansion:)``), whatever the size said.
package struct ResultsBudget: Sendable {
    /// The process before it reads: the binary, the Swift and Foundation runtimes. Measured:
    /// `report` and `chart` of a run of 5 clients over 10 s (2 KB of results) peak at 28 MiB.
    static let processBytes = 32.0 * 1_048_576

    /// Bytes of memory at the peak per byte of a results CSV (or table.txt, scenario.yaml,
    /// command.txt) read, for `report`, `chart` and `merge`. Measured as (peak RSS − 28 MiB) /
    /// bytes read, GNU time's maximum resident set size (docs/reliability.md has the commands):
    /// - `compare` of 4 variants × 20 replications over 20,000 one-second buckets (103.9 MB,
    ///   nearly all timeseries.csv, whose fields are mostly `0`: 23 doubles of 8 bytes parsed
    ///   from 64 bytes of text): `report` 4.07, `chart` 4.04, `merge` of its 3 shards 5.11;
    /// - `run` of one replication over 2,000,000 buckets (136.9 MB): `report` and `chart` 4.56
    ///   (the means of one replication are as large as its series), `merge` of its one shard 5.80;
    /// - `sweep` of 3,000 grid points × 20 replications (15.0 MB summary.csv, 9.7 MB sweep.csv,
    ///   0.4 MB table.txt: many short strings, and a report table of every point): `report`
    ///   8.04, `chart` 5.65.
    /// The largest, 8.04, rounded up to 10.
    package static let expansion = 10.0

    /// Bytes of memory per byte of JSON read (shard.json, parsed into a tree of located values;
    /// tune.json, decoded by Foundation). Measured: `merge` of one shard of 60,000 tasks (9.75
    /// MB shard.json, 15.0 MB summary.csv) peaks at 313 MiB: (313 − 28 MiB − 10 × 15.0 MB) /
    /// 9.75 MB is 15.2 (21.9 with the CSV at the 5.8 merges measured) — rounded up to 30.
    package static let jsonExpansion = 30.0

    package let limits: MachineLimits
    /// Memory counted so far: the process, and every file read times its expansion.
    package private(set) var charged: Double

    /// A budget against `limits` with nothing read yet.
    package init(limits: MachineLimits = .current) {
        self.limits = limits
        charged = Self.processBytes
    }

    /// Memory reading `bytes` of text at `expansion` would add.
    package static func memory(_ bytes: Double, expansion: Double = expansion) -> Double { bytes * expansion }

    /// Refuses, before they are read, `files` (path, expansion) whose sizes already say they will
    /// not fit beside what was read: the first estimate, from `st_size`. Files that do not exist
    /// or are not regular count nothing here (their read refuses them).
    /// - Throws: ``ResultsError`` naming the largest file, the estimate and the limit.
    package func check(_ files: [(path: String, expansion: Double)]) throws(ResultsError) {
        var need = charged
        var total = 0.0
        var count = 0
        var most = 0.0
        var largest: (path: String, bytes: Double)?
        for (path, expansion) in files {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let size = Double(info.st_size)
            need += Self.memory(size, expansion: expansion)
            total += size
            count += 1
            most = max(most, expansion)
            if size > (largest?.bytes ?? -1) { largest = (path, size) }
        }
        guard need > limits.usable, let largest else { return }
        throw ResultsError(
            "\(MessageText.escaped(largest.path)): \(Format.grouped(largest.bytes)) bytes; reading these results "
                + "(\(Format.bytes(total)) in \(count) file\(count == 1 ? "" : "s")) needs about \(Format.bytes(need)) \(Self.because(most)) \(allowance)"
        )
    }

    /// Reads the file at `path` whole, charging its bytes times `expansion`.
    /// - Parameter cap: the file's own cap (its kind's largest sound size); the read also stops
    ///   where the memory left runs out.
    /// - Returns: nil when nothing is at `path`.
    /// - Throws: ``ResultsError`` with one line naming the file: not a regular file (a FIFO is
    ///   never opened for a blocking read), past its cap, past the memory left, unreadable.
    package mutating func read(_ path: String, cap: Int, expansion: Double = expansion) throws(ResultsError) -> [UInt8]? {
        var info = stat()
        if stat(path, &info) != 0 && errno == ENOENT { return nil }
        let fits = max(0, (limits.usable - charged) / expansion)
        let limit = min(cap, Int(min(fits, Double(Int.max / 2))))
        let shown = MessageText.escaped(path)
        do {
            let bytes = try InputFile.read(path, cap: limit)
            charged += Self.memory(Double(bytes.count), expansion: expansion)
            return bytes
        } catch {
            guard case .tooLarge = error, limit < cap else { throw ResultsError("\(shown): \(error.message)") }
            let need = charged + Self.memory(Double(limit) + 1, expansion: expansion)
            throw ResultsError(
                "\(shown): holds more than \(Format.grouped(Int64(limit))) bytes; reading these results needs more than "
                    + "\(Format.bytes(need)) \(Self.because(expansion)) \(allowance)")
        }
    }

    /// ``read(_:cap:expansion:)`` as UTF-8 text.
    /// - Throws: ``ResultsError`` as ``read(_:cap:expansion:)``, and for bytes that are not UTF-8.
    package mutating func text(_ path: String, cap: Int, expansion: Double = expansion) throws(ResultsError) -> String? {
        guard let bytes = try read(path, cap: cap, expansion: expansion) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ResultsError("\(MessageText.escaped(path)): is not UTF-8 text") }
        return text
    }

    /// A meter for the records parsed from what was read (``Meter``): the memory left once the
    /// text read is counted at its size alone, the parse's share of ``expansion`` given back.
    package func meter(textBytes: Double) -> Meter {
        Meter(left: limits.usable - Self.processBytes - textBytes, budget: self)
    }

    /// Counts the records a parse makes as it makes them. ``expansion`` is measured on tables
    /// whose rows come in long runs of one variant and replication, as retrystorm writes them; a
    /// table whose every row starts a record of its own (rows sorted by time, or made so) takes
    /// far more — a time-series record of one row is about 1.4 KB for 64 bytes of text — so the
    /// fragment-prone parses (time series, quantiles, population series) charge each record and
    /// each row, and stop where the memory left runs out.
    package final class Meter {
        var left: Double
        let budget: ResultsBudget

        init(left: Double, budget: ResultsBudget) {
            self.left = left
            self.budget = budget
        }

        /// Memory per record of `arrays` arrays (header, allocation, the record's own fields);
        /// and per number parsed: the number, the array's spare room when it grows, and the mean
        /// the charts draw from it.
        package static func recordBytes(arrays: Int) -> Double { Double(arrays) * 64 + 128 }
        package static let numberBytes = 24.0

        /// Charges `bytes` for `file` at `line`.
        /// - Throws: ``ResultsError`` naming the file and line where the memory left ran out.
        package func charge(_ bytes: Double, file: String, line: Int) throws(ResultsError) {
            left -= bytes
            guard left < 0 else { return }
            throw ResultsError(
                "\(MessageText.escaped(file)):\(line): parsed up to here, these results take more memory than "
                    + "\(budget.limits.description) leaves (\(Format.bytes(budget.limits.usable)), \(Int(MachineLimits.share * 100))% of "
                    + "\(Format.bytes(budget.limits.bytes))): their rows break into a record each, not runs of one variant and replication")
        }
    }

    /// How the estimate is made, for messages: "in memory (up to 10 bytes per byte read, measured),".
    static func because(_ expansion: Double) -> String { "in memory (up to \(Int(expansion)) bytes per byte read, measured)," }

    /// "but the address-space limit (ulimit -v) allows 1.6 GiB (80% of 2.0 GiB)".
    var allowance: String {
        "but \(limits.description) allows \(Format.bytes(limits.usable)) (\(Int(MachineLimits.share * 100))% of \(Format.bytes(limits.bytes)))"
    }
}
