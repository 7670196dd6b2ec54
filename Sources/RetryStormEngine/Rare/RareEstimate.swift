/// What a splitting run estimated (`rare.json`).
package struct RareEstimate: Sendable {
    /// One level of the splitting: the backlog, and the share of the branches started at the level
    /// below that reached it.
    package struct Level: Sendable {
        /// Requests waiting or in service.
        package let backlog: Int
        /// Branches started towards this level (for the first level of `collapse`, the
        /// excursions from an empty server seen while collecting its entrances).
        package let branches: Int
        /// Of them, those that reached it (for `stuck`, the particles kept at a checkpoint).
        package let reached: Int
        /// For `stuck`, the checkpoint's time, seconds (its `backlog` the particles' mean then).
        package var time: Double?

        package init(backlog: Int, branches: Int, reached: Int, time: Double? = nil) {
            self.backlog = backlog
            self.branches = branches
            self.reached = reached
            self.time = time
        }
        package var probability: Double { branches > 0 ? Double(reached) / Double(branches) : 0 }
    }

    package let event: RareEvent
    /// Seconds for `collapse` (the mean time from a healthy start), a probability for `stuck`.
    /// A collapse no branch reached is +∞, its `low` a bound from the rule of three.
    package let estimate: Double
    /// The 95% interval's ends (see ``Splitting``).
    package let low: Double
    package let high: Double
    /// How it was estimated, in words.
    package let method: String
    /// The levels, lowest first; the last is the event's backlog.
    package let levels: [Level]
    /// Every event handled by every run and branch.
    package let eventsSimulated: Int64
    /// The collapse backlog, capacity × timeout (requests).
    package let threshold: Int
    /// Branches per level.
    package let effort: Int
    /// `collapse`: the mean length of an excursion from an empty server and back, seconds (the
    /// regenerative cycle); `stuck`: the share of replications stuck without ever reaching the
    /// first level. For the record, not the estimate's only part.
    package let base: Double
    /// The events plain Monte Carlo would need for an interval as narrow relative to the estimate:
    /// (1.96/h)² collapses of the estimated mean time each, at the events per simulated second of
    /// the runs from an empty server; or (1.96/h)²(1 − P)/P replications at the events of a
    /// replication run whole. Nil when the interval has no width or no end.
    package var plainEvents: Double?

    /// How many times fewer events splitting took than plain Monte Carlo would for the same interval.
    package var speedup: Double? { plainEvents.map { $0 / Double(Swift.max(1, eventsSimulated)) } }
}
