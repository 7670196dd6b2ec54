#!/usr/bin/env bash
# Regenerates every directory of results/ from experiments/, deterministically: the same
# commands on the same version give the same bytes (perf.json, wall-clock figures, is not committed).
# Every command writes its report.html itself (checked in a browser by `make check-report`).
# Usage: scripts/make-results.sh [path/to/retrystorm]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/retrystorm}

run() { echo "+ retrystorm $*" >&2; "$bin" "$@" >/dev/null; }

run run experiments/quickstart.yaml --out results/quickstart --force
run compare experiments/jitter-comparison.yaml --replications 10 --out results/jitter-comparison --force
run tune experiments/tune-delays.yaml --replications 3 --out results/tune-delays --force
run compare experiments/aws-occ-contention.yaml --replications 20 --out results/aws-occ-contention --force
run compare experiments/metastable.yaml --replications 5 --out results/metastable --force
run map experiments/metastable.yaml --grid clients.rate=0.02/s...0.045/s:lin:6 --grid server.brownout.duration=1s...16s:log:9 --replications 4 --max-replications 16 --out results/metastable-map --force
run compare experiments/osdi22-retry.yaml --replications 10 --out results/osdi22-retry --force
run compare experiments/recovery-load.yaml --replications 10 --out results/recovery-load --force
run rare experiments/rare-collapse.yaml --event collapse --out results/rare-collapse --force
run rare experiments/rare-collapse.yaml --variant retries --event collapse --out results/rare-collapse-retries --force
run rare experiments/metastable.yaml --event stuck --set server.brownout.duration=3.1s --effort 500 --out results/rare-stuck --force
run compare experiments/retry-budget.yaml --replications 5 --out results/retry-budget --force
run compare experiments/aws-2026-defaults.yaml --replications 5 --out results/aws-2026-defaults --force
run compare experiments/mobile-fleet.yaml --replications 3 --out results/mobile-fleet --force
run compare experiments/library-presets.yaml --replications 3 --out results/library-presets --force
run run experiments/bench-fleet.yaml --out results/bench-fleet --force
run compare experiments/load-spike.yaml --replications 5 --out results/load-spike --force
run compare experiments/call-graph.yaml --replications 5 --out results/call-graph --force
run compare experiments/checkout.yaml --replications 3 --out results/checkout --force
run compare experiments/hedging.yaml --replications 5 --out results/hedging --force
run compare experiments/hedging-clients.yaml --replications 5 --out results/hedging-clients --force
run compare experiments/staged-rollout.yaml --replications 3 --vary populations.v2.share=0%,10%,25%,50%,60%,75%,90%,100% --out results/staged-rollout --force
# The app's own policies (examples/AppPolicyCheck, AppRetry) beside the presets: a Swift program, as
# a scenario file cannot name code. This package builds the example's targets from its sources
# (Package.swift), on the simulator already compiled: up to date after `make test`.
echo "+ custom-policies results/custom-policies" >&2
swift build -c release --product custom-policies >&2
.build/release/custom-policies results/custom-policies >/dev/null
