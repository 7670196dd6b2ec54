#!/usr/bin/env bash
# The package as an app's package uses it: by URL and revision, as an app names this repository on
# its code host. examples/AppPolicyCheck names this checkout's HEAD through a file:// URL
# (RETRYSTORM_PACKAGE_URL and RETRYSTORM_REVISION, which its manifest reads), so SwiftPM clones the
# repository and resolves it as it would from a code host. Then its app target alone (AppRetry,
# on the RetryPolicy product) is built in a scratch directory of its own, and the build log must
# show RetryPolicy compiled and nothing of the simulator: no GSL, Yams or swift-argument-parser.
#
# CI runs it, then `make example` and `make results` with the same two variables exported, so the
# example's tests (a scenario through RetryStormKit and a release gate) also run by URL, and the
# example is compiled once. HEAD is what the URL build sees: uncommitted changes are not in it.
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

# The release by version, as the docs write it: `.package(url:, from: "X.Y.Z")` with X.Y.Z the
# version `retrystorm --version` prints. A package of one app target, made here (the example may
# use API newer than the release), resolves the tag, builds RetryPolicy alone and runs. Without
# the tag in this clone (a shallow one), it says so and checks nothing more.
version=$(sed -n 's/.*static let current = "\([0-9.]*\)".*/\1/p' Sources/RetryStormVocabulary/RetryStormVersion.swift)
if ! git rev-parse -q --verify "refs/tags/$version" > /dev/null; then
  echo "check-consumer.sh: no tag $version in this clone: the release is not checked by version" >&2
  exit 0
fi
app=$scratch/release-app
mkdir -p "$app/Sources/App"
cat > "$app/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "ReleaseApp",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "$RETRYSTORM_PACKAGE_URL", from: "$version")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "RetryPolicy", package: "$(basename "${RETRYSTORM_PACKAGE_URL%.git}")")])]
)
SWIFT
cat > "$app/Sources/App/main.swift" <<'SWIFT'
import RetryPolicy
// The gRPC preset is A6's example retryPolicy (grpc/proposal A6-client-retries.md): maxAttempts 4.
print(RetryPolicy.grpc.maxAttempts)
SWIFT
log=$scratch/release.log
if ! "$SWIFT" build -c release --package-path "$app" --scratch-path "$scratch/release-build" > "$log" 2>&1; then
  cat "$log" >&2
  echo "check-consumer.sh: an app does not build on RetryPolicy from $RETRYSTORM_PACKAGE_URL, from: \"$version\"" >&2
  exit 1
fi
printed=$("$scratch/release-build/release/App")
if ! grep -q "resolved at $version" "$log" || [ "$printed" != 4 ] \
  || grep -qE "Compiling (GSLSupport|CGSL[A-Za-z]*|RetryStorm[A-Za-z]*|Yams|ArgumentParser[A-Za-z]*) " "$log"; then
  cat "$log" >&2
  echo "check-consumer.sh: from: \"$version\" did not resolve the tag, compiled the simulator, or printed '$printed' for the gRPC preset's 4 attempts" >&2
  exit 1
fi
echo "check-consumer.sh: an app builds on RetryPolicy from $RETRYSTORM_PACKAGE_URL with from: \"$version\" (tag $version), compiling RetryPolicy alone"
