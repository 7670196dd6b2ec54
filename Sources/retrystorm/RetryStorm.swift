import ArgumentParser
import Foundation
import RetryStormEngine
import RetryStormKit

/// `retrystorm`: the command-line front of the simulator.
struct RetryStorm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retrystorm",
        abstract: "Simulate retry storms: many clients running real retry policies against an overloaded server.",
        discussion: """
            Examples:
              retrystorm run experiments/quickstart.yaml
              retrystorm run experiments/quickstart.yaml --seed 7 --set clients.count=50000 --out /tmp/q
              retrystorm run my.yaml --replications 10 --jobs 2
              retrystorm compare experiments/jitter-comparison.yaml --replications 10
              retrystorm compare my.yaml --vary policy.backoff.jitter=none,full,equal,decorrelated
              retrystorm sweep my.yaml --grid policy.backoff.base=100ms...2s:log:6 --grid policy.backoff.max=10s,30s,60s
              retrystorm tune experiments/tune-delays.yaml --objective tts_p99_s --constraint 'peak_load_ratio<=1.2'
              retrystorm run my.yaml --shard 0/3 --out s0 && … && retrystorm merge s0 s1 s2 --out all
              retrystorm validate my-scenario.yaml
              retrystorm keys            # every scenario key, its type, default and meaning
              retrystorm metrics         # every metric, its unit, better direction and meaning
              retrystorm policy export my.yaml --variant full > policy.json   # for the app
              retrystorm --generate-completion-script bash > ~/.local/share/bash-completion/completions/retrystorm
              retrystorm manual > /usr/local/share/man/man1/retrystorm.1   # then: man retrystorm

            Exit status: 0 success, 1 an expectation failed (results are written), 2 bad input
            (scenario, options, existing --out, a --out another run is writing) or a file,
            standard output or standard error that cannot be written (no space left, file too
            large, I/O error; the line says which results were written), 3 internal error, 130
            interrupted (SIGINT, SIGTERM, SIGHUP), 141 standard output or error closed by its
            reader (results already written stay).
            """,
        version: RetryStormVersion.versionLine,
        subcommands: [
            Run.self, Compare.self, Sweep.self, Tune.self, MapCommand.self, ExplainCommand.self, RareCommand.self, Merge.self, ChartCommand.self,
            ReportCommand.self,
            Validate.self, Keys.self, Metrics.self, Schema.self, PolicyCommand.self, Manual.self
        ]
    )
}
