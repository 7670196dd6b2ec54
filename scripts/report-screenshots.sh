#!/usr/bin/env bash
# The first screen (1280 × 800 px) of two committed reports, as docs/report-and-charts.md shows
# them: a comparison (jitter-comparison) and a tune (tune-delays). Run after `make results`
# when the report's first screen changes; needs chromium (apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/images
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
for study in jitter-comparison tune-delays; do
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$profile" \
    --window-size=1280,800 --screenshot="docs/images/report-$study.png" "file://$PWD/results/$study/report.html" 2>/dev/null >/dev/null
  echo "docs/images/report-$study.png"
done
