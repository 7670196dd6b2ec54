import Foundation
import TestSupport
import Testing

/// `merge` never writes into its own input: an `--out` that is a shard directory, lies inside one
/// or holds one is refused before anything is read or written, however the path spells it.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct MergeOutTests {
    /// Every file under the workspace's shard directories with its bytes.
    static func snapshot(_ w: ShardWorkspace) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for i in 0..<3 {
            let dir = URL(fileURLWithPath: w.shard(i))
            guard let e = FileManager.default.enumerator(atPath: dir.path) else { continue }
            while let rel = e.nextObject() as? String {
                out["s\(i)/" + rel] = (try? Data(contentsOf: dir.appendingPathComponent(rel))) ?? Data("<dir>".utf8)
            }
        }
        return out
    }

    @Test(
        "--out that is, lies inside or holds a shard directory (directly, through .. or a symlink) is refused with one line; the shards are untouched",
        arguments: [
            ("s0", ["--force"], "is the shard directory", 0),
            ("s1/merged", [], "is inside the shard directory", 1),
            ("s0/../s1/x", [], "is inside the shard directory", 1),
            (".", ["--force"], "holds the shard directory", 0),
            ("link", ["--force"], "is the shard directory", 2)
        ])
    func outIsInput(out: String, extra: [String], relation: String, shard: Int) throws {
        let w = try ShardWorkspace()
        try FileManager.default.createSymbolicLink(atPath: w.root.appendingPathComponent("link").path, withDestinationPath: "s2")
        let before = try Self.snapshot(w)
        let r = try CLI.run(["merge", "s0", "s1", "s2", "--out", out] + extra, in: w.root)
        #expect(r.status == 2, "status \(r.status): \(r.stderr)")
        #expect(
            r.stderr == "retrystorm: error: --out \(out) \(relation) s\(shard): merge never writes into its own input; choose another --out\n",
            "\(r.stderr)")
        #expect(try Self.snapshot(w) == before, "a shard changed")
        #expect(CLI.entries(w.root) == ["link", "other1", "s0", "s1", "s2"], "\(CLI.entries(w.root))")
    }
}
