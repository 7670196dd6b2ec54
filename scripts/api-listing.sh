#!/usr/bin/env bash
# The public API of each library product, one declaration a line, sorted: api/RetryPolicy.txt (the
# RetryPolicy module) and api/RetryStormKit.txt (RetryStormKit and the modules it re-exports, which
# `import RetryStormKit` shows: Sources/RetryStormKit/Exports.swift). Read from the release build's
# modules with `swift symbolgraph-extract`, so it needs `make test` (or `swift build -c release`)
# first and builds nothing itself.
#
#   bash scripts/api-listing.sh          rewrite the listings
#   bash scripts/api-listing.sh --check  exit 1 with the difference when the build's public API is
#                                        not what the listings say, or when a public declaration
#                                        has no doc comment (CI runs this after make test)
#
# A change to the public API is then one that shows in the listings' diff in review: add, remove or
# change a public declaration and commit the listing the script writes with it.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: scripts/api-listing.sh [--check]" >&2; exit 2 ;;
esac
build=$("$SWIFT" build -c release --show-bin-path)
[ -d "$build/Modules" ] || { echo "api-listing.sh: no release build in $build: run make test first" >&2; exit 2; }
triple=$(basename "$(dirname "$build")")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/retrystorm-api.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# The C modules the Swift modules import (GSL, the shims, Yams' CYaml): their module maps and headers.
clang=()
for map in "$build"/*.build/module.modulemap Sources/*/module.modulemap; do
  [ -f "$map" ] && clang+=(-Xcc "-fmodule-map-file=$map")
done
while IFS= read -r dir; do clang+=(-Xcc -I -Xcc "$dir"); done < <(find Sources .build/checkouts -type d -name include -not -path "*/.build/*-*/*" 2>/dev/null)

listing() { # product, modules…
  local product=$1; shift
  local out=$scratch/$product
  mkdir -p "$out"
  for module in "$@"; do
    "$SWIFT" symbolgraph-extract -module-name "$module" -I "$build/Modules" -target "$triple" \
      -minimum-access-level public -skip-synthesized-members -skip-inherited-docs -output-dir "$out" "${clang[@]}" > "$scratch/$module.log" 2>&1 \
      || { cat "$scratch/$module.log" >&2; echo "api-listing.sh: cannot read module $module" >&2; exit 1; }
  done
  python3 - "$out" "$product" "$@" > "$scratch/$product.txt" <<'PY'
import json, os, re, sys
folder, product, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = set()
undocumented = set()
derived = set()
for name in sorted(os.listdir(folder)):
    graph = json.load(open(os.path.join(folder, name)))
    module = name[: -len(".symbols.json")]  # "RetryStormKit" or "RetryStormKit@RetryStormReport" (extensions)
    for s in graph["symbols"]:
        if s.get("accessLevel") not in ("public", "open"):
            continue
        declaration = re.sub(r"\s+", " ", "".join(f["spelling"] for f in s.get("declarationFragments", []))).strip()
        line = f"{module}  {'.'.join(s['pathComponents'])}  {declaration}"
        lines.add(line)
        if s.get("docComment"):
            continue
        # Members the compiler derives for a conformance (a raw-value enum's init(rawValue:),
        # Codable's init(from:)) have no source to comment: their protocol documents them.
        (undocumented if "location" in s else derived).add(line)
with open(os.path.join(os.path.dirname(folder), product + ".undocumented"), "w") as f:
    f.writelines(line + "\n" for line in sorted(undocumented))
print(f"# The public API of the {product} product ({', '.join(modules)}): {len(lines)} declarations, {len(undocumented)} without a doc comment"
      f" ({len(derived)} more derived by the compiler for a conformance).")
print("# Written by scripts/api-listing.sh from the release build; CI fails when the build differs from it.")
for line in sorted(lines):
    print(line)
PY
}

exports=$(sed -n 's/^@_exported import \([A-Za-z]*\)$/\1/p' Sources/RetryStormKit/Exports.swift)
# shellcheck disable=SC2086 # one module name per word
listing RetryStormKit RetryStormKit $exports
listing RetryPolicy RetryPolicy

mkdir -p api
status=0
for product in RetryPolicy RetryStormKit; do
  if [ "$check" = 1 ]; then
    if ! diff -u "api/$product.txt" "$scratch/$product.txt" > "$scratch/$product.diff"; then
      echo "api-listing.sh: the public API of $product is not what api/$product.txt lists (bash scripts/api-listing.sh rewrites it; commit it with the change):" >&2
      head -60 "$scratch/$product.diff" >&2
      status=1
    fi
    # Every public declaration says what it is for: units, contracts (docs/swift-api.md).
    if [ -s "$scratch/$product.undocumented" ]; then
      echo "api-listing.sh: public declarations of $product without a doc comment:" >&2
      head -40 "$scratch/$product.undocumented" >&2
      status=1
    fi
  else
    cp "$scratch/$product.txt" "api/$product.txt"
    echo "api/$product.txt: $(($(wc -l < "api/$product.txt") - 2)) declarations"
  fi
done
exit "$status"
