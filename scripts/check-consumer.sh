#!/usr/bin/env bash
# The package as an app's package uses it: by URL and revision, as an app names this repository on
# its code host. examples/AppPolicyCheck names this checkout's HEAD through a file:// URL
# (RETRYSTORM_PACKAGE_URL and RETRYSTORM_REVISION, which its manifest reads), so SwiftPM clones the
# repository and resolves it as it would from a code host. Then its app target alone (AppRetry,
# on the RetryPolicy product) is built in a scratch directory of its own, and the build log must
# show RetryPolicy compiled and nothing of the simulator: no GSL, Yams or swift-argument-parser.
#
# Resolving the app target resolves the whole example, RetryStormKit included. The example's tests
# (a scenario through RetryStormKit and a release gate) run in `make test`, which builds the
# example's targets from their sources on the simulator compiled once (Package.swift), so CI does
# not compile the simulator again for the example. HEAD is what the URL build sees: uncommitted
# changes are not in it.
#
# Usage: bash scripts/check-consumer.sh        Exit status: 0 when the checks hold, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
export RETRYSTORM_PACKAGE_URL=${RETRYSTORM_PACKAGE_URL:-file://$(pwd)}
export RETRYSTORM_REVISION=${RETRYSTORM_REVISION:-$(git rev-parse HEAD)}
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "check-consumer.sh: warning: uncommitted changes are not checked: the URL build uses $RETRYSTORM_REVISION" >&2
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/retrystorm-consumer.XXXXXX")
resolved=examples/AppPolicyCheck/Package.resolved
cp "$resolved" "$scratch/Package.resolved.committed"
# The URL build pins the revision in the example's Package.resolved: put the committed one back.
trap 'cp "$scratch/Package.resolved.committed" "$resolved"; rm -rf "$scratch"' EXIT

log=$scratch/app.log
if ! "$SWIFT" build -c release --package-path examples/AppPolicyCheck --scratch-path "$scratch/build" --target AppRetry > "$log" 2>&1; then
  cat "$log" >&2
  echo "check-consumer.sh: the app target does not build from $RETRYSTORM_PACKAGE_URL at $RETRYSTORM_REVISION" >&2
  exit 1
fi
fail=0
# SwiftPM makes a working copy of a URL dependency at the revision; a path dependency has none.
if ! grep -q "resolved at $RETRYSTORM_REVISION" "$log"; then
  echo "check-consumer.sh: no working copy resolved at $RETRYSTORM_REVISION: was the package used by path?" >&2
  fail=1
fi
if ! grep -q "Compiling RetryPolicy " "$log"; then
  echo "check-consumer.sh: RetryPolicy was not compiled for the app target" >&2
  fail=1
fi
others=$(grep -oE "Compiling (GSLSupport|CGSL[A-Za-z]*|CPrefetch|CSpawn|SVGCharts|RetryStorm[A-Za-z]*|retrystorm|Yams|CYaml|ArgumentParser[A-Za-z]*) " "$log" | sort -u || true)
if [ -n "$others" ]; then
  echo "check-consumer.sh: the app target compiled what only the simulator needs:" >&2
  echo "$others" >&2
  fail=1
fi
if [ "$fail" = 0 ]; then
  echo "check-consumer.sh: AppRetry builds on the RetryPolicy product from $RETRYSTORM_PACKAGE_URL at ${RETRYSTORM_REVISION:0:12}; compiled: $(grep -oE "Compiling [A-Za-z]+ " "$log" | sort -u | cut -d" " -f2 | paste -sd, -)"
else
  cat "$log" >&2
  exit "$fail"
fi

# The dependency line the docs show, exactly: docs/install.md's `.package(url: "https://…/retrystorm.git", …)`
# with this repository's URL in place of the placeholder, and the same requirement on every page
# that shows one. A package of one app target, made here (the example may use API newer than a
# release), resolves it as an app would, builds RetryPolicy alone and runs. A requirement that
# does not resolve (a tag this repository lacks, a branch it does not have) fails the check.
pattern='\.package\(url: "https://…/retrystorm\.git", [^)]*\)'
line=$(grep -oE "$pattern" docs/install.md | head -1)
if [ -z "$line" ]; then
  echo "check-consumer.sh: docs/install.md shows no .package(url: \"https://…/retrystorm.git\", …) line" >&2
  exit 1
fi
requirement=${line#*retrystorm.git\", }
requirement=${requirement%)}
others=$(grep -ohE "$pattern" README.md docs/*.md | sort -u)
if [ "$others" != "$line" ]; then
  echo "check-consumer.sh: the docs show different dependency lines; they must all be docs/install.md's:" >&2
  echo "$others" >&2
  exit 1
fi
app=$scratch/docs-app
mkdir -p "$app/Sources/App"
cat > "$app/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "DocsApp",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "$RETRYSTORM_PACKAGE_URL", $requirement)],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "RetryPolicy", package: "$(basename "${RETRYSTORM_PACKAGE_URL%.git}")")])]
)
SWIFT
cat > "$app/Sources/App/main.swift" <<'SWIFT'
import RetryPolicy
// The gRPC preset is A6's example retryPolicy (grpc/proposal A6-client-retries.md): maxAttempts 4.
print(RetryPolicy.grpc.maxAttempts)
SWIFT
log=$scratch/docs-app.log
if ! "$SWIFT" build -c release --package-path "$app" --scratch-path "$scratch/docs-app-build" > "$log" 2>&1; then
  cat "$log" >&2
  echo "check-consumer.sh: the docs' dependency line, $requirement, does not resolve and build from $RETRYSTORM_PACKAGE_URL" >&2
  exit 1
fi
printed=$("$scratch/docs-app-build/release/App")
if [ "$printed" != 4 ] || grep -qE "Compiling (GSLSupport|CGSL[A-Za-z]*|RetryStorm[A-Za-z]*|Yams|ArgumentParser[A-Za-z]*) " "$log"; then
  cat "$log" >&2
  echo "check-consumer.sh: with $requirement the app compiled the simulator, or printed '$printed' for the gRPC preset's 4 attempts" >&2
  exit 1
fi
# This repository's working copy (the log resolves its dependencies too), named by path for a file URL.
at=$(grep -F "Working copy of ${RETRYSTORM_PACKAGE_URL#file://} " "$log" | grep -oE "resolved at [^ ]+( \([0-9a-f]+\))?" | head -1)
echo "check-consumer.sh: an app builds on RetryPolicy from $RETRYSTORM_PACKAGE_URL with the docs' $requirement (${at:-resolved}), compiling RetryPolicy alone"
