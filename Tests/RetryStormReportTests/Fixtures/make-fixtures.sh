#!/usr/bin/env bash
# Regenerates the chart and report test fixtures from the built CLI (run from the package root
# after `swift build -c release`):
#   run-2reps/  `run` output of Tests/CLITests/Fixtures/tiny.yaml with 2 replications
#   compare/    `compare` of jitter.yaml's three variants, 3 replications each, two release gates
#   sweep/      `tune` of sweep.yaml over policy.backoff.base × policy.backoff.max (3 × 3, no
#               refinement), 2 replications per grid point: sweep.csv, summary.csv, tune.json
#   sweep-1d/   `tune` of sweep.yaml over policy.backoff.base alone (five values a factor of two
#               apart, one refinement: unevenly spaced), 2 replications: a line with whiskers
#   populations/ `compare` of populations.yaml's two rollout stages, 2 replications each: two
#               client populations, with populations.csv and timeseries_populations.csv
#   services/   `compare` of Tests/CLITests/Fixtures/tiny-services.yaml's two variants, 2 replications
#               each: a call graph (api calling db twice and cache), with services.csv, edges.csv and
#               timeseries_services.csv
#   sweep-invalid/ `sweep` of sweep.yaml over policy.backoff.base × policy.backoff.max where some
#               max delays are below the base delay (invalid, left out), 2 replications
# Only the inputs are kept (the tests draw the charts and the report). tts_quantiles.csv is thinned
# to every 10th level below 0.99 to keep the fixtures small (the reader takes any levels).
# New fixtures change the goldens drawn from them: record those with the one switch,
# RETRYSTORM_RECORD_GOLDENS=1 (CONTRIBUTING.md); the tests read fixtures and goldens from the
# checkout, so no rebuild is needed in between. Each command.txt names the input it ran
# (Tests/RetryStormKitTests/Fixtures/… in the committed ones, made before the fixtures moved here):
# regenerating them changes that path, report.html's goldens and ReportPageTests' quote of it.
set -euo pipefail
BIN=${BIN:-.build/release/retrystorm}
HERE=Tests/RetryStormReportTests/Fixtures
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

thin() {  # keeps quantile levels 0.000, 0.010, …, 0.980 and every level from 0.990 on
  awk -F, 'NR == 1 || $3 >= 0.99 || ($3 * 1000) % 10 == 0' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}

keep() {  # keep DIR FILE… : copies the named files of $TMP/DIR into $HERE/DIR
  local dir=$1; shift
  rm -rf "${HERE:?}/$dir"; mkdir -p "$HERE/$dir"
  for f in "$@"; do cp "$TMP/$dir/$f" "$HERE/$dir/"; done
}

"$BIN" run Tests/CLITests/Fixtures/tiny.yaml --out "$TMP/run-2reps" --replications 2 --jobs 1 > /dev/null 2>&1
keep run-2reps timeseries.csv summary.csv tts_quantiles.csv command.txt scenario.yaml

# Two release gates: one that passes, one that fails (the command exits 1 and writes everything).
"$BIN" compare "$HERE/jitter.yaml" --out "$TMP/compare" --replications 3 --jobs 1 \
  --expect 'peak_load_ratio.ci95_high<=4' --expect 'full-jitter:gave_up_fraction<=20%' > /dev/null 2>&1 || true
keep compare timeseries.csv summary.csv tts_quantiles.csv compare.csv command.txt scenario.yaml
thin "$HERE/compare/tts_quantiles.csv"

"$BIN" tune "$HERE/sweep.yaml" --out "$TMP/sweep" --replications 2 --jobs 1 --refine 0 \
  --grid policy.backoff.base=250ms,500ms,1s --grid policy.backoff.max=2s,8s,30s \
  --objective tts_success_p99_s --constraint 'peak_load_ratio<=3.3' --constraint 'gave_up<=160' --expect 'tts_success_p99_s<=20' > /dev/null 2>&1 || true
keep sweep summary.csv sweep.csv tune.csv tune.json command.txt scenario.yaml

"$BIN" tune "$HERE/sweep.yaml" --out "$TMP/sweep-1d" --replications 2 --jobs 1 --refine 1 \
  --grid policy.backoff.base=125ms,250ms,500ms,1s,2s \
  --objective tts_success_p99_s --constraint 'peak_load_ratio<=3.3' > /dev/null 2>&1 || true
keep sweep-1d summary.csv sweep.csv tune.csv tune.json command.txt scenario.yaml

"$BIN" sweep "$HERE/sweep.yaml" --out "$TMP/sweep-invalid" --replications 2 --jobs 1 \
  --grid policy.backoff.base=250ms,1s,4s --grid policy.backoff.max=500ms,2s,8s > /dev/null 2>&1
keep sweep-invalid summary.csv sweep.csv command.txt scenario.yaml
"$BIN" compare "$HERE/populations.yaml" --out "$TMP/populations" --replications 2 --jobs 1 > /dev/null 2>&1
keep populations timeseries.csv summary.csv tts_quantiles.csv compare.csv populations.csv timeseries_populations.csv \
  command.txt scenario.yaml
thin "$HERE/populations/tts_quantiles.csv"
"$BIN" compare Tests/CLITests/Fixtures/tiny-services.yaml --out "$TMP/services" --replications 2 --jobs 1 > /dev/null 2>&1
keep services timeseries.csv summary.csv tts_quantiles.csv compare.csv services.csv edges.csv timeseries_services.csv command.txt scenario.yaml
thin "$HERE/services/tts_quantiles.csv"

echo "fixtures written to $HERE; now record the goldens drawn from them:"
echo "  RETRYSTORM_RECORD_GOLDENS=1 swift test -c release --skip-build --filter '[Gg]olden'"
