import ArgumentParser
import Foundation
import RetryStormKit

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Combine the shard directories of a --shard run into the unsharded output.",
        discussion: """
            Checks that the directories are the shards 0…n−1 of one study (same scenario, options
            and version), each given once, and that every file is exactly as its shard wrote it
            (the header, every row in task order, and the SHA-256 digests in shard.json), and that
            every input file (load.csv, server.capacity_csv) has the same SHA-256 in every shard;
            then puts the rows back in task order and recomputes compare.csv or sweep.csv from the
            copies of the input files the shards keep, never the files themselves: the files are
            byte for byte those the unsharded command writes (perf.json aside), from any working
            directory. Anything else is refused with status 2 and a message naming the shard's
            file and line, before any output is written; so is an --out that is, holds or lies
            inside a shard directory. Expectations (the scenario's `expect:` and --expect) are
            judged on the result.

            Example:
              for i in 0 1 2; do retrystorm sweep my.yaml --shard $i/3 --out shard-$i; done
              retrystorm merge shard-0 shard-1 shard-2 --out merged
            """)

    @Argument(help: "The shard directories.")
    var directories: [String]

    @Option(help: ArgumentHelp("Output directory.", valueName: "dir"))
    var out: String

    @Flag(help: "Replace an existing --out directory.")
    var force = false

    @Option(
        name: .customLong("expect"), help: ArgumentHelp("A release gate on the merged result (repeatable).", valueName: "[variant:]metric<=value"))
    var expectations: [String] = []

    func run() throws {
        let merged = try CLIErrors.output { () throws(OutputError) in
            try ShardMerge.checkOut(out, directories: directories)
            return try ShardMerge.merge(directories)
        }
        let expectations = try StudyOutput.expectations(merged.loaded, self.expectations)
        let output = try StudyOutput.open(out, force: force)
        let results = try CLIErrors.output { () throws(OutputError) in
            do throws(ResultsError) {
                return try ResultsCodec.decode(Dictionary(merged.files, uniquingKeysWith: { a, _ in a }), directory: out)
            } catch {
                throw OutputError(message: "the merged files do not read back: \(error.message)")
            }
        }
        try StudyOutput.write(merged.files, to: output, inputs: merged.loaded.inputs, charts: (results, merged.loaded))
        let table = merged.files.first { $0.0 == "table.txt" }?.1 ?? ""
        StudyOutput.finish(stdout: table + "merged \(directories.count) shards → \(out)\n", perf: nil)
        try StudyOutput.judge(expectations, merged.metrics)
    }
}
