/// How hard a splitting run works.
package struct SplittingOptions: Sendable, Hashable {
    /// Branches started from each level (and, for `stuck`, replications from t = 0), over all batches.
    package var effort: Int
    /// Independent splitting runs, `effort / batches` branches per level each: the interval comes
    /// from their spread (``SplittingRun/batched(_:_:)``). 5, or fewer so that each has 10 branches.
    package var batches: Int { Swift.max(2, Swift.min(5, effort / 10)) }
    /// Branches run first from each level to place the next one (discarded afterwards, so the
    /// level does not depend on the branches that are counted): max(10, effort / 4).
    package var pilot: Int { Swift.max(10, effort / batches / 4) }
    /// The share of pilot branches the next level is placed to be reached by.
    package var share: Double = 0.3
    /// Events the first stages of `collapse` may handle over all batches, half to place the first
    /// level, half to collect its entrances.
    package var firstStageEvents: Int64 = 4_000_000
    /// The most levels before the run gives up.
    package var maxLevels = 400

    package init(effort: Int = 100) { self.effort = effort }
}
