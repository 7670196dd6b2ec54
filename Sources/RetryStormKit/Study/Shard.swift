import RetryStormEngine

/// A deterministic slice of a study's tasks: `--shard i/n` takes every task `t` with `t mod n = i`.
package struct Shard: Sendable, Hashable, Codable {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `i/n` with 0 ≤ i < n ≤ 100000.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 100_000, i >= 0, i < n else {
            return nil
        }
        self.init(index: i, count: n)
    }

    package var description: String { "\(index)/\(count)" }
}
