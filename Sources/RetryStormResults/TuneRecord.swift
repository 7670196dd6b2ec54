/// One row of tune.csv: a point's rank, its objective's interval, how far it misses the
/// constraints, its paired difference from rank 1, its value on fresh replications, its aliases.
package struct TuneRecord: Sendable, Equatable {
    package var rank: Int
    package var variant: String
    package var parameters: [String]
    package var feasible: Bool
    /// Written `metric` or `max:metric`.
    package var objective: Objective
    package var mean: Double
    package var low: Double
    package var high: Double
    package var replications: Int
    /// The constraints it breaks, `;`-separated, without spaces or commas.
    package var violated: String
    package var violation: Double
    package var difference: [Double]?
    package var confirmed: [Double]?
    /// Points not run because they are the same configuration, `;`-separated.
    package var aliases: String
    /// The constraints that hold on the value they judge but whose 95% interval crosses the bound
    /// (``ConstraintVerdict/withinNoise``), written as `violated` is: empty for a feasible point
    /// that meets every constraint with confidence.
    package var withinNoise: String

    package init(
        rank: Int, variant: String, parameters: [String], feasible: Bool, objective: Objective, mean: Double, low: Double,
        high: Double, replications: Int, violated: String, violation: Double, difference: [Double]?, confirmed: [Double]?,
        aliases: String, withinNoise: String = ""
    ) {
        (self.rank, self.variant, self.parameters, self.feasible, self.objective) = (rank, variant, parameters, feasible, objective)
        (self.mean, self.low, self.high, self.replications) = (mean, low, high, replications)
        (self.violated, self.violation, self.difference, self.confirmed, self.aliases) = (violated, violation, difference, confirmed, aliases)
        self.withinNoise = withinNoise
    }

    static let format = ValueFormat.fixed(6)

    /// The record with its numbers as they read back from the file.
    package var asWritten: TuneRecord {
        let f = Self.format
        var r = self
        (r.mean, r.low, r.high, r.violation) = (f.rounded(mean), f.rounded(low), f.rounded(high), f.rounded(violation))
        r.difference = difference?.map(f.rounded)
        r.confirmed = confirmed?.map(f.rounded)
        return r
    }

    package static func columns(parameters: [String]) -> [String] {
        ["rank", "variant"] + parameters + [
            "feasible", "objective", "mean", "ci95_low", "ci95_high", "replications", "violated",
            "violation", "diff_mean", "diff_ci95_low", "diff_ci95_high", "confirmed_mean",
            "confirmed_ci95_low", "confirmed_ci95_high", "aliases", "within_noise"
        ]
    }

    package var fields: [String] {
        let f = Self.format
        let triple = { (x: [Double]?) in x.map { $0.map(f.text) } ?? ["", "", ""] }
        return [String(rank), variant] + parameters + [
            feasible ? "true" : "false", objective.description, f.text(mean), f.text(low), f.text(high),
            String(replications), violated, f.text(violation)
        ]
            + triple(difference) + triple(confirmed) + [aliases, withinNoise]
    }

    package static func == (a: TuneRecord, b: TuneRecord) -> Bool {
        a.fields == b.fields
    }
}
