import Foundation
import TestSupport
import Testing

/// `validate` and `run` agree on a file gate that names a variant: `run` (the base alone) refuses
/// it with exit 2; `validate` accepts the file, which is valid for `compare`, and warns with the
/// same words, file, line and column, that `run` refuses it.
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ValidateRunGateTests {
    static let file = """
        name: gates
        horizon: 20s
        clients: {count: 50, arrival: poisson, rate: 1/s, timeout: 1s}
        server: {capacity: 100/s}
        policy: {max_attempts: 3}
        expect:
          - as-shipped:gave_up_fraction<=25%
        variants:
          - name: as-shipped
        """

    @Test("a gate naming a variant: run refuses it (exit 2), validate accepts the file and warns with run's words")
    func variantGate() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("gates.yaml")
        try Self.file.write(to: path, atomically: true, encoding: .utf8)
        let refusal = "gates.yaml:7:5: 'as-shipped' is not a variant of this study (base)."
        let run = try CLI.run(["run", path.path, "--out", "o"], in: dir)
        #expect(run.status == 2 && run.stderr.contains(refusal), "\(run.stderr)")
        let validate = try CLI.run(["validate", path.path], in: dir)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stderr.contains("retrystorm: warning: ") && validate.stderr.contains(refusal), "\(validate.stderr)")
        #expect(validate.stderr.contains("`run` refuses it (it runs the base alone); `compare` judges it."))
        let compare = try CLI.run(["compare", path.path, "--out", "c"], in: dir)
        #expect(compare.status == 0, "\(compare.stderr)")
    }
}
