#!/usr/bin/env bash
# The two paired intervals over the committed main jobs: renders every committed run's report with this build
# (scripts/render-runs, into a temporary directory) and counts, per main job, the mapper-stage comparisons against
# per-batch that each 99% interval decides, from the report's table of both intervals (paired section). Prints a
# Markdown table; tally.txt beside this script is its output at the commit docs/paired.md names.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
scripts/render-runs "$tmp/r" > /dev/null 2>&1
echo "| run | comparisons | t decides | rank decides | both | t only | rank only | with 8 pairs or more: t, rank decide | the report's first screen |"
echo "|---|---|---|---|---|---|---|---|---|"
for run in seed seed-decide-neyman seed-decide seed-decide-dc seed-main seed-reserve seed-prefault; do
  report="$tmp/r/$run/report/report.md"
  [[ -f "$report" ]] || continue
  decided="$(grep -o "Decided: [0-9]* of [0-9]*" "$report" | head -1)"
  awk -v run="$run" -v decided="$decided" -F'|' '
    /^\| config \| strategy \| t: ratio/ { on = 1; next }
    on && /^\|---/ { next }
    on && /^\|/ { n++; d = $7; gsub(/^ +| +$/, "", d); c[d]++
                  if ($6 + 0 >= 8) { e++; if (d == "both" || d == "t only") et++; if (d == "both" || d == "rank only") er++ }
                  next }
    on { on = 0 }
    END { printf "| %s | %d | %d | %d | %d | %d | %d | %d: %d, %d | %s |\n", run, n, c["both"] + c["t only"],
          c["both"] + c["rank only"], c["both"], c["t only"], c["rank only"], e, et, er, decided }' "$report"
done
