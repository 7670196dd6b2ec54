import GSLSupport

/// Where a copy of the engine's state gets its random streams: the original's own states (a
/// snapshot, which then draws what the original would), or fresh streams seeded from a branch's
/// seed (a branch of a splitting run, which must draw its own future). A copy takes its streams in
/// a fixed order, so a branch's seed determines every one of them.
struct StreamCopies: ~Copyable {
    /// The branch's seed, or nil for an exact snapshot.
    let branch: UInt64?
    private var taken: UInt64 = 0

    init(branch: UInt64?) { self.branch = branch }

    /// The copy of `stream`: the same state, or the branch's next fresh stream.
    mutating func copy(_ stream: borrowing RandomStream) -> RandomStream {
        guard let branch else { return RandomStream(copying: stream) }
        taken += 1
        return RandomStream(seed: SeedDerivation.seed(scenario: branch, replication: 0, stream: taken))
    }
}
