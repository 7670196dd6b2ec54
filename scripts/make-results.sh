#!/usr/bin/env bash
# Regenerates every directory of results/ from experiments/, deterministically: the same
# commands on the same version give the same bytes (perf.json, wall-clock figures, is not committed).
# Usage: scripts/make-results.sh [path/to/retrystorm]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/retrystorm}

run() { echo "+ retrystorm $*" >&2; "$bin" "$@" >/dev/null; }

run run experiments/quickstart.yaml --out results/quickstart --force
run compare experiments/jitter-comparison.yaml --replications 10 --out results/jitter-comparison --force
run tune experiments/tune-delays.yaml --replications 3 --out results/tune-delays --force
run run experiments/bench-fleet.yaml --out results/bench-fleet --force
run report results/jitter-comparison
