#!/usr/bin/env bash
# Regenerates the chart and report test fixtures from the built CLI (run from the package root
# after `swift build -c release`):
#   run-2reps/  `run` output of Tests/CLITests/Fixtures/tiny.yaml with 2 replications, as written
#   compare/    a compare-style directory: jitter.yaml's three variants, 3 replications each, with
#               compare.csv (long format) computed here
#   sweep/      a sweep-style directory: sweep.yaml over policy.backoff.base × policy.backoff.max,
#               2 replications per grid point, with sweep.csv and tune.json
# compare and sweep do not exist yet, so their directories are assembled from `run` outputs in the
# documented format. tts_quantiles.csv is thinned to every 10th level below 0.99 to keep the
# fixtures small (the reader takes any levels).
set -euo pipefail
BIN=${BIN:-.build/release/retrystorm}
HERE=Tests/RetryStormKitTests/Fixtures
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run-2reps: the real thing, charts and report excluded (the tests make those).
rm -rf "$HERE/run-2reps"
"$BIN" run Tests/CLITests/Fixtures/tiny.yaml --out "$TMP/run" --replications 2 --jobs 1 > /dev/null 2>&1
mkdir -p "$HERE/run-2reps"
cp "$TMP/run/"{timeseries.csv,summary.csv,tts_quantiles.csv,scenario.yaml} "$HERE/run-2reps/"

# Appends run output $1's rows of file $2 to $3 with variant `base` renamed $4.
append() {
  [ -f "$3" ] || head -1 "$1/$2" > "$3"
  tail -n +2 "$1/$2" | sed "s/^base,/$4,/" >> "$3"
}

thin() {  # keeps quantile levels 0.000, 0.010, …, 0.980 and every level from 0.990 on
  awk -F, 'NR == 1 || $3 >= 0.99 || ($3 * 1000) % 10 == 0' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}

# Long-format statistics: reads a summary.csv header, then summary rows whose variant column is
# widened to $1 key columns (variant and swept values); writes
# key…,metric,mean,ci95_low,ci95_high,replications per key in order of first appearance.
stats() {
  awk -F, -v keys="$1" -v metrics="amplification,gave_up,peak_load_ratio,tts_p50_s,tts_p99_s,recovery_s,wasted_fraction" '
    BEGIN { n = split(metrics, want, ","); split("12.706205,4.302653,3.182446,2.776445,2.570582,2.446912,2.364624,2.306004,2.262157", t, ",") }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { key = $1; for (k = 2; k <= keys; k++) key = key "," $k
      if (!(key in seen)) { seen[key] = 1; order[++count] = key }
      reps[key]++
      for (m = 1; m <= n; m++) { v = $(col[want[m]] + keys - 1); sum[key, m] += v; sq[key, m] += v * v } }
    END { for (c = 1; c <= count; c++) { key = order[c]; r = reps[key]
            for (m = 1; m <= n; m++) {
              mean = sum[key, m] / r; var = r > 1 ? (sq[key, m] - r * mean * mean) / (r - 1) : 0; if (var < 0) var = 0
              half = r > 1 ? t[r - 1] * sqrt(var / r) : 0
              printf "%s,%s,%.6f,%.6f,%.6f,%d\n", key, want[m], mean, mean - half, mean + half, r } } }'
}

# compare: three declared variants.
rm -rf "$HERE/compare"; mkdir -p "$HERE/compare"
cp "$HERE/jitter.yaml" "$HERE/compare/scenario.yaml"
for pair in no-jitter:none equal-jitter:equal full-jitter:full; do
  name=${pair%%:*}
  "$BIN" run "$HERE/jitter.yaml" --out "$TMP/$name" --replications 3 --jobs 1 --set policy.backoff.jitter="${pair##*:}" > /dev/null 2>&1
  for f in timeseries.csv summary.csv tts_quantiles.csv; do append "$TMP/$name" $f "$HERE/compare/$f" "$name"; done
done
thin "$HERE/compare/tts_quantiles.csv"
{ echo "variant,metric,mean,ci95_low,ci95_high,replications"
  stats 1 < "$HERE/compare/summary.csv"; } > "$HERE/compare/compare.csv"

# sweep: a 3 × 3 grid; grid points are variants b<base>-m<max> in the time series, `base` in sweep.csv.
rm -rf "$HERE/sweep"; mkdir -p "$HERE/sweep"
cp "$HERE/sweep.yaml" "$HERE/sweep/scenario.yaml"
echo "variant,policy.backoff.base,policy.backoff.max,metric,mean,ci95_low,ci95_high,replications" > "$HERE/sweep/sweep.csv"
keyed="$TMP/keyed.csv"; : > "$keyed"
for max in 2s 8s 30s; do
  for base in 250ms 500ms 1s; do
    name="b$base-m$max"
    "$BIN" run "$HERE/sweep.yaml" --out "$TMP/$name" --replications 2 --jobs 1 \
      --set policy.backoff.base=$base --set policy.backoff.max=$max > /dev/null 2>&1
    for f in timeseries.csv summary.csv tts_quantiles.csv; do append "$TMP/$name" $f "$HERE/sweep/$f" "$name"; done
    tail -n +2 "$TMP/$name/summary.csv" | sed "s/^base,/base,$base,$max,/" >> "$keyed"
  done
done
thin "$HERE/sweep/tts_quantiles.csv"
(head -1 "$HERE/sweep/summary.csv"; cat "$keyed") | stats 3 >> "$HERE/sweep/sweep.csv"
cat > "$HERE/sweep/tune.json" <<'JSON'
{
  "objective": {"metric": "tts_p99_s", "goal": "min"},
  "constraints": [{"metric": "peak_load_ratio", "max": 3.3}, {"metric": "gave_up", "max": 160}],
  "chosen": {"variant": "base", "point": {"policy.backoff.base": "500ms", "policy.backoff.max": "8s"}}
}
JSON
echo "fixtures written to $HERE"
