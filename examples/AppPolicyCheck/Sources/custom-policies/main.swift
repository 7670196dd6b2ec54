import Foundation
import PolicyExperiments
import RetryStormKit

// Writes results/custom-policies: the presets of experiments/custom-policies.yaml and the app's own
// policies (AppRetry), compared through the same incident. Run by scripts/make-results.sh, from
// the repository's package (which builds the example's targets too), or from this one:
//   swift run -c release custom-policies [OUT]
//   swift run -c release --package-path examples/AppPolicyCheck custom-policies [OUT]
let out = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : CustomPoliciesExperiment.results.path
do {
    let results = try CustomPoliciesExperiment.experiment().compare(CustomPoliciesExperiment.options)
    try results.write(to: out, force: true)
    print(results.study.table, terminator: "")
} catch {
    FileHandle.standardError.write(Data("custom-policies: \(error)\n".utf8))
    exit(2)
}
