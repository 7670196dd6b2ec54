#!/usr/bin/env bash
# `make bench`: the performance measurements of RetryStorm on this machine (release build), written
# to results/bench/bench.csv. Wall-clock figures: they vary from run to run and machine to machine,
# so this is not part of `make results` or CI.
#   bench-fleet      experiments/bench-fleet.yaml (1M clients), RUNS runs: median, min, max
#   scaling          the same fleet at 10^4 … 10^7 clients (capacity scaled with it), RUNS runs
#                    each up to 10^6, one at 10^7
#   event-queue      bench-fleet with the retries in one 4-ary heap instead of the timing wheel
#   all-events       bench-fleet with every attempt's outcome and every service completion as an
#                    event (--all-events) instead of the queue solved on arrival
#   call-graph-chain experiments/bench-chain.yaml: bench-fleet's fleet and database behind a
#                    four-service chain (the call graph's cost per event against bench-fleet's)
#   policy-library   bench-fleet's fleet and outage run in process (the engine alone, no files) with
#   policy-custom    the library's RetryPolicy, and with the same policy written as a custom
#                    ClientPolicy type in another module (RETRYSTORM_BENCH_CSV=… swift test --filter
#                    CustomPolicyBenchmark), alternated in RUNS pairs; the test checks both give the
#                    same results bit for bit
#   map-20x20        experiments/metastable.yaml mapped over a 20 × 20 grid of load × brownout length,
#                    20 replications per cell (8,000 replications), --jobs 2
#   rare-years       experiments/rare-collapse.yaml: the mean time to collapse (1.36 years) by
#                    splitting; wall_* is the whole process, events rare.json's events_simulated
#   instructions     bench-fleet at 10^5 clients (capacity 2,000/s, the same 50% load), the whole
#                    process under callgrind (valgrind): instructions_per_event is its instruction
#                    count over the run's events, exact and steady where wall time on a shared VM
#                    is not (issue 43's target: at most 400). Skipped without valgrind.
#   jobs             experiments/jitter-comparison.yaml, 20 replications, --jobs 1 and --jobs 2 run
#                    back to back PAIRS times; jobs-speedup is the median of the paired ratios (the
#                    VM's speed drifts between minutes, so unpaired medians would mislead)
# wall_* are perf.json's wall_s (the simulation and its tables); process_median_s is the whole
# process, end to end: parsing the scenario, the run, every CSV, the charts.
# Usage: scripts/bench.sh [path/to/retrystorm]   (RUNS=5, PAIRS=9 and MAX_CLIENTS=10000000 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/retrystorm}
runs=${RUNS:-5}
pairs=${PAIRS:-9}
max_clients=${MAX_CLIENTS:-10000000}
out=results/bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
csv="$tmp/bench.csv"
echo "benchmark,clients,jobs,runs,events,wall_median_s,wall_min_s,wall_max_s,events_per_s,peak_rss_mib,process_median_s,instructions_per_event" > "$csv"

# perf field of perf.json
field() { sed -n "s/.*\"$2\": \\([0-9.]*\\).*/\\1/p" "$1/perf.json"; }

# measure NAME CLIENTS JOBS RUNS -- retrystorm args…
measure() {
  local name=$1 clients=$2 jobs=$3 n=$4; shift 5
  local walls=() processes=() events=0 rss=0
  for i in $(seq 1 "$n"); do
    local start end
    start=$(date +%s.%N)
    "$bin" "$@" --out "$tmp/run" --force --jobs "$jobs" > /dev/null 2>&1
    end=$(date +%s.%N)
    processes+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')")
    walls+=("$(field "$tmp/run" wall_s)")
    events=$(field "$tmp/run" events)
    local r; r=$(field "$tmp/run" peak_rss_bytes); [ "$r" -gt "$rss" ] && rss=$r
  done
  local sorted; sorted=$(printf '%s\n' "${walls[@]}" | sort -g)
  local median min max
  median=$(echo "$sorted" | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}')
  min=$(echo "$sorted" | head -1); max=$(echo "$sorted" | tail -1)
  local process
  process=$(printf '%s\n' "${processes[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}')
  local eps; eps=$(awk -v e="$events" -v w="$median" 'BEGIN {printf "%.0f", e / w}')
  local mib; mib=$(awk -v b="$rss" 'BEGIN {printf "%.0f", b / 1048576}')
  echo "$name,$clients,$jobs,$n,$events,$median,$min,$max,$eps,$mib,$process," | tee -a "$csv" >&2
}

measure bench-fleet 1000000 1 "$runs" -- run experiments/bench-fleet.yaml
for clients in 10000 100000 1000000 10000000; do
  [ "$clients" -gt "$max_clients" ] && continue
  capacity=$((clients / 50))
  n=$runs; [ "$clients" -gt 1000000 ] && n=1
  # At 10^7 clients the event estimate (an upper bound, 1.1 × 10^9) passes the default --max-events.
  measure scaling "$clients" 1 "$n" -- run experiments/bench-fleet.yaml \
    --set clients.count=$clients --set server.capacity=${capacity}/s --max-events 2000000000
done
measure event-queue-heap 1000000 1 1 -- run experiments/bench-fleet.yaml --event-queue heap
measure all-events 1000000 1 1 -- run experiments/bench-fleet.yaml --all-events
measure call-graph-chain 1000000 1 1 -- run experiments/bench-chain.yaml
measure map-20x20 6000 2 1 -- map experiments/metastable.yaml --grid clients.rate=0.02/s...0.045/s:lin:20 \
  --grid server.brownout.duration=1s...16s:log:20 --replications 20 --max-replications 20 --progress none
# rare writes no perf.json: the whole process, timed here, RUNS runs.
rare_walls=()
for i in $(seq 1 "$runs"); do
  start=$(date +%s.%N)
  "$bin" rare experiments/rare-collapse.yaml --event collapse --out "$tmp/rare" --force > /dev/null 2>&1
  end=$(date +%s.%N)
  rare_walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')")
done
rare_events=$(sed -n 's/.*"events_simulated" : \([0-9]*\).*/\1/p' "$tmp/rare/rare.json")
rare_sorted=$(printf '%s\n' "${rare_walls[@]}" | sort -g)
rare_median=$(echo "$rare_sorted" | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}')
echo "rare-years,1000,1,$runs,$rare_events,$rare_median,$(echo "$rare_sorted" | head -1),$(echo "$rare_sorted" | tail -1),$(awk -v e="$rare_events" -v w="$rare_median" 'BEGIN {printf "%.0f", e / w}'),,$rare_median," | tee -a "$csv" >&2
# The whole process's instructions per event. callgrind counts instructions, not seconds, so the
# figure is the same on a loaded machine; the copy without debug information keeps this
# valgrind from reading Swift's DWARF 5.
if command -v valgrind > /dev/null && command -v callgrind_annotate > /dev/null; then
  cp "$bin" "$tmp/retrystorm-stripped" && strip -g "$tmp/retrystorm-stripped"
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/retrystorm-stripped" run experiments/bench-fleet.yaml \
    --set clients.count=100000 --set server.capacity=2000/s --jobs 1 --out "$tmp/cg" --force > /dev/null 2>&1
  total=$(callgrind_annotate "$tmp/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  cg_events=$(field "$tmp/cg" events)
  echo "instructions,100000,1,1,$cg_events,,,,,,,$(awk -v i="$total" -v e="$cg_events" 'BEGIN {printf "%.1f", i / e}')" | tee -a "$csv" >&2
else
  echo "bench.sh: no valgrind, so no instructions row (apt-get install valgrind)" >&2
fi
swift build -c release --build-tests > "$tmp/build-tests.log" 2>&1 || { cat "$tmp/build-tests.log"; exit 1; }
RETRYSTORM_BENCH_CSV="$csv" RUNS="$runs" swift test -c release --skip-build --filter CustomPolicyBenchmark > "$tmp/custom.log" 2>&1 \
  || { cat "$tmp/custom.log"; exit 1; }
ratios=()
for i in $(seq 1 "$pairs"); do
  measure jobs 20000 1 1 -- compare experiments/jitter-comparison.yaml --replications 20
  one=$(field "$tmp/run" wall_s)
  measure jobs 20000 2 1 -- compare experiments/jitter-comparison.yaml --replications 20
  two=$(field "$tmp/run" wall_s)
  ratios+=("$(awk -v a="$one" -v b="$two" 'BEGIN {printf "%.3f", a / b}')")
done
sorted=$(printf '%s\n' "${ratios[@]}" | sort -g)
median=$(echo "$sorted" | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}')
echo "jobs-speedup,20000,2,$pairs,,$median,$(echo "$sorted" | head -1),$(echo "$sorted" | tail -1),,,," | tee -a "$csv" >&2
cp "$csv" "$out/bench.csv"
echo "wrote $out/bench.csv" >&2
