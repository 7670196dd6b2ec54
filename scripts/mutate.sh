#!/usr/bin/env bash
# Mutation check: plants one-line bugs, one at a time, and says which ones the tests miss.
#
#   bash scripts/mutate.sh              # every mutant
#   bash scripts/mutate.sh lifo gate-le # the named ones
#   bash scripts/mutate.sh --list       # the mutants, one a line
#
# Each mutant is a one-line change to the engine, the statistics, the gates or the policy library
# (a comparison moved at equality, a cap dropped, a queue order lost, a jitter range widened …).
# Nothing is changed in this checkout: the script clones it into a scratch directory under
# $TMPDIR (with the checkout's uncommitted and untracked changes applied, so a change can be
# checked before it is committed), builds it once, checks the suites pass unmutated, then for each
# mutant edits the one line, builds again (incrementally), runs the suites that should catch it
# under a time limit (a livelock fails by its timeout), and puts the line back.
#
# A mutant in the policy library is run against both the library's own tests (RetryPolicyTests)
# and the simulator's engine suites, which drive the same code through the event loop: the summary
# says which caught it. To keep builds short, the scratch clone's Package.swift keeps only the
# test targets the mutants need (RetryPolicyTests, GSLSupportTests, RetryStormEngineTests,
# RetryStormResultsTests); the CLI, the kit, the report and the charts are not built.
#
# Output: one line per mutant (caught, SURVIVED, or did not build) and a score; the log of each
# build and test run stays in the scratch directory, which is removed unless --keep is given.
# Exit status: 0 when every mutant was caught, 1 when one survived, 2 on a usage or setup error.
# Time: about 35 minutes for the first 19 on a 2-core machine (the first build is most of it); the
# eleven added for issue 39 (refused-retry, edge-*, lifecycle-*, hedge-*: the shared attempt life
# cycle and hedge handlers in LifeCycle/, and the graph as their host) add an incremental build and
# a suite run each.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SWIFT=${SWIFT:-swift}
# How long one mutant's suites may run, seconds: they take seconds unmutated, so a mutant still
# running after 6 minutes is a livelock, caught here before the suites' own time limits (10 minutes,
# set for a loaded machine) would end the run.
TEST_TIMEOUT=${TEST_TIMEOUT:-360}
KEEP=0

# name | file | the line's text as committed (exactly one occurrence) | the mutant | simulator suites | policy suites
# Suites are `swift test --filter` patterns; empty: those suites are not run.
MUTANTS=$(cat <<'EOF'
lifo|Sources/RetryStormEngine/Server/QueueServer.swift|lifo = m.lifo|lifo = false|RetryStormEngineTests|
rate-limit-cap|Sources/RetryStormEngine/Server/RateLimiter.swift|tokens = min(limit.burst, tokens + Double(now &- updated) / 1e9 * limit.rate)|tokens = tokens + Double(now &- updated) / 1e9 * limit.rate|RetryStormEngineTests|
queue-limit|Sources/RetryStormEngine/Server/FIFOQueueServer.swift|if exactQueue && starts.count >= limit {|if exactQueue && starts.count > limit {|RetryStormEngineTests|
quantile-buffer|Sources/GSLSupport/Statistics.swift|xs.isEmpty ? .nan : gsl_stats_quantile_from_sorted_data(xs.baseAddress, 1, xs.count, f)|xs.isEmpty ? .nan : gsl_stats_quantile_from_sorted_data(xs.baseAddress, 1, xs.count - 1, f)|GSLSupportTests|
gate-le|Sources/RetryStormResults/Expectation.swift|case .le: x <= y|case .le: x < y|RetryStormResultsTests|
gate-ci95-low|Sources/RetryStormResults/Expectation.swift|case .ci95Low: ci.low|case .ci95Low: ci.mean|RetryStormResultsTests|
token-bucket-cap|Sources/RetryPolicy/Budgets/TokenBucket.swift|Swift.min(capacityMicros, s.tokens &+ Int64(added))|s.tokens &+ Int64(added)|RetryStormEngineTests|RetryPolicyTests
breaker-half-open|Sources/RetryPolicy/Breaker/CircuitBreakerState.swift|guard now >= until else { return .blocked(until: until) }|guard now > until else { return .blocked(until: until) }|RetryStormEngineTests|RetryPolicyTests
breaker-rate-threshold|Sources/RetryPolicy/Breaker/CircuitBreaker.swift|return comparison == .atLeast ? rate >= failureRateThreshold : rate > failureRateThreshold|return comparison == .atLeast ? rate > failureRateThreshold : rate > failureRateThreshold|RetryStormEngineTests|RetryPolicyTests
breaker-consecutive|Sources/RetryPolicy/Breaker/CircuitBreakerState.swift|if Int(c.consecutiveFailures) >= n {|if Int(c.consecutiveFailures) > n {|RetryStormEngineTests|RetryPolicyTests
backoff-cap|Sources/RetryPolicy/Backoff/Backoff.swift|return capAfterJitter ? raw : Swift.min(raw, Double(max))|return raw|RetryStormEngineTests|RetryPolicyTests
equal-jitter-range|Sources/RetryPolicy/Backoff/Backoff.swift|d = d / 2 + random.nextUniform() * (d / 2)|d = d / 2 + random.nextUniform() * d|RetryStormEngineTests|RetryPolicyTests
classifier-503|Sources/RetryPolicy/Classification/Classifier.swift|retryableStatuses: StatusSet = [500, 502, 503, 504],|retryableStatuses: StatusSet = [500, 502, 504],|RetryStormEngineTests|RetryPolicyTests
retry-after-at-least|Sources/RetryPolicy/ServerHints/ServerHintPolicy.swift|case .atLeast: return (Swift.max(backoff, h), false)|case .atLeast: return (Swift.min(backoff, h), false)|RetryStormEngineTests|RetryPolicyTests
grpc-threshold|Sources/RetryPolicy/Budgets/RetryBudgetState.swift|return tokens > g.thresholdMilliTokens|return tokens >= g.thresholdMilliTokens|RetryStormEngineTests|RetryPolicyTests
aws-refund-cap|Sources/RetryPolicy/Budgets/AWSRetryQuota.swift|s.tokens = Swift.min(Int64(capacity), s.tokens &+ back)|s.tokens = s.tokens &+ back|RetryStormEngineTests|RetryPolicyTests
finagle-withdraw|Sources/RetryPolicy/Budgets/FinagleRetryBudget.swift|guard count(&s, now: now) >= withdrawalAmount else { return false }|guard count(&s, now: now) > withdrawalAmount else { return false }|RetryStormEngineTests|RetryPolicyTests
error-window-end|Sources/RetryStormEngine/Server/ErrorInjector.swift|UInt64(bitPattern: now &- from) < span ? count : .max|UInt64(bitPattern: now &- from) <= span ? count : .max|RetryStormEngineTests|
error-status-503|Sources/RetryStormEngine/Server/ErrorInjector.swift|transient = mix.serverErrorStatus == .unavailable ? .unavailable : .serverError|transient = .serverError|RetryStormEngineTests|
refused-retry|Sources/RetryStormEngine/Recording/Recorder+Refusals.swift|let refusedRetry = retry && reason.refusesRetry|let refusedRetry = reason.refusesRetry|RetryStormEngineTests|
edge-confirmed-tally|Sources/RetryStormEngine/Graph/GraphServer+Calls.swift|edgeCalls[e].confirmed &+= 1|edgeCalls[e].confirmed &+= 0|RetryStormEngineTests|
edge-query-applied|Sources/RetryStormEngine/Graph/GraphServer.swift|if tracksApplied && !r.query && code == .ok && kind != .dropped { callApplied(r.parent, r.parentGeneration, at: s) }|if tracksApplied && !r.query && code == .ok && kind == .response { callApplied(r.parent, r.parentGeneration, at: s) }|RetryStormEngineTests|
edge-deadline-cut|Sources/RetryStormEngine/Graph/GraphCall.swift|@inline(__always) func cut(_ t: Int64) -> Int64 { min(t, parentDeadline) }|@inline(__always) func cut(_ t: Int64) -> Int64 { t }|RetryStormEngineTests|
edge-queries-out|Sources/RetryStormEngine/Graph/GraphServer+AttemptHost.swift|if query { callsOut[to].queries &+= 1 } else { callsOut[to].attempts &+= 1 }|if query { callsOut[to].queries &+= 0 } else { callsOut[to].attempts &+= 1 }|RetryStormEngineTests|
lifecycle-reconcile-applied|Sources/RetryStormEngine/LifeCycle/AttemptHost+Outcomes.swift|reconciled(op, code == .ok ? (hasApplied(op) ? .applied : .notApplied) : .unknown, now, lent, loop)|reconciled(op, code == .ok ? .notApplied : .unknown, now, lent, loop)|RetryStormEngineTests|
lifecycle-budget-refused|Sources/RetryStormEngine/LifeCycle/AttemptHost+Outcomes.swift|if reason == .budgetExhausted { retryRefusedByBudget(op, now) }|if reason == .circuitOpen { retryRefusedByBudget(op, now) }|RetryStormEngineTests|
lifecycle-wake|Sources/RetryStormEngine/LifeCycle/AttemptHost+Outcomes.swift|wake(g, now, lent, loop)|_ = g|RetryStormEngineTests|
hedge-copy-restarts|Sources/RetryStormEngine/LifeCycle/AttemptHost+Hedging.swift|launch(op, guard: g, copy: true, now, lent, loop)|launch(op, guard: g, copy: false, now, lent, loop)|RetryStormEngineTests|
hedge-outrun-kept|Sources/RetryStormEngine/LifeCycle/AttemptHost+Hedging.swift|copiesAbandoned(op, win.outrun, base: win.base, cancel: true, now)|copiesAbandoned(op, win.outrun, base: win.base, cancel: false, now)|RetryStormEngineTests|
hedge-timeout-window|Sources/RetryStormEngine/LifeCycle/AttemptHost+Hedging.swift|withLatencies(op) { $0?.record(outFor, now: now.time) }|_ = outFor|RetryStormEngineTests|
EOF
)

WANTED=()
for arg in "$@"; do
  case "$arg" in
    --keep) KEEP=1 ;;
    --list) echo "$MUTANTS" | cut -d'|' -f1,2; exit 0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "mutate.sh: unknown option $arg" >&2; exit 2 ;;
    # grep without -q reads all its input: -q exits at the first match, and under pipefail the
    # writer's SIGPIPE would fail the pipeline for a name that is there.
    *) echo "$MUTANTS" | cut -d'|' -f1 | grep -x -- "$arg" > /dev/null || { echo "mutate.sh: no mutant named $arg (--list)" >&2; exit 2; }
       WANTED+=("$arg") ;;
  esac
done

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/retrystorm-mutate.XXXXXX")
SRC=$SCRATCH/src
cleanup() { if [ "$KEEP" = 1 ]; then echo "scratch kept: $SCRATCH"; else rm -rf "$SCRATCH"; fi; }
trap cleanup EXIT
started=$(date +%s)
elapsed() { local s=$(( $(date +%s) - started )); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# The clone, with what the checkout has not committed yet.
git clone --quiet --no-hardlinks "$ROOT" "$SRC"
git -C "$ROOT" diff HEAD --binary > "$SCRATCH/uncommitted.patch"
if [ -s "$SCRATCH/uncommitted.patch" ]; then git -C "$SRC" apply --whitespace=nowarn "$SCRATCH/uncommitted.patch"; fi
(cd "$ROOT" && git ls-files --others --exclude-standard -z | xargs -0 -r cp --parents -t "$SRC")

# Only the test targets the mutants need (each `.testTarget(...)` entry is dropped whole).
python3 - "$SRC/Package.swift" <<'PY'
import re, sys
path = sys.argv[1]
keep = {"RetryPolicyTests", "GSLSupportTests", "RetryStormEngineTests", "RetryStormResultsTests"}
s = open(path).read()
out, i = [], 0
for m in re.finditer(r'\.testTarget\(', s):
    if m.start() < i:
        continue
    depth, j = 0, m.end() - 1
    while True:
        depth += {'(': 1, ')': -1}.get(s[j], 0)
        if depth == 0:
            break
        j += 1
    name = re.search(r'name:\s*"([^"]+)"', s[m.start():j]).group(1)
    if name not in keep:
        end = j + 1
        if s[end:end + 1] == ",":
            end += 1
        out.append(s[i:m.start()])
        i = end
out.append(s[i:])
open(path, "w").write("".join(out))
PY

build_root() { (cd "$SRC" && "$SWIFT" build -c release --product RetryStormPackageTests) > "$1" 2>&1; }
# Runs the suites; 0 when they pass. A run cut by the timeout fails. The test bundle runs
# directly, not under `swift test`: swift-test starts it in a process group of its own, which a
# timeout that ends swift-test leaves running (Linux: the bundle is an executable).
test_root() { (cd "$SRC" && timeout -k 10 "$TEST_TIMEOUT" .build/release/RetryStormPackageTests.xctest --testing-library swift-testing --filter "$2") > "$1" 2>&1; }
test_policy() { test_root "$@"; }

echo "mutate.sh: scratch clone in $SCRATCH; building it unmutated"
build_root "$SCRATCH/base-build-root.log" || { echo "the unmutated root package does not build: $SCRATCH/base-build-root.log" >&2; KEEP=1; exit 2; }
for f in GSLSupportTests RetryStormEngineTests RetryStormResultsTests; do
  test_root "$SCRATCH/base-test-$f.log" "$f" || { echo "$f fails unmutated ($SCRATCH/base-test-$f.log): fix that first" >&2; KEEP=1; exit 2; }
done
test_policy "$SCRATCH/base-test-policy.log" RetryPolicyTests || { echo "RetryPolicyTests fail unmutated" >&2; KEEP=1; exit 2; }
echo "mutate.sh: unmutated build passes its suites ($(elapsed)); planting mutants"

caught=0; survived=0; total=0; stillborn=0
SURVIVORS=()
while IFS='|' read -r name file original mutant root_suites policy_suites; do
  [ -n "$name" ] || continue
  if [ ${#WANTED[@]} -gt 0 ] && ! printf '%s\n' "${WANTED[@]}" | grep -x -- "$name" > /dev/null; then continue; fi
  total=$((total + 1))
  target=$SRC/$file
  cp "$target" "$SCRATCH/pristine"
  if ! ORIG=$original REPL=$mutant perl -0pi -e '$n = s/\Q$ENV{ORIG}\E/$ENV{REPL}/g; die "expected one occurrence, found $n\n" unless $n == 1' "$target"; then
    echo "mutate.sh: $name: the line is not in $file as written (update the mutant)" >&2; KEEP=1; exit 2
  fi
  log=$SCRATCH/$name
  verdict=""; by=()
  # One build holds both the policy library's suites and the simulator's.
  if ! build_root "$log-build-root.log"; then verdict="did not build"
  else
    if [ -n "$policy_suites" ] && ! test_policy "$log-test-policy.log" "$policy_suites"; then by+=("RetryPolicyTests"); fi
    if [ -n "$root_suites" ] && ! test_root "$log-test-root.log" "$root_suites"; then by+=("simulator"); fi
  fi
  cp "$SCRATCH/pristine" "$target"
  if [ "$verdict" = "did not build" ]; then
    stillborn=$((stillborn + 1))
    printf '  %-24s did not build (%s)\n' "$name" "$log-build-*.log"
  elif [ ${#by[@]} -gt 0 ]; then
    caught=$((caught + 1))
    printf '  %-24s caught by %s  [%s]\n' "$name" "$(IFS=+; echo "${by[*]}")" "$(elapsed)"
  else
    survived=$((survived + 1)); SURVIVORS+=("$name")
    printf '  %-24s SURVIVED  %s: %s → %s  [%s]\n' "$name" "$file" "$original" "$mutant" "$(elapsed)"
  fi
done <<< "$MUTANTS"

echo "mutate.sh: $caught of $total caught, $survived survived, $stillborn did not build ($(elapsed))"
if [ "$survived" -gt 0 ]; then
  echo "survivors: ${SURVIVORS[*]} — add a test that fails on each"
  exit 1
fi
