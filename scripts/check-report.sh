#!/usr/bin/env bash
# Checks report pages as a person sees them, in Debian's headless Chromium (issue 14):
#   - at 1280 px and at 800 px wide, no element is wider than the viewport (or left of it) and the
#     page does not scroll sideways; every figure holds a chart that renders with a size;
#   - the same in the print layout (the page's print styles applied) at the width of A4 and of
#     Letter paper between the page's 12 mm margins: 703 px and 725 px (Chromium's PDF clips what
#     sticks out, so a PDF cannot show it);
#   - printed to PDF on A4 and on Letter, the pages are that size and the PDF's text names every
#     variant of the study (summary.csv).
# Usage: scripts/check-report.sh [report.html ...]   (default: every results/*/report.html)
# Needs chromium and pdftotext (Debian: apt-get install -y chromium poppler-utils).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in chromium pdftotext; do
  command -v "$tool" >/dev/null || { echo "check-report: $tool is missing (apt-get install -y chromium poppler-utils)" >&2; exit 2; }
done

# --self-test: the check must fail on four broken copies of a page (an element wider than the
# page, one wider than the paper in print only, a chart that does not render, a variant the page
# does not name), each for its reason.
if [ "${1:-}" = "--self-test" ]; then
  shift
  page=${1:-results/jitter-comparison/report.html}
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  broken() {  # broken NAME SED-SCRIPT: a copy of the page's directory with the page edited
    mkdir -p "$tmp/$1" && cp "$(dirname "$page")/summary.csv" "$tmp/$1/" && sed "$2" "$page" > "$tmp/$1/report.html"
  }
  broken wide 's#<main>#<main><div style="width: 1500px">a wide table</div>#'
  broken printwide 's#<main>#<main><style>@media print { .printwide { width: 760px } }</style><div class="printwide">wide in print only</div>#'
  broken blank '0,/<svg xmlns/s//<svg style="display: none" xmlns/'
  broken unnamed ''
  echo "a-variant-the-page-never-names,0" >> "$tmp/unnamed/summary.csv"
  status=0
  expect() {  # expect NAME TEXT: the check fails on NAME saying TEXT
    local out
    if out=$(bash "$0" "$tmp/$1/report.html" 2>&1); then echo "check-report self-test: $1 passed, but it is broken" >&2; status=1
    elif ! grep -qF "$2" <<<"$out"; then echo "check-report self-test: $1 failed without '$2':"$'\n'"$out" >&2; status=1
    else echo "check-report self-test: $1 fails: $(grep -F "$2" <<<"$out" | head -1 | sed 's/^ *//')"; fi
  }
  expect wide "wider than the page: div \"a wide table\""
  expect printwide "print layout on A4 (703 px):"
  expect blank "image does not render"
  expect unnamed "lacks variant 'a-variant-the-page-never-names'"
  exit $status
fi

pages=("$@")
if [ ${#pages[@]} -eq 0 ]; then
  shopt -s nullglob
  pages=(results/*/report.html)
fi
[ ${#pages[@]} -gt 0 ] || { echo "check-report: no report.html to check" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Chromium without a display, a sandbox (CI runs as root) or a GPU; its own profile per run so
# that two checks never share one. Messages about D-Bus and the like go to stderr: dropped.
browse() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$work/profile" "$@" 2>/dev/null
}

# Measured at the end of the page, after layout: what sticks out of the viewport (elements
# inside a chart are left to the chart, which is one scaled image), the sideways scroll, and each
# figure's chart. The result goes into the DOM, which --dump-dom prints.
read -r -d '' probe <<'JS' || true
<script>
(function () {
  var vw = document.documentElement.clientWidth, problems = [];
  function name(e) {
    var text = (e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined && e.className ? '.' + e.className : '') + (text ? ' "' + text + '"' : '');
  }
  var all = document.body.querySelectorAll('*');
  for (var i = 0; i < all.length; i++) {
    var e = all[i];
    if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
    var r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > vw + 0.5 || r.left < -0.5) problems.push('wider than the page: ' + name(e) + ' spans ' + Math.round(r.left) + ' to ' + Math.round(r.right) + ' px of ' + vw);
  }
  var sw = document.documentElement.scrollWidth;
  if (sw > vw) problems.push('the page scrolls sideways: ' + sw + ' px wide in a ' + vw + ' px viewport');
  var figures = document.querySelectorAll('figure');
  for (var j = 0; j < figures.length; j++) {
    var img = figures[j].querySelector('svg, img');
    var file = figures[j].querySelector('.file');
    var what = file ? file.textContent : 'figure ' + (j + 1);
    if (!img) { problems.push('no image in ' + what); continue; }
    var b = img.getBoundingClientRect();
    var drawn = img.tagName.toLowerCase() === 'img' ? (img.complete && img.naturalWidth > 0)
      : (img.querySelectorAll('path, rect, line, circle, polyline').length > 0 && img.querySelectorAll('text').length > 0);
    if (!drawn || b.width < 200 || b.height < 100) problems.push('image does not render: ' + what + ' (' + Math.round(b.width) + ' x ' + Math.round(b.height) + ' px)');
  }
  var out = document.createElement('pre');
  out.id = 'check-report';
  out.textContent = 'CHECK ' + figures.length + ' figures\n' + problems.slice(0, 12).join('\n') + (problems.length > 12 ? '\n… and ' + (problems.length - 12) + ' more' : '');
  document.body.appendChild(out);
})();
</script>
JS

failed=0
fail() { echo "check-report: $1" >&2; failed=1; }

for page in "${pages[@]}"; do
  dir=$(dirname "$page")
  checked="$work/page.html"
  page_failed=$failed
  failed=0
  # The page with the probe before </body> (the report itself holds no script), and a copy with
  # its print styles applied on screen.
  { sed '/<\/body>/,$d' "$page"; printf '%s\n</body>\n</html>\n' "$probe"; } > "$checked"
  sed 's/@media print/@media all/' "$checked" > "$work/print-layout.html"
  for layout in "1280 screen" "800 screen" "703 A4" "725 Letter"; do
    read -r width medium <<<"$layout"
    file=$checked
    [ "$medium" = screen ] || file="$work/print-layout.html"
    width_text="$width px"
    [ "$medium" = screen ] || width_text="the print layout on $medium ($width px)"
    dom=$(browse --window-size="$width,1000" --dump-dom "file://$file")
    result=$(printf '%s\n' "$dom" | sed -n '/<pre id="check-report">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
    if ! printf '%s\n' "$result" | grep -q '^CHECK '; then
      fail "$page at $width_text: the page did not finish loading"
      continue
    fi
    figures=$(printf '%s\n' "$result" | sed -n 's/^CHECK \([0-9]*\) figures$/\1/p')
    [ "$figures" -gt 0 ] || fail "$page at $width_text: no charts"
    problems=$(printf '%s\n' "$result" | grep -v '^CHECK ' | grep -v '^$' || true)
    [ -z "$problems" ] || fail "$page at $width_text:"$'\n'"$(printf '%s\n' "$problems" | sed 's/^/  /' | sed 's/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g')"
  done

  # Every variant of the study must be named in the printed text (a column cut off in print is
  # how a variant gets lost). Names are compared without white space: a table cell may break
  # "equal-jitter" across two lines.
  variants=$(awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$dir/summary.csv")
  for paper in A4 Letter; do
    sized="$work/print.html"
    sed 's#</head>#<style>@page { size: '"$paper"'; }</style></head>#' "$page" > "$sized"
    pdf="$work/page.pdf"
    rm -f "$pdf"
    browse --no-pdf-header-footer --print-to-pdf="$pdf" "file://$sized" >/dev/null
    [ -s "$pdf" ] || { fail "$page on $paper: Chromium printed no PDF"; continue; }
    size=$(pdfinfo "$pdf" 2>/dev/null | sed -n 's/^Page size: *\([0-9.]*\) x.*/\1/p')
    case "$paper" in A4) want=595 ;; Letter) want=612 ;; esac
    awk -v a="$size" -v b="$want" 'BEGIN { exit !(a - b < 1 && b - a < 1) }' || fail "$page on $paper: printed $size pt wide, not $want"
    # The layout, reading-order and raw texts: a grid point's long name wraps after a "+"
    # in its table cell, and where a page breaks, only one of them may keep its two lines together.
    text=$( { pdftotext -layout "$pdf" -; pdftotext "$pdf" -; pdftotext -raw "$pdf" -; } | tr -d ' \t\n\r\f')
    for v in $variants; do
      case "$text" in *"$(printf '%s' "$v" | tr -d ' ')"*) ;; *) fail "$page on $paper: the PDF's text lacks variant '$v'" ;; esac
    done
  done
  if [ $failed -eq 0 ]; then echo "check-report: $page: 1280 px, 800 px, print layouts and PDFs on A4 and Letter pass"; fi
  [ $page_failed -eq 0 ] || failed=1
done

exit $failed
