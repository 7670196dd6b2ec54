/// How a tune's runner-up compares with its recommendation, in the words the terminal, the
/// findings and the report's table all use, so that they never disagree: within noise (the
/// paired interval holds 0), about the same (a real difference under the minimum that counts,
/// ``MinimumDifference``), or worse or better for the objective.
package enum RunnerUpVerdict: Sendable, Equatable {
    case withinNoise
    case aboutTheSame
    case worse
    case better

    /// - Parameters:
    ///   - difference: the mean of the paired differences, runner-up minus recommendation.
    ///   - indistinguishable: the paired 95% interval holds 0.
    ///   - recommended, runnerUp: the two points' means of the objective.
    ///   - maximize: the objective's goal is a maximum.
    package init(
        difference: Double, indistinguishable: Bool, recommended: Double, runnerUp: Double, maximize: Bool,
        minimum: MinimumDifference, metric: Metric
    ) {
        if indistinguishable {
            self = .withinNoise
        } else if !minimum.matters(difference, between: recommended, and: runnerUp, metric: metric) {
            self = .aboutTheSame
        } else {
            self = (difference > 0) != maximize ? .worse : .better
        }
    }

    /// A table cell: "within noise", "about the same", "worse", "better".
    package var word: String {
        switch self {
        case .withinNoise: "within noise"
        case .aboutTheSame: "about the same"
        case .worse: "worse"
        case .better: "better"
        }
    }

    /// A sentence's end: "within noise of the recommendation", "about the same as the
    /// recommendation (a real difference, under 1%)", "worse than the recommendation", ….
    package func phrase(minimum: MinimumDifference, metric: Metric) -> String {
        switch self {
        case .withinNoise: "within noise of the recommendation"
        case .aboutTheSame: "about the same as the recommendation (a real difference, under \(minimum.words(for: metric)))"
        case .worse: "worse than the recommendation"
        case .better: "better than the recommendation"
        }
    }
}
